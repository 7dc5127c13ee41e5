package cel

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// Quote renders a JSON-compatible Go value (see ToNative) the way celint's
// message templates write a value: a string as a double-quoted Go string
// literal (strconv.Quote: `a"b` becomes `"a\"b"`), anything else as compact
// JSON (encoding/json, so map keys are sorted). A value that encoding/json
// cannot write (NaN, an infinity, a channel...), for which a template
// fails, is written with fmt's %v instead.
func Quote(v any) string {
	s, err := quote(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return s
}

// quote is Quote with the encoding error, for callers that fail where a
// template fails.
func quote(v any) (string, error) {
	if s, ok := v.(string); ok {
		return strconv.Quote(s), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func quoteBinding(v ref.Val) ref.Val {
	nv, err := ToNative(v)
	if err != nil {
		return types.NewErr("quote: %v", err)
	}
	s, err := quote(nv)
	if err != nil {
		return types.NewErr("quote: %v", err)
	}
	return types.String(s)
}

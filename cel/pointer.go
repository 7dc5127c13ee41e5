package cel

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// parsePointer splits an RFC 6901 JSON Pointer into its unescaped reference
// tokens. It also accepts the URI fragment form "#/a/b", which is
// percent-decoded first. "" and "#" address the whole document.
func parsePointer(s string) ([]string, error) {
	p := s
	if strings.HasPrefix(p, "#") {
		dec, err := url.PathUnescape(p[1:])
		if err != nil {
			return nil, fmt.Errorf("malformed JSON Pointer %q: bad percent-encoding", s)
		}
		p = dec
	}
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("malformed JSON Pointer %q: it must be empty or start with \"/\"", s)
	}
	parts := strings.Split(p[1:], "/")
	for i, tok := range parts {
		if !strings.Contains(tok, "~") {
			continue
		}
		var sb strings.Builder
		for j := 0; j < len(tok); j++ {
			c := tok[j]
			if c != '~' {
				sb.WriteByte(c)
				continue
			}
			if j+1 >= len(tok) || (tok[j+1] != '0' && tok[j+1] != '1') {
				return nil, fmt.Errorf("malformed JSON Pointer %q: \"~\" must be followed by \"0\" or \"1\"", s)
			}
			if tok[j+1] == '0' {
				sb.WriteByte('~')
			} else {
				sb.WriteByte('/')
			}
			j++
		}
		parts[i] = sb.String()
	}
	return parts, nil
}

// escapePointerToken escapes one reference token: "~" as "~0", "/" as "~1".
func escapePointerToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	s = strings.ReplaceAll(s, "~", "~0")
	return strings.ReplaceAll(s, "/", "~1")
}

// lookupPointer follows tokens from v. It reports false when a member or
// index does not exist, when an array index is not a canonical decimal
// (no sign, no leading zeros; "-" names the nonexistent element after the
// last), or when a token meets a scalar.
func lookupPointer(v ref.Val, tokens []string) (ref.Val, bool) {
	for _, tok := range tokens {
		next, ok := child(v, tok)
		if !ok {
			return nil, false
		}
		v = next
	}
	return v, true
}

// child returns the member or element of v that tok names.
func child(v ref.Val, tok string) (ref.Val, bool) {
	switch t := v.(type) {
	case traits.Mapper:
		got, found := t.Find(types.String(tok))
		if !found || got == nil || types.IsError(got) {
			return nil, false
		}
		return got, true
	case traits.Lister:
		idx, ok := arrayIndex(tok)
		if !ok {
			return nil, false
		}
		size, ok := t.Size().(types.Int)
		if !ok || int64(idx) >= int64(size) {
			return nil, false
		}
		got := t.Get(types.Int(idx))
		if types.IsError(got) {
			return nil, false
		}
		return got, true
	}
	return nil, false
}

// arrayIndex parses an RFC 6901 array index: "0" or a decimal without a
// leading zero.
func arrayIndex(tok string) (int, bool) {
	if tok == "" || len(tok) > 1 && tok[0] == '0' {
		return 0, false
	}
	for i := 0; i < len(tok); i++ {
		if !isDigit(tok[i]) {
			return 0, false
		}
	}
	n, err := strconv.Atoi(tok)
	if err != nil {
		return 0, false
	}
	return n, true
}

package cel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
)

// expandingSchema is a schema whose $defs refer twice to the next level,
// levels deep: it expands to 2^levels subschemas.
func expandingSchema(levels int) string {
	var defs []string
	for i := 0; i < levels; i++ {
		defs = append(defs, fmt.Sprintf("'d%d': {'allOf': [{'$ref': '#/$defs/d%d'}, {'$ref': '#/$defs/d%d'}]}", i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf("'d%d': {'type': 'string'}", levels))
	return "{'$defs': {" + strings.Join(defs, ", ") + "}, '$ref': '#/$defs/d0'}"
}

// TestConstantSchemaArguments: a JSON Schema, or schema options, written
// as a constant that does not compile (or passes the schema bounds) is a
// compile error at the argument, saying what is wrong, whichever schema
// function takes it and wherever the call sits; the same schema through
// dyn(), a variable or the document compiles, and the call gives its
// answer when it runs.
func TestConstantSchemaArguments(t *testing.T) {
	e := newEnv(t, Config{})
	deep := expandingSchema(21)
	bad := []struct {
		expr, at, want string // at: the text the error points at
	}{
		{`matchesSchema(self, {'type': 'strin'})`, `{'type'`, `JSON Schema does not compile: at /type:`},
		{`schemaErrors(self, {'$ref': '#/$defs/x'}).size() == 0`, `{'$ref'`, `JSON Schema does not compile: at /$ref: $ref "#/$defs/x" points to nothing in the schema`},
		{`schemaError({'$ref': 'https://example.com/s.json'}) == ''`, `{'$ref'`, `leaves the schema`},
		{`self.all(x, matchesSchema(x, {'minLength': -1}))`, `{'minLength'`, `JSON Schema does not compile`},
		{`matchesSchema(self, {'items': [{'type': 'string'}]}, {'dialect': '2020-12'})`, `{'items'`, `JSON Schema does not compile`},
		{`matchesSchema(self, {'$ref': 'other.json'}, {'externalRefs': 'refuse'})`, `{'$ref'`, `JSON Schema does not compile`},
		{`matchesSchema(self, {}, {'dialect': '7'})`, `{'dialect'`, `schema option dialect: got "7"`},
		{`schemaError({}, {'colour': 'red'}) == ''`, `{'colour'`, `unknown schema option "colour"`},
		{`matchesSchema(self, ` + deep + `)`, `{'$defs'`, fmt.Sprintf("expands to more than %d subschemas", MaxSchemaExpansion)},
	}
	for _, tc := range bad {
		_, err := e.Compile(tc.expr, Origin{})
		var ce *CompileError
		if !errors.As(err, &ce) || len(ce.Issues) != 1 {
			t.Errorf("%.80s: got %v, want one compile error", tc.expr, err)
			continue
		}
		is := ce.Issues[0]
		if col := strings.Index(tc.expr, tc.at) + 1; is.Line != 1 || is.Col != col || !strings.Contains(is.Msg, tc.want) {
			t.Errorf("%.80s: got %d:%d %q, want 1:%d and a message containing %q", tc.expr, is.Line, is.Col, is.Msg, col, tc.want)
		}
	}

	good := []struct {
		expr string
		self any
		want any
	}{
		{`matchesSchema(self, dyn({'type': 'strin'}))`, "x", false},
		{`cel.bind(s, {'type': 'strin'}, matchesSchema(self, s))`, "x", false},
		{`matchesSchema(self, self)`, map[string]any{"type": "strin"}, false},
		{`schemaError(dyn({'type': 'strin'})).startsWith('does not compile')`, nil, true},
		{`schemaErrors(1, dyn(` + deep + `))[0].message.contains('expands to more than')`, nil, true},
		{`matchesSchema(self, {'type': 'string'})`, "x", true},
		// Options known only when the call runs: the schema, which draft-07
		// reads and 2020-12 refuses, is left to the call.
		{`matchesSchema(self, {'items': [{'type': 'string'}]}, {'dialect': path == '' ? 'draft-07' : '2020-12'})`, []any{"a"}, true},
		{`matchesSchema(self, {'type': 'strin'}, dyn({}))`, "x", false},
	}
	for _, tc := range good {
		p, err := e.Compile(tc.expr, Origin{})
		if err != nil {
			t.Errorf("%.80s: %v", tc.expr, err)
			continue
		}
		v, _, err := p.Eval(context.Background(), map[string]any{"self": tc.self, "root": tc.self, "path": ""})
		if err != nil || v != types.Bool(tc.want.(bool)) {
			t.Errorf("%.80s = %v, %v; want %v", tc.expr, v, err, tc.want)
		}
	}
}

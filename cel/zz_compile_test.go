package cel

import (
	"strconv"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func BenchmarkZZCompile(b *testing.B) {
	i := 0
	for b.Loop() {
		i++
		doc := map[string]any{"type": "object", "properties": map[string]any{"field" + strconv.Itoa(i): map[string]any{"type": "string"}, "b": map[string]any{"type": "integer"}}, "required": []any{"b"}, "additionalProperties": false}
		if _, err := compileSchemaDraft(doc, jsonschema.Draft2020); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZZMeta(b *testing.B) {
	for b.Loop() {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		meta, _ := c.Compile(jsonschema.Draft2020.String())
		bb := fastBuilder{built: map[*jsonschema.Schema]*fastSchema{}, meta: meta}
		bb.build(meta)
	}
}

package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// noFetch is a jsonschema URL loader that refuses everything: a rule's schema
// fragment is self-contained, and validating never touches the network or
// the file system.
type noFetch struct{}

func (noFetch) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s: schemas in rules are self-contained; external references are never fetched", url)
}

// compileSchema compiles a JSON Schema fragment (draft 2020-12 unless the
// fragment says otherwise).
func compileSchema(v any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.UseLoader(noFetch{})
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	const loc = "celint:rule-schema.json"
	if err := c.AddResource(loc, v); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// schemaViolation is one leaf error of a schema validation.
type schemaViolation struct {
	pointer string // relative to the validated value
	message string
}

// validateSchema validates v and returns the most specific errors.
func validateSchema(s *jsonschema.Schema, v any) ([]schemaViolation, error) {
	err := s.Validate(v)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	printer := message.NewPrinter(language.English)
	var out []schemaViolation
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, schemaViolation{pointer: pointerOf(e.InstanceLocation), message: e.ErrorKind.LocalizedString(printer)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out, nil
}

func pointerOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

// escapeToken escapes a JSON Pointer reference token (RFC 6901).
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

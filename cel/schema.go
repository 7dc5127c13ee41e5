package cel

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/google/cel-go/common/types/ref"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaCacheSize bounds the compiled schemas one library instance keeps.
const schemaCacheSize = 256

// schemaLocation is the URL under which a schema value is compiled. Nothing
// is ever fetched from it.
const schemaLocation = "celint:///schema.json"

// refusingLoader is the schema compiler's URL loader: it refuses every URL,
// so a $ref to anything outside the schema value is an error and no file or
// network access ever happens. (The JSON Schema meta-schemas are built into
// the jsonschema package and do not go through the loader.)
type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("refusing to load %q: schemas may only refer to themselves (no file or network access)", url)
}

// schemaCache maps the canonical JSON of a schema to its compiled form (or
// the compile error).
type schemaCache struct {
	mu      sync.Mutex
	entries map[string]schemaEntry
}

type schemaEntry struct {
	schema *jsonschema.Schema
	err    error
}

// compiledSchema compiles (or fetches from the cache) the schema value.
func (l *library) compiledSchema(schema ref.Val) (*jsonschema.Schema, error) {
	doc, err := ToNative(schema)
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %v", err)
	}
	canon, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %v", err)
	}
	key := string(canon)
	c := &l.schemas
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		return e.schema, e.err
	}
	e.schema, e.err = compileSchema(doc)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]schemaEntry{}
	}
	if len(c.entries) >= schemaCacheSize {
		for k := range c.entries { // evict an arbitrary entry
			delete(c.entries, k)
			break
		}
	}
	c.entries[key] = e
	return e.schema, e.err
}

// Schema is a compiled JSON Schema (draft 2020-12 unless it says otherwise)
// whose references never leave it: compiling or validating never reads a
// file or the network. Formats are asserted. It is safe for concurrent use.
type Schema struct{ s *jsonschema.Schema }

// SchemaViolation is one most-specific cause of a validation failure.
type SchemaViolation struct {
	Pointer string // JSON Pointer of the failing value, relative to the validated value
	Message string
	Keyword string // the schema keyword location
}

// CompileSchema compiles a schema given as a JSON-compatible Go value.
func CompileSchema(doc any) (*Schema, error) {
	s, err := compileSchema(doc)
	if err != nil {
		return nil, err
	}
	return &Schema{s: s}, nil
}

// Validate validates a JSON-compatible Go value and returns the most
// specific causes of failure, sorted by pointer, keyword and message; nil
// when the value is valid.
func (s *Schema) Validate(v any) ([]SchemaViolation, error) {
	issues, err := validateWith(s.s, v)
	if err != nil {
		return nil, err
	}
	out := make([]SchemaViolation, len(issues))
	for i, is := range issues {
		out[i] = SchemaViolation{Pointer: is.pointer, Message: is.message, Keyword: is.keyword}
	}
	return out, nil
}

func compileSchema(doc any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(refusingLoader{})
	if err := c.AddResource(schemaLocation, doc); err != nil {
		return nil, fmt.Errorf("invalid schema: %v", err)
	}
	sch, err := c.Compile(schemaLocation)
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %s", schemaErrorText(err))
	}
	return sch, nil
}

// schemaErrorText renders a schema compile error on one line: a schema that
// breaks its meta-schema is described by the leaves of that validation.
func schemaErrorText(err error) string {
	var sve *jsonschema.SchemaValidationError
	var verr *jsonschema.ValidationError
	if errors.As(err, &sve) && errors.As(sve.Err, &verr) {
		var leaves []schemaIssue
		collectLeaves(*verr.DetailedOutput(), &leaves)
		parts := make([]string, len(leaves))
		for i, lf := range leaves {
			parts[i] = fmt.Sprintf("at %q: %s", lf.pointer, lf.message)
		}
		sort.Strings(parts)
		return "it does not conform to its meta-schema: " + strings.Join(parts, "; ")
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}

// validate validates value against schema and returns the most specific
// causes of failure (nil when value is valid).
func (l *library) validate(value, schema ref.Val) ([]any, error) {
	sch, err := l.compiledSchema(schema)
	if err != nil {
		return nil, err
	}
	inst, err := ToNative(value)
	if err != nil {
		return nil, fmt.Errorf("value cannot be validated: %v", err)
	}
	leaves, err := validateWith(sch, inst)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(leaves))
	for _, lf := range leaves {
		out = append(out, map[string]any{
			"pointer": lf.pointer,
			"message": lf.message,
			"keyword": lf.keyword,
		})
	}
	return out, nil
}

// validateWith validates inst and returns the leaves of the failure, sorted.
func validateWith(sch *jsonschema.Schema, inst any) ([]schemaIssue, error) {
	err := sch.Validate(inst)
	if err == nil {
		return nil, nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return nil, fmt.Errorf("schema validation failed: %v", err)
	}
	var leaves []schemaIssue
	collectLeaves(*verr.DetailedOutput(), &leaves)
	sort.SliceStable(leaves, func(i, j int) bool {
		a, b := leaves[i], leaves[j]
		if a.pointer != b.pointer {
			return a.pointer < b.pointer
		}
		if a.keyword != b.keyword {
			return a.keyword < b.keyword
		}
		return a.message < b.message
	})
	return leaves, nil
}

type schemaIssue struct{ pointer, message, keyword string }

// collectLeaves flattens the output tree to its leaves, the most specific
// causes.
func collectLeaves(u jsonschema.OutputUnit, out *[]schemaIssue) {
	if len(u.Errors) == 0 {
		msg := "invalid"
		if u.Error != nil {
			msg = u.Error.String()
		}
		*out = append(*out, schemaIssue{pointer: u.InstanceLocation, message: msg, keyword: u.KeywordLocation})
		return
	}
	for _, c := range u.Errors {
		collectLeaves(c, out)
	}
}

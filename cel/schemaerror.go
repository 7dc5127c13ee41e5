package cel

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// metaSchemaPrefix starts schemaErrorText's message for a schema that
// breaks its meta-schema; maxSchemaProblems bounds the "at ...: ..." parts
// of it that schemaProblem keeps.
const (
	metaSchemaPrefix  = "it does not conform to its meta-schema: "
	maxSchemaProblems = 5
)

// schemaProblem reports why a schema value does not compile, as
// "does not compile: <reason>", or "" when it compiles. It compiles with
// compiledSchema (and so shares its cache).
func (l *library) schemaProblem(schema ref.Val) string {
	_, err := l.compiledSchema(schema)
	if err == nil {
		return ""
	}
	return "does not compile: " + shortSchemaError(err.Error(), schema)
}

// shortSchemaError rewrites a compile error message of compiledSchema.
func shortSchemaError(msg string, schema ref.Val) string {
	msg = strings.TrimPrefix(msg, "invalid schema: ")
	// The messages of github.com/santhosh-tekuri/jsonschema/v6's errors,
	// whose URLs the compiler resolved against schemaLocation.
	// JSONPointerNotFoundError: a "$ref": "#/..." to nothing.
	if url, rest, ok := quotedAfter(msg, "json-pointer in "); ok && rest == " not found" {
		return "unresolved $ref " + localURL(url)
	}
	// AnchorNotFoundError: a "$ref": "#name" to no "$anchor".
	if url, rest, ok := quotedAfter(msg, "anchor in "); ok && strings.HasPrefix(rest, " not found in schema ") {
		return "unresolved $ref " + localURL(url)
	}
	// LoadURLError from refusingLoader: a "$ref" out of the schema, or a
	// "$schema" naming a meta-schema that is not built in (which the
	// compiler then tries to load).
	if url, rest, ok := quotedAfter(msg, "failing loading "); ok && strings.HasPrefix(rest, ": refusing to load ") {
		if written, ok := declaredMetaSchema(schema, url); ok {
			return "unknown $schema dialect " + written + " (only drafts 4, 6, 7, 2019-09 and 2020-12 are known; nothing is fetched)"
		}
		return "$ref " + localURL(url) + " leaves the schema (nothing is fetched)"
	}
	if rest, ok := strings.CutPrefix(msg, metaSchemaPrefix); ok {
		parts := strings.Split(rest, `; at "`)
		more := ""
		if len(parts) > maxSchemaProblems {
			more = fmt.Sprintf("; and %d more", len(parts)-maxSchemaProblems)
			parts = parts[:maxSchemaProblems]
		}
		rest = strings.Join(parts, `; at "`) + more
		// The schema itself fails: at "": ...
		if after, ok := strings.CutPrefix(rest, `at "": `); ok {
			rest = "the schema: " + after
		}
		return rest
	}
	msg = strings.ReplaceAll(msg, `"`+schemaLocation+`"`, "the schema")
	return strings.ReplaceAll(msg, schemaLocation, "")
}

// quotedAfter parses msg as prefix, a Go-quoted string and the rest; it
// returns the unquoted string and the rest.
func quotedAfter(msg, prefix string) (text, rest string, ok bool) {
	after, ok := strings.CutPrefix(msg, prefix)
	if !ok {
		return "", "", false
	}
	q, err := strconv.QuotedPrefix(after)
	if err != nil {
		return "", "", false
	}
	text, err = strconv.Unquote(q)
	if err != nil {
		return "", "", false
	}
	return text, after[len(q):], true
}

// localURL writes a URL the compiler resolved against schemaLocation as it
// is written in the schema: "#/$defs/x" for a fragment of the schema
// itself, "other.json" for a relative reference.
func localURL(url string) string {
	if rest, ok := strings.CutPrefix(url, schemaLocation); ok {
		if rest == "" {
			return "#"
		}
		return rest
	}
	base := schemaLocation[:strings.LastIndexByte(schemaLocation, '/')+1] // "celint:///"
	return strings.TrimPrefix(url, base)
}

// declaredMetaSchema finds a "$schema" member of the schema value (at the
// top, or in any nested object) naming url, give or take an empty
// fragment, and returns it as written.
func declaredMetaSchema(schema ref.Val, url string) (string, bool) {
	found := false
	var written string
	budget := maxCostNodes
	var walk func(v ref.Val)
	walk = func(v ref.Val) {
		if found || budget <= 0 {
			return
		}
		budget--
		switch t := v.(type) {
		case traits.Mapper:
			if got, ok := t.Find(types.String("$schema")); ok {
				if s, ok := got.(types.String); ok && strings.TrimSuffix(string(s), "#") == strings.TrimSuffix(url, "#") {
					found, written = true, string(s)
					return
				}
			}
			it := t.Iterator()
			for it.HasNext() == types.True {
				walk(t.Get(it.Next()))
			}
		case traits.Lister:
			it := t.Iterator()
			for it.HasNext() == types.True {
				walk(it.Next())
			}
		}
	}
	walk(schema)
	return written, found
}

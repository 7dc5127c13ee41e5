package rulesets_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// memberPlaces are where a document of the smallest kind holds an object of
// each name of a memberVersions table: its JSON Pointer.
var memberPlaces = map[string]string{
	"root":              "",
	"Info":              "/info",
	"Transport":         "/transports/0",
	"Tool":              "/tools/0",
	"Resource":          "/resources/0",
	"Resource Template": "/resourceTemplates/0",
	"Prompt":            "/prompts/0",
}

// TestMemberVersions checks the memberVersions table of each pinned mcpdesc
// ruleset, and what it does: every entry names a version range of
// formatVersions that leaves out each version the ruleset accepts; and a
// document of each accepted version that carries the member gets one
// finding more than without it, at the member, whose message names the
// versions.
func TestMemberVersions(t *testing.T) {
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, rs := range cat.Rulesets() {
		if rs.Name != "mcpdesc" {
			continue
		}
		params := rs.Params()
		table, _ := params["memberVersions"].(map[string]any)
		if len(table) == 0 {
			t.Errorf("%s: no memberVersions", rs)
			continue
		}
		formats, accepted := strs(params["formatVersions"]), strs(params["mcpdescVersions"])
		if len(formats) == 0 || len(accepted) == 0 {
			t.Errorf("%s: formatVersions %v, mcpdescVersions %v", rs, formats, accepted)
			continue
		}
		for _, object := range sortedKeys(table) {
			at, ok := memberPlaces[object]
			if !ok {
				t.Errorf("%s: memberVersions names %q, which no rule's message names", rs, object)
				continue
			}
			members, _ := table[object].(map[string]any)
			for _, member := range sortedKeys(members) {
				r, _ := members[member].(map[string]any)
				from, hasFrom := r["from"].(string)
				until, hasUntil := r["until"].(string)
				if len(r) != 1 || hasFrom == hasUntil {
					t.Errorf("%s: %s.%s: want one of from and until, got %v", rs, object, member, r)
					continue
				}
				limit := from + until
				if !slices.Contains(formats, limit) {
					t.Errorf("%s: %s.%s: %s is not one of formatVersions %v", rs, object, member, limit, formats)
					continue
				}
				for _, v := range accepted {
					i, l := slices.Index(formats, v), slices.Index(formats, limit)
					if hasFrom && i >= l || hasUntil && i <= l {
						t.Errorf("%s: %s.%s: %v, and the ruleset accepts %s", rs, object, member, r, v)
						continue
					}
					want := fmt.Sprintf("%s is %s %s member up to MCP Description %s only; this document declares mcpdesc %s", member, article(object), object, until, v)
					if hasFrom {
						want = fmt.Sprintf("%s is %s %s member from MCP Description %s on; this document declares mcpdesc %s", member, article(object), object, from, v)
					}
					before := lintMap(t, rs, smallestDocument(rs, v))
					doc := smallestDocument(rs, v)
					put(doc, at, member)
					after := lintMap(t, rs, doc)
					added := without(after, before)
					if len(added) != 1 || added[0].Pointer != at+"/"+member || added[0].Message != want {
						t.Errorf("%s, mcpdesc %s, %s at %s: want one finding more, at the member: %q; got%s", rs, v, member, at, want, describe(added))
					}
					tested++
				}
			}
		}
	}
	// v0.7.0 names 32 members, v0.8.0 5, v0.9.0-rc.3 1 (for two versions)
	if tested < 39 {
		t.Errorf("only %d members tested", tested)
	}
}

// article is the indefinite article of an object's name.
func article(name string) string {
	if strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an"
	}
	return "a"
}

// smallestDocument is a description of version v that declares one
// object of each kind of memberPlaces.
func smallestDocument(rs *engine.Ruleset, v string) map[string]any {
	doc := map[string]any{
		"mcpdesc":           v,
		"info":              map[string]any{"name": "demo", "version": "1.0.0"},
		"transports":        []any{map[string]any{"type": "stdio", "command": "demo"}},
		"tools":             []any{map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object"}}},
		"resources":         []any{map[string]any{"name": "r", "uri": "file:///r.txt"}},
		"resourceTemplates": []any{map[string]any{"name": "rt", "uriTemplate": "file:///{x}"}},
		"prompts":           []any{map[string]any{"name": "p"}},
	}
	if uris, ok := rs.Params()["schemaURIs"].(map[string]any); ok {
		doc["$schema"] = uris[v]
	}
	if v != "0.7.0" {
		doc["protocolVersions"] = []any{"2025-11-25"}
	}
	return doc
}

// put gives the object at pointer at of doc the member name, null.
func put(doc map[string]any, at, name string) {
	var o any = doc
	for _, tok := range strings.Split(at, "/")[1:] {
		switch c := o.(type) {
		case map[string]any:
			o = c[tok]
		case []any:
			o = c[0]
		}
	}
	o.(map[string]any)[name] = nil
}

// lintMap lints doc, as JSON, with rs.
func lintMap(t *testing.T, rs *engine.Ruleset, doc map[string]any) []engine.Diagnostic {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("d.json", data, rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := rs.Lint(context.Background(), d, engine.LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// without returns the diagnostics of ds that before has no diagnostic of
// the same rule, pointer and message like.
func without(ds, before []engine.Diagnostic) []engine.Diagnostic {
	var out []engine.Diagnostic
	for _, d := range ds {
		if !slices.ContainsFunc(before, func(b engine.Diagnostic) bool {
			return b.RuleID == d.RuleID && b.Pointer == d.Pointer && b.Message == d.Message
		}) {
			out = append(out, d)
		}
	}
	return out
}

// strs is v, a list of strings, as a []string.
func strs(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

package rulesets_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// The MCP Description 0.7.0 documents of testdata/mcpdesc-0.7.0 are our own
// descriptions of imagined servers, written the way the published 0.7.0
// examples are (YAML and JSON, every kind of primitive, inline security
// schemes, capabilities, icons, tags, a root extension).
const testdata070 = "../testdata/mcpdesc-0.7.0"

// rules070 is the embedded v0.7.0 ruleset: its own rules and those every
// version shares (rulesets/mcpdesc/common), which its header includes.
type rules070 struct {
	cat *engine.Catalog
	rs  *engine.Ruleset
}

func newRules070(t *testing.T) *rules070 {
	t.Helper()
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := cat.Find("mcpdesc@v0.7.0")
	if err != nil {
		t.Fatal(err)
	}
	return &rules070{cat: cat, rs: rs}
}

// lint returns the diagnostics of v0.7.0 on doc.
func (r *rules070) lint(t *testing.T, doc *loader.Document) []engine.Diagnostic {
	t.Helper()
	ds, err := r.rs.Lint(context.Background(), doc, engine.LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func describe(ds []engine.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		id := d.RuleID
		if d.Code != "" {
			id += "/" + d.Code
		}
		b.WriteString("\n  " + d.Severity.String() + " " + id + " at " + d.Pointer + ": " + d.Message)
	}
	return b.String()
}

// TestMcpdesc070Documents: celint picks v0.7.0 for every 0.7.0 test
// document without being told, and finds nothing wrong in any of them.
func TestMcpdesc070Documents(t *testing.T) {
	r := newRules070(t)
	files, err := filepath.Glob(filepath.Join(testdata070, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var json, yaml int
	for _, f := range files {
		switch filepath.Ext(f) {
		case ".json":
			json++
		case ".yaml", ".yml":
			yaml++
		default:
			t.Errorf("%s: not a JSON or YAML document", f)
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			doc, rs, err := r.cat.LoadFile(f, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rs != r.rs {
				t.Fatalf("checked with %s, want mcpdesc@v0.7.0", rs)
			}
			if ds := r.lint(t, doc); len(ds) > 0 {
				t.Errorf("%d diagnostics on a clean document:%s", len(ds), describe(ds))
			}
		})
	}
	if json < 2 || yaml < 2 || json+yaml < 6 {
		t.Errorf("%d JSON and %d YAML test documents; want at least six, in both formats", json, yaml)
	}
}

// planted070 is a clean 0.7.0 description that the faults below change.
const planted070 = `{
  "$schema": "https://developer.cisco.com/mcp-description/schema/0.7.0",
  "mcpdesc": "0.7.0",
  "info": {"name": "kiosk", "title": "Cafe Kiosk", "version": "1.2.0", "protocolVersion": "2025-06-18"},
  "transports": [
    {"type": "streamable-http", "url": "https://kiosk.example.com/mcp"},
    {"type": "stdio", "command": "kiosk", "args": ["mcp"], "security": []}
  ],
  "security": [{"type": "apiKey", "name": "X-Kiosk-Key", "in": "header"}],
  "capabilities": {"tools": {"listChanged": true}},
  "tools": [
    {"name": "lookup", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}, "tags": ["menu"]},
    {"name": "order", "annotations": {"readOnlyHint": false}, "tags": ["orders"]}
  ],
  "resources": [{"uri": "kiosk://menu", "name": "menu", "tags": ["menu"]}],
  "tags": [{"name": "menu"}, {"name": "orders"}]
}`

// TestMcpdesc070PlantedFaults: each fault against a MUST of 0.7.0 gives
// exactly one diagnostic, an error, from the rule that owns the fault, at
// the pointer of the fault: no cascade of findings about the same mistake.
func TestMcpdesc070PlantedFaults(t *testing.T) {
	r := newRules070(t)
	type doc = map[string]any
	at := func(d doc, keys ...any) doc {
		var v any = d
		for _, k := range keys {
			switch k := k.(type) {
			case string:
				v = v.(doc)[k]
			case int:
				v = v.([]any)[k]
			}
		}
		return v.(doc)
	}
	for _, c := range []struct {
		name, rule, pointer string
		plant               func(doc)
	}{
		{"no transports", "mcpdesc.document.structure", "/transports",
			func(d doc) { delete(d, "transports") }},
		{"a tool name that is not a string", "mcpdesc.tools.tool", "/tools/0/name",
			func(d doc) { at(d, "tools", 0)["name"] = 42 }},
		{"an unknown transport type", "mcpdesc.transports.transport", "/transports/0/type",
			func(d doc) { at(d, "transports", 0)["type"] = "websocket" }},
		{"an apiKey scheme without in", "mcpdesc.security.scheme/type-members", "/security/0/in",
			func(d doc) { delete(at(d, "security", 0), "in") }},
		{"no primitive at all", "mcpdesc.document.primitives/missing", "",
			func(d doc) { delete(d, "tools"); delete(d, "resources") }},
		{"only empty primitive collections", "mcpdesc.document.primitives/all-empty", "",
			func(d doc) { d["tools"] = []any{}; d["resources"] = []any{} }},
		{"capabilities written as the 0.8.0 list", "mcpdesc.capabilities.object", "/capabilities",
			func(d doc) { d["capabilities"] = []any{doc{"tools": doc{"listChanged": "yes"}}} }},
		{"an MCP revision 0.7.0 does not know", "mcpdesc.info.structure", "/info/protocolVersion",
			func(d doc) { at(d, "info")["protocolVersion"] = "2026-07-28" }},
		{"a root member of a later version", "mcpdesc.document.structure", "/protocolVersions",
			func(d doc) { d["protocolVersions"] = []any{"2025-06-18"} }},
		{"a 0.8.0 Security Requirement Object", "mcpdesc.security.inline-scheme", "/security/0",
			func(d doc) { d["security"] = []any{doc{"apiKey": []any{}}} }},
		{"a tag the root does not declare", "mcpdesc.tags.references/undeclared", "/tools/1/tags/0",
			func(d doc) { at(d, "tools", 1)["tags"] = []any{"billing"} }},
		{"a duplicate tag name", "mcpdesc.tags.unique-names", "/tags/2/name",
			func(d doc) { d["tags"] = append(d["tags"].([]any), doc{"name": "menu"}) }},
		{"an extension on a tool", "mcpdesc.tools.tool", "/tools/0/x-acme-owner",
			func(d doc) { at(d, "tools", 0)["x-acme-owner"] = "ops" }},
		{"a streamable-http transport without url", "mcpdesc.transports.transport", "/transports/0/url",
			func(d doc) { delete(at(d, "transports", 0), "url") }},
		{"an empty transports list", "mcpdesc.transports.list", "/transports",
			func(d doc) { d["transports"] = []any{} }},
		{"an input schema that is no JSON Schema", "mcpdesc.tools.schema", "/tools/0/inputSchema",
			func(d doc) { at(d, "tools", 0, "inputSchema", "properties", "q")["type"] = "text" }},
		{"an info without version", "mcpdesc.info.structure", "/info/version",
			func(d doc) { delete(at(d, "info"), "version") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var d doc
			if err := json.Unmarshal([]byte(planted070), &d); err != nil {
				t.Fatal(err)
			}
			c.plant(d)
			data, err := json.MarshalIndent(d, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			parsed, rs, err := r.cat.Load("planted.json", data, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rs != r.rs {
				t.Fatalf("checked with %s, want mcpdesc@v0.7.0", rs)
			}
			ds := r.lint(t, parsed)
			if len(ds) != 1 {
				t.Fatalf("%d diagnostics, want exactly one error from %s at %q:%s", len(ds), c.rule, c.pointer, describe(ds))
			}
			d0 := ds[0]
			id := d0.RuleID
			if d0.Code != "" {
				id += "/" + d0.Code
			}
			if d0.Severity != engine.Error || id != c.rule || d0.Pointer != c.pointer {
				t.Errorf("got%s\nwant an error from %s at %q", describe(ds), c.rule, c.pointer)
			}
			t.Logf("%s at %q: %s", id, d0.Pointer, d0.Message)
		})
	}
	// The clean document is clean.
	clean, _, err := r.cat.Load("planted.json", []byte(planted070), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ds := r.lint(t, clean); len(ds) > 0 {
		t.Errorf("the unplanted document has diagnostics:%s", describe(ds))
	}
}

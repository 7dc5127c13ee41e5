package benchgen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Rules returns the rule folder that `python3 genrules.py N DIR` writes,
// as file name → content, byte for byte: n synthetic rules cycling through
// ten templates, each copy with its own constants, ten rules a file
// (perf000.yaml, perf010.yaml, …), each file JSON (which is YAML) indented
// by one space with no final newline.
func Rules(n int) map[string][]byte {
	rules := make(list, 0, max(n, 0))
	for k := range max(n, 0) {
		rules = append(rules, rule(k))
	}
	out := make(map[string][]byte)
	for i := 0; i < len(rules); i += 10 {
		var b strings.Builder
		writeJSON(&b, obj("rules", rules[i:min(i+10, len(rules))]), 0)
		out[fmt.Sprintf("perf%03d.yaml", i)] = []byte(b.String())
	}
	return out
}

// WriteRules writes the files of Rules(n) into dir, creating it if needed.
// Unlike genrules.py it removes no file already there: give it a fresh
// folder (such as t.TempDir()) to get exactly the Python's folder.
func WriteRules(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range Rules(n) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// rule is genrules.py's T(k): template k%10 with constants from k.
func rule(k int) object {
	doc := obj("mcpdesc", "0.9.0", "tools", list{obj("name", "t", "description", "d", "inputSchema", obj("type", "object"))})
	ex := obj(
		"valid", list{obj("document", doc, "selected", "/tools/0")},
		"invalid", list{obj("document", obj("mcpdesc", "0.9.0", "tools", list{obj("name", "T-1")}), "selected", "/tools/0")},
	)
	t := k % 10
	base := obj(
		"id", fmt.Sprintf("perf.r%03d.t%d", k, t),
		"title", fmt.Sprintf("perf rule %d", k),
		"level", "should",
		"examples", ex,
	)
	var more object
	switch t {
	case 0: // tool names: regex + size
		more = obj("given", "tools.#", "checks", list{
			obj("assert", "self.name.matches('^[a-z][a-z0-9_]*$')", "at", "name", "message", "tool name {self.name} is not snake_case"),
			obj("assert", fmt.Sprintf("size(self.name) <= %d", 64+k), "at", "name", "message", "tool name too long"),
		})
	case 1: // tool description present and bounded
		more = obj("given", "tools.#", "checks", list{
			obj("when", "has(self.description)", "assert", fmt.Sprintf("size(self.description) > 0 && size(self.description) < %d", 1000+k), "at", "description"),
			obj("assert", "has(self.inputSchema)", "message", "tool {self.name} has no inputSchema"),
		})
	case 2: // JSON Schema fragment on input/output schemas
		more = obj("given", list{"tools.#.inputSchema", "tools.#.outputSchema"}, "schema", obj(
			"type", "object", "required", list{"type"},
			"properties", obj(
				"type", obj("const", "object"),
				"properties", obj("type", "object", "additionalProperties", obj("type", "object", "required", list{"type"})),
				"required", obj("type", "array", "items", obj("type", "string"), "maxItems", 100+k),
				"additionalProperties", obj("type", "boolean"),
			)))
	case 3: // schema: required names declared properties (each over a list)
		more = obj("given", list{"tools.#.inputSchema", "tools.#.outputSchema"},
			"variables", obj("props", "self.?properties.orValue({})"),
			"checks", list{obj("each", "self.?required.orValue([])", "assert", "type(item) == string && item in props",
				"at", "required/{index}", "message", fmt.Sprintf("required name {item} is not declared (%d)", k))})
	case 4: // examples: input members are declared in inputSchema (each over a map)
		more = obj("given", "tools.#", "variables", obj("inProps", "self.?inputSchema.?properties.orValue({})"),
			"checks", list{obj("each", "self.?examples.orValue({})", "when", "has(item.input)",
				"assert", "item.input.all(p, p in inProps)", "at", "examples/{key}/input",
				"message", fmt.Sprintf("example {key} has undeclared input (%d)", k))})
	case 5: // examples: structuredContent members declared in outputSchema and required present
		more = obj("given", "tools.#", "variables", obj("outSchema", "self.?outputSchema.orValue({})",
			"outProps", "outSchema.?properties.orValue({})"),
			"checks", list{obj("each", "self.?examples.orValue({})",
				"when", "has(item.result) && has(item.result.structuredContent)",
				"assert", "item.result.structuredContent.all(p, p in outProps) && outSchema.?required.orValue([]).all(r, r in item.result.structuredContent)",
				"at", "examples/{key}/result/structuredContent", "message", fmt.Sprintf("structuredContent does not fit outputSchema (%d)", k))})
	case 6: // example results: content item types (selects the examples map)
		more = obj("given", "tools.#.examples", "checks", list{
			obj("each", "self", "when", "has(item.result) && has(item.result.content)",
				"assert", fmt.Sprintf("item.result.content.all(c, c.type in ['text', 'image', 'audio', 'resource_link', 'resource']) && size(item.result.content) < %d", 50+k),
				"at", "examples/{key}/result/content"),
		})
	case 7: // URL elicitations: https and a valid URI
		more = obj("given", `tools.#.elicitations.#(mode=="url")#`, "checks", list{
			obj("assert", "has(self.url) && self.url.startsWith('https://') && isURI(self.url)", "at", "url",
				"message", fmt.Sprintf("elicitation url must be https (%d)", k)),
		})
	case 8: // cross-document lookup in root: elicitation names do not clash with tool names (map built once)
		more = obj("given", "tools.#.elicitations.#",
			"documentVariables", obj("toolIndex", "root.?tools.orValue([]).transformMapEntry(i, t, {t.name: i})"),
			"checks", list{
				obj("forbid", "self.name in toolIndex", "at", "name", "message", fmt.Sprintf("elicitation {self.name} has a tool's name (%d)", k)),
				obj("assert", "self.?protocolVersions.orValue([]).all(v, v in root.protocolVersions)", "message", "unknown protocol version"),
			})
	case 9: // form elicitations: JSON Schema fragment on requestedSchema + a CEL check
		more = obj("given", `tools.#.elicitations.#(mode=="form")#.requestedSchema`,
			"schema", obj("type", "object", "properties", obj(
				"type", obj("const", "object"),
				"properties", obj("type", "object", "maxProperties", 100+k,
					"additionalProperties", obj("type", "object", "required", list{"type"},
						"properties", obj("type", obj("enum", list{"string", "number", "integer", "boolean"})))))),
			"checks", list{obj("each", "self.?properties.orValue({})", "when", "has(item.minimum) && has(item.maximum)",
				"assert", "item.minimum <= item.maximum", "at", "properties/{key}")})
	}
	return append(base, more...)
}

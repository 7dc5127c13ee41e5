package benchgen

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Description returns the MCP Description with the given number of tools
// that `python3 gen_big.py TOOLS OUT.json` writes, byte for byte: JSON
// indented by one space, no final newline. Each tool has distinct input and
// output schemas, two examples and two elicitations (a form and a URL one);
// 5,000 tools are about 9.3 MB.
func Description(tools int) []byte {
	var b strings.Builder
	writeJSON(&b, description(tools), 0)
	return []byte(b.String())
}

// DescriptionYAML returns the document of Description as block YAML (two
// spaces an indent level), in the same key order, encoded by yaml/v4.
func DescriptionYAML(tools int) []byte {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(yamlNode(description(tools))); err != nil {
		panic("benchgen: " + err.Error()) // a tree of plain scalars always encodes
	}
	if err := enc.Close(); err != nil {
		panic("benchgen: " + err.Error())
	}
	return buf.Bytes()
}

// description is gen_big.py's doc.
func description(n int) object {
	tools := make(list, 0, max(n, 0))
	for i := range max(n, 0) {
		tools = append(tools, tool(i))
	}
	return obj(
		"mcpdesc", "0.8.0",
		"info", obj("name", "generated", "version", "1.0.0"),
		"protocolVersions", list{"2026-07-28"},
		"transports", list{obj("type", "stdio", "command", "generated")},
		"tools", tools,
	)
}

// tool is gen_big.py's tool(i).
func tool(i int) object {
	k := i % 7
	types := [...]string{"string", "integer", "number", "boolean"}
	var props object
	var names []string
	for j := range 2 + k%3 {
		name := fmt.Sprintf("field%d_%d", i, j)
		props = append(props, member{name, obj("type", types[(i+j)%4])})
		names = append(names, name)
	}
	slices.Sort(names) // sorted(props): Python compares code points, as Go compares bytes of ASCII
	req := make(list, 0, 2)
	for _, name := range names[:1+k%2] {
		req = append(req, name)
	}
	val := func(t string, n int) any {
		switch t {
		case "string":
			return fmt.Sprintf("v%d", n)
		case "integer":
			return n
		case "number":
			return float64(n) + 0.5
		}
		return n%2 == 0
	}
	exIn := make(object, 0, len(props))
	for _, p := range props {
		exIn = append(exIn, member{p.key, val(p.val.(object)[0].val.(string), i)})
	}
	out := fmt.Sprintf("out%d", i)
	return obj(
		"name", fmt.Sprintf("tool_%d", i),
		"description", fmt.Sprintf("Generated tool number %d.", i),
		"inputSchema", obj("type", "object", "properties", props, "required", req, "additionalProperties", false),
		"outputSchema", obj("type", "object", "properties", obj(out, obj("type", "number")), "required", list{out},
			"additionalProperties", false),
		"examples", obj(
			fmt.Sprintf("ex%d.a", i), obj("input", exIn, "result", obj("resultType", "complete",
				"content", list{obj("type", "text", "text", fmt.Sprint(i))},
				"structuredContent", obj(out, float64(i)*1.5))),
			fmt.Sprintf("ex%d.b", i), obj("input", exIn, "result", obj("resultType", "complete",
				"content", list{obj("type", "text", "text", "again")},
				"structuredContent", obj(out, 2.0))),
		),
		"elicitations", list{
			obj("name", fmt.Sprintf("confirm_%d", i), "mode", "form", "message", "Confirm the operation?",
				"requestedSchema", obj("type", "object",
					"properties", obj(
						"ok", obj("type", "boolean", "title", "OK"),
						"level", obj("type", "integer", "minimum", 1, "maximum", 5)),
					"required", list{"ok"})),
			obj("name", fmt.Sprintf("authorize_%d", i), "mode", "url", "message", "Authorize access.",
				"url", fmt.Sprintf("https://auth.example.com/t/%d", i)),
		},
	)
}

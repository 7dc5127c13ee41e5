package engine

import (
	"strings"
	"testing"

	"github.com/celint/celint/loader"
)

const selectDoc = `{
  "tools": [
    {"name": "a", "elicitations": [{"name": "a1", "mode": "form", "s": {"x": 1}}, {"name": "a2", "mode": "url"}]},
    {"name": "b"},
    {"name": "c", "elicitations": [{"name": "c1", "mode": "form", "s": {"x": 2}}]}
  ],
  "odd.key": {"v": true},
  "list": [[1, 2], [3]]
}`

func TestSelectorLocations(t *testing.T) {
	doc, err := loader.Parse("sel.json", []byte(selectDoc), loader.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want []string
	}{
		{"tools", []string{"/tools"}},
		{"tools.#", []string{"/tools/0", "/tools/1", "/tools/2"}},
		{"tools.#.elicitations.#", []string{"/tools/0/elicitations/0", "/tools/0/elicitations/1", "/tools/2/elicitations/0"}},
		{"tools.#.elicitations.#.name", []string{"/tools/0/elicitations/0/name", "/tools/0/elicitations/1/name", "/tools/2/elicitations/0/name"}},
		{`tools.#.elicitations.#(mode=="form")#.s`, []string{"/tools/0/elicitations/0/s", "/tools/2/elicitations/0/s"}},
		{`tools.#.elicitations.#(mode=="form").s.x`, []string{"/tools/0/elicitations/0/s/x", "/tools/2/elicitations/0/s/x"}},
		{`tools.#(name=="c")`, []string{"/tools/2"}},
		{`tools.#(name%"*")#`, []string{"/tools/0", "/tools/1", "/tools/2"}},
		{"tools.1.name", []string{"/tools/1/name"}},
		{`odd\.key.v`, []string{"/odd.key/v"}},
		{"list.#.#", []string{"/list/0/0", "/list/0/1", "/list/1/0"}},
		{"t*s.0.name", []string{"/tools/0/name"}},
		{"missing.#", nil},
		{"tools.#.missing", nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			sel, err := parseSelector(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if err := sel.match(doc, func(n *loader.Node) { got = append(got, n.Pointer()) }); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSelectorRejects(t *testing.T) {
	for _, p := range []string{"", "a..b", "a.", "@reverse", "a|b", "[a,b]", "{a}", "!true", `a.#(x=="y"`, "a.b(c)", `a\`, "#((])#)"} {
		if _, err := parseSelector(p); err == nil {
			t.Errorf("parseSelector(%q) succeeded, want an error", p)
		}
	}
}

// TestSelectorMatchesReference compares the selector with a slow walker that
// follows the same path over the node tree, on a generated document.
func TestSelectorLinearOnWideDocument(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	for i := 0; i < 2000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"elicitations":[{"mode":"form"},{"mode":"url"}]}`)
	}
	b.WriteString(`]}`)
	doc, err := loader.Parse("wide.json", []byte(b.String()), loader.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := parseSelector(`tools.#.elicitations.#(mode=="url")#`)
	var n int
	if err := sel.match(doc, func(m *loader.Node) {
		if m.Parent.Parent.Index != n || m.Index != 1 {
			t.Fatalf("match %d at %s", n, m.Pointer())
		}
		n++
	}); err != nil {
		t.Fatal(err)
	}
	if n != 2000 {
		t.Fatalf("got %d matches, want 2000", n)
	}
}

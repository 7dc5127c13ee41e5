package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/loader"
	"github.com/tidwall/match"
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

// TestSelectorLinearOnWideDocument: a query under '#' on 2,000 arrays finds
// every match at its own location (FuzzSelect compares the selector with a
// slow reference walker).
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
		if m.Parent.Parent.Index() != n || m.Index() != 1 {
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

// mapsDoc and mapsYAML are the same document, as JSON and as YAML.
const mapsDoc = `{
  "securitySchemes": {"a/b": {"type": "http"}, "~": {"type": "apiKey"}, "c": {"type": "oauth2"}},
  "x-one": 1,
  "name": "root",
  "x-two": {"name": "inner", "x-three": [3]},
  "tools": [
    {"name": "t0", "input": {"properties": {"name": {"type": "string"}}}},
    {"name": "t1"}
  ],
  "a*": "star",
  "ab": "plain",
  "**": {"**": true}
}`

const mapsYAML = `securitySchemes:
  a/b: {type: http}
  "~":
    type: apiKey
  c: {type: oauth2}
x-one: 1
name: root
x-two:
  name: inner
  x-three: [3]
tools:
  - name: t0
    input:
      properties:
        name:
          type: string
  - name: t1
a*: star
ab: plain
"**": {"**": true}
`

// nestDoc has a member "name" both before and after nested ones, so that
// document order differs from the order in which '**' visits the parents.
const nestDoc = `{"x": {"name": 1, "y": [{"name": 2}]}, "name": 3}`

const nestYAML = `x:
  name: 1
  y:
    - name: 2
name: 3
`

func TestSelectorMapsAndSubtrees(t *testing.T) {
	all := []string{"", "/x", "/x/name", "/x/y", "/x/y/0", "/x/y/0/name", "/name"}
	tests := []struct {
		doc  string // "maps" or "nest"
		path string
		want []string
	}{
		// '*' and '?': every matching member, in document order.
		{"maps", "securitySchemes.*", []string{"/securitySchemes/a~1b", "/securitySchemes/~0", "/securitySchemes/c"}},
		{"maps", "securitySchemes.*.type", []string{"/securitySchemes/a~1b/type", "/securitySchemes/~0/type", "/securitySchemes/c/type"}},
		{"maps", "securitySchemes.?", []string{"/securitySchemes/~0", "/securitySchemes/c"}},
		{"maps", "securitySchemes.a?b", []string{"/securitySchemes/a~1b"}},
		{"maps", "x-*", []string{"/x-one", "/x-two"}},
		{"maps", "x-*.name", []string{"/x-two/name"}},
		{"maps", "x-t??", []string{"/x-two"}},
		{"maps", "*.name", []string{"/x-two/name"}},
		{"maps", "?b", []string{"/ab"}},
		{"maps", "a*", []string{"/a*", "/ab"}},
		{"maps", "missing-*", nil},
		// escaped wildcards are literal, also inside a pattern
		{"maps", `a\*`, []string{"/a*"}},
		{"maps", `a\**`, []string{"/a*"}},
		{"maps", `\*\*`, []string{"/**"}},
		{"maps", `\*\*.\*\*`, []string{"/**/**"}},
		{"maps", `\*\*.*`, []string{"/**/**"}},
		// wildcards never match array indexes (gjson's behaviour)
		{"maps", "tools.*", nil},
		{"maps", "tools.?", nil},
		{"maps", "tools.#.*", []string{"/tools/0/name", "/tools/0/input", "/tools/1/name"}},
		// '#' on an object: every member
		{"maps", "securitySchemes.#", []string{"/securitySchemes/a~1b", "/securitySchemes/~0", "/securitySchemes/c"}},
		{"maps", "#", []string{"/securitySchemes", "/x-one", "/name", "/x-two", "/tools", "/a*", "/ab", "/**"}},
		{"maps", "#.#", []string{"/securitySchemes/a~1b", "/securitySchemes/~0", "/securitySchemes/c", "/x-two/name", "/x-two/x-three", "/tools/0", "/tools/1", "/**/**"}},
		{"maps", "x-two.#.#", []string{"/x-two/x-three/0"}},
		{"maps", "name.#", nil},
		// '**': the node and all its descendants, pre-order
		{"maps", "**.name", []string{"/name", "/x-two/name", "/tools/0/name", "/tools/0/input/properties/name", "/tools/1/name"}},
		{"maps", "tools.#.**", []string{"/tools/0", "/tools/0/name", "/tools/0/input", "/tools/0/input/properties", "/tools/0/input/properties/name", "/tools/0/input/properties/name/type", "/tools/1", "/tools/1/name"}},
		{"maps", "tools.**.name", []string{"/tools/0/name", "/tools/0/input/properties/name", "/tools/1/name"}},
		{"maps", "**.x-*", []string{"/x-one", "/x-two", "/x-two/x-three"}},
		{"maps", "**.type", []string{"/securitySchemes/a~1b/type", "/securitySchemes/~0/type", "/securitySchemes/c/type", "/tools/0/input/properties/name/type"}},
		{"maps", `**.\*\*`, []string{"/**", "/**/**"}},
		{"maps", `**.#(name=="t1")`, []string{"/tools/1"}},
		{"maps", `**.#(name%"t*")#.name`, []string{"/tools/0/name", "/tools/1/name"}},
		{"maps", "x-one.**", []string{"/x-one"}},
		{"nest", "**", all},
		{"nest", "**.**", all},
		{"nest", "**.**.**", all},
		{"nest", "**.#", all[1:]},
		{"nest", "**.name", []string{"/x/name", "/x/y/0/name", "/name"}},
		{"nest", "**.*.name", []string{"/x/name"}},
		{"nest", "**.0.name", []string{"/x/y/0/name"}},
		{"nest", "**.y.**", []string{"/x/y", "/x/y/0", "/x/y/0/name"}},
		{"nest", "x.**", all[1:6]},
		{"nest", "x.**.name", []string{"/x/name", "/x/y/0/name"}},
		{"nest", "**.x.**.y.**", []string{"/x/y", "/x/y/0", "/x/y/0/name"}},
		{"nest", "$", []string{""}},
	}
	docs := map[string][]*loader.Document{}
	for _, src := range []struct{ key, name, text string }{
		{"maps", "maps.json", mapsDoc}, {"maps", "maps.yaml", mapsYAML},
		{"nest", "nest.json", nestDoc}, {"nest", "nest.yaml", nestYAML},
	} {
		doc, err := loader.Parse(src.name, []byte(src.text), loader.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		docs[src.key] = append(docs[src.key], doc)
	}
	for _, tt := range tests {
		for _, doc := range docs[tt.doc] {
			t.Run(doc.Name+"/"+tt.path, func(t *testing.T) {
				got := selectPointers(t, doc, tt.path)
				if strings.Join(got, " ") != strings.Join(tt.want, " ") {
					t.Errorf("got %q, want %q", got, tt.want)
				}
			})
		}
	}
}

func selectPointers(t *testing.T, doc *loader.Document, path string) []string {
	t.Helper()
	sel, err := parseSelector(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := sel.match(doc, func(n *loader.Node) { got = append(got, n.Pointer()) }); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestSelectorComponentKinds(t *testing.T) {
	for _, tt := range []struct {
		path string
		want []componentKind
	}{
		{"**", []componentKind{compDeep}},
		{"a.**.b", []componentKind{compKey, compDeep, compKey}},
		{"***", []componentKind{compWild}},
		{"a**", []componentKind{compWild}},
		{`\*\*`, []componentKind{compKey}},
		{`\**`, []componentKind{compWild}},
		{`a\*`, []componentKind{compKey}},
		{`a\?`, []componentKind{compKey}},
		{"x-*.?", []componentKind{compWild, compWild}},
		{`#.#(a==1).#(a==1)#`, []componentKind{compEach, compQueryOne, compQueryAll}},
	} {
		sel, err := parseSelector(tt.path)
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		var got []componentKind
		for _, c := range sel.parts {
			got = append(got, c.kind)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: kinds %v, want %v", tt.path, got, tt.want)
		}
	}
}

// TestSelectorDeepDocument walks documents 5,000 levels deep with '**': the
// walk must not recurse on the Go stack, and '**' after '**' must not visit
// a subtree twice.
func TestSelectorDeepDocument(t *testing.T) {
	const depth = 5000
	opts := loader.Options{Limits: loader.Limits{Depth: 100000}}
	jsonDoc := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
	yamlDoc := strings.Repeat(`{a: `, depth) + "1" + strings.Repeat("}", depth) + "\n"
	for _, src := range []struct{ name, text string }{{"deep.json", jsonDoc}, {"deep.yaml", yamlDoc}} {
		doc, err := loader.Parse(src.name, []byte(src.text), opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			path string
			n    int
		}{{"**", depth + 1}, {"**.a", depth}, {"**.**.**", depth + 1}, {"a.**.#", depth - 1}, {"**.*", depth}} {
			sel, err := parseSelector(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			var got []*loader.Node
			if err := sel.match(doc, func(n *loader.Node) { got = append(got, n) }); err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.n {
				t.Fatalf("%s %s: %d nodes, want %d", src.name, tt.path, len(got), tt.n)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Parent != got[i-1] {
					t.Fatalf("%s %s: node %d is not a child of node %d", src.name, tt.path, i, i-1)
				}
			}
		}
	}
}

// TestSelectorWildcardLongKey: a pattern that made gjson's matcher
// backtrack for seconds (and give up, reporting no match) is decided at
// once on a 100 KB member name, both ways.
func TestSelectorWildcardLongKey(t *testing.T) {
	long := strings.Repeat("a", 100_000)
	doc, err := loader.Parse("k.json", []byte(`{"`+long+`":1,"`+long+`b`+`a":2}`), loader.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	sel, err := parseSelector(`*a*a*a*a*a*a*a*ab*a`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := sel.match(doc, func(n *loader.Node) { got = append(got, n.Pointer()) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.HasSuffix(got[0], "ba") {
		t.Fatalf("selected %d nodes, want the one ending in ba", len(got))
	}
}

// TestGlobMatchesGjson: the compiled wildcard decides as gjson's matcher
// does, on every pattern and name over a small alphabet up to a few
// characters (escapes, runs of stars, '?' and multi-byte characters
// included).
func TestGlobMatchesGjson(t *testing.T) {
	alphabet := []string{"a", "b", "*", "?", "\\", "é"}
	var words func(n int) []string
	words = func(n int) []string {
		if n == 0 {
			return []string{""}
		}
		var out []string
		for _, w := range words(n - 1) {
			out = append(out, w)
			for _, c := range alphabet {
				out = append(out, w+c)
			}
		}
		return slices.Compact(slices.Sorted(slices.Values(out)))
	}
	pats := words(4)
	names := []string{"", "a", "b", "ab", "ba", "aab", "abab", "*", "?", "\\", "é", "aé", "éb", "a*b", "bbbb", "aaaa"}
	for _, p := range pats {
		g := compileGlob(p)
		for _, n := range names {
			if got, want := g.match(n), match.Match(n, p); got != want {
				t.Errorf("pattern %q, name %q: %v, gjson's matcher says %v", p, n, got, want)
			}
		}
	}
}

// FuzzGlob: the compiled wildcard agrees with gjson's matcher wherever
// that matcher reaches a decision.
func FuzzGlob(f *testing.F) {
	f.Add("*a?b\\*", "xxa-b*")
	f.Add("**\\", "\\")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		want, stopped := match.MatchLimit(name, pattern, 10000)
		if stopped {
			return
		}
		if got := compileGlob(pattern).match(name); got != want {
			t.Fatalf("pattern %q, name %q: %v, gjson's matcher says %v", pattern, name, got, want)
		}
	})
}

// TestTreeQueries: the plain queries are decided on the tree (FuzzSelect
// checks that they select what gjson selects); the others are gjson's.
func TestTreeQueries(t *testing.T) {
	for text, want := range map[string]*treeQuery{
		`#(mode=="form")#`: {key: "mode", equal: true, value: "form"},
		`#(mode=="url")`:   {key: "mode", equal: true, value: "url"},
		`#( m != 1 )#`:     {key: "m", value: "1"},
		`#(m=true)`:        {key: "m", equal: true, value: "true"},
		`#(m_2-x=="")#`:    {key: "m_2-x", equal: true, value: ""},
		`#(m)#`:            nil, // existence
		`#(m>1)#`:          nil,
		`#(m=<1)#`:         nil,
		`#(m%"x*")#`:       nil,
		`#(m=="a\"b")#`:    nil,
		`#(m=="(x)")#`:     nil,
		`#(m==~true)#`:     nil,
		`#(a.b=="x")#`:     nil,
		`#(0=="x")#`:       nil,
		`#(#(==3))#`:       nil,
		`#(name%"*")#`:     nil,
	} {
		got, ok := parseTreeQuery(text)
		if ok != (want != nil) || ok && got != *want {
			t.Errorf("parseTreeQuery(%s) = %+v, %v; want %+v", text, got, ok, want)
		}
	}
}

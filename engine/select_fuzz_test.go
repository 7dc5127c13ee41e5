package engine

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/celint/celint/loader"
	"github.com/tidwall/gjson"
)

// refSelect is a slow reference for selector.match: it interprets the
// selector's components directly over the node tree. Queries are decided by
// gjson on each element alone (wrapped as a one-element array), so the
// reference never relies on gjson's Index/Indexes offsets. ok is false when
// the path uses syntax the reference does not model (wildcards, escapes).
func refSelect(doc *loader.Document, s *selector) (out []*loader.Node, ok bool) {
	cur := []*loader.Node{doc.Root}
	for _, c := range s.parts {
		var next []*loader.Node
		for _, n := range cur {
			switch c.kind {
			case compEach:
				if n.Kind == loader.Array {
					next = append(next, n.Children...)
				}
			case compQueryOne, compQueryAll:
				if n.Kind != loader.Array {
					continue
				}
				q := strings.TrimSuffix(c.text, "#") // "#(...)": the first match, if any
				for _, e := range n.Children {
					one := "[" + string(doc.JSON[e.Offset:e.End]) + "]"
					if !gjson.Get(one, q).Exists() {
						continue
					}
					next = append(next, e)
					if c.kind == compQueryOne {
						break
					}
				}
			case compKey:
				if strings.ContainsAny(c.text, `*?\`) {
					return nil, false
				}
				switch n.Kind {
				case loader.Object:
					if m := n.Member(c.text); m != nil {
						next = append(next, m)
					}
				case loader.Array:
					// gjson reads an all-digit key as an index (leading
					// zeros allowed).
					if i, err := strconv.ParseUint(c.text, 10, 32); err == nil {
						if m := n.Elem(int(i)); m != nil {
							next = append(next, m)
						}
					}
				}
			}
		}
		cur = next
	}
	return cur, true
}

func FuzzSelect(f *testing.F) {
	for _, c := range []struct{ doc, path string }{
		{selectDoc, "tools.#.elicitations.#.name"},
		{selectDoc, `tools.#.elicitations.#(mode=="form")#.s`},
		{selectDoc, `tools.#.elicitations.#(mode=="form").s.x`},
		{selectDoc, `tools.#(name=="c")`},
		{selectDoc, `tools.#(name%"*")#.name`},
		{selectDoc, `odd\.key.v`},
		{selectDoc, "list.#.#"},
		{selectDoc, "t*s.0.name"},
		{selectDoc, "$"},
		{`[[1,[2,3]],[[4]],[]]`, "#.#.#"},
		{`[[1,[2,3]],[[4]],[]]`, "#.1.0"},
		{`[[1,2],[3,4]]`, "#(#(==3))#.1"},
		{`[{"a":[{"b":1},{"b":2}]},{"a":[{"b":2}]}]`, `#(a.#(b==2))#.a.#(b==2)#.b`},
		{`[{"a":[{"b":1},{"b":2}]},{"a":[{"b":2}]}]`, `#(a.#(b>1)).a.#`},
		{`{"a":[1,2,3,2]}`, `a.#(==2)#`},
		{`{"a":["x","y","xy"]}`, `a.#(%"x*")#`},
		{`{"a":["x","y","xy"]}`, `a.#(!%"x*")`},
		{`{"a.b":{"c*d":{"e?":1}},"a":{"b":2}}`, `a\.b.c\*d.e\?`},
		{`{"a.b":{"c*d":{"e?":1}},"a":{"b":2}}`, `a.b`},
		{`{"":{"":[{"":0}]}}`, `\ .#`},
		{`{"k":[{"n":"(x)"},{"n":"#"}]}`, `k.#(n=="(x)")#.n`},
		{`{"k":[{"n":"a\"b"},{"n":"#"}]}`, `k.#(n=="a\"b").n`},
		{`{"é😀":{"0":[true,false]}}`, "é😀.0.01"},
		{"[\n{\"x\": [null, {\"y\": \"\\u0000\"}]}\n]", "0.x.1.y"},
	} {
		f.Add([]byte(c.doc), c.path)
	}
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		start := time.Now()
		defer func() {
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("SLOW %v: %q %q", d, data, path)
			}
		}()
		doc, err := loader.Parse("f.json", data, loader.DefaultOptions())
		if err != nil {
			return
		}
		sel, err := parseSelector(path)
		if err != nil {
			return
		}
		var got []*loader.Node
		if err := sel.match(doc, func(n *loader.Node) { got = append(got, n) }); err != nil {
			t.Fatalf("match(%q): %v", path, err)
		}
		for _, n := range got {
			if n.Pos.Line < 1 || n.Pos.Col < 1 {
				t.Fatalf("match(%q): node %q at %v", path, n.Pointer(), n.Pos)
			}
			if m, ok := doc.Lookup(n.Pointer()); !ok || m != n {
				t.Fatalf("match(%q): Lookup(%q) does not give the matched node back", path, n.Pointer())
			}
		}
		want, ok := refSelect(doc, sel)
		if !ok {
			return
		}
		if ps, ws := pointers(got), pointers(want); ps != ws {
			t.Fatalf("match(%q) on %s\n got  %s\n want %s", path, doc.JSON, ps, ws)
		}
	})
}

func pointers(ns []*loader.Node) string {
	var sb strings.Builder
	for _, n := range ns {
		sb.WriteString(strconv.Quote(n.Pointer()))
		sb.WriteByte(' ')
	}
	return sb.String()
}

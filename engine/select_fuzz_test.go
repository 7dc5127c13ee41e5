package engine

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/celint/celint/loader"
	"github.com/tidwall/gjson"
)

// refSelect is a slow reference for selector.match: it interprets the
// selector's components directly over the node tree, as sets of nodes, and
// returns the final set in document order (a pre-order walk of the whole
// document). It shares no code with the selector:
//
//   - keys are looked up by gjson on the node's own raw JSON, mapped back by
//     offset (how the selector looked them up before it walked the tree);
//   - wildcards are matched with a regular expression built from the pattern,
//     and, when the pattern has no escapes, the first match is checked to be
//     gjson's own;
//   - queries are decided by gjson on each element alone (wrapped as a
//     one-element array), so the reference never relies on gjson's
//     Index/Indexes offsets.
//
// ok is false when the path uses syntax the reference does not model (a
// wildcard pattern that is not valid UTF-8).
func refSelect(t *testing.T, doc *loader.Document, s *selector) (out []*loader.Node, ok bool) {
	cur := map[*loader.Node]bool{doc.Root: true}
	for _, c := range s.parts {
		next := map[*loader.Node]bool{}
		for n := range cur {
			raw := doc.JSON()[n.Offset:doc.JSONEnd(n)]
			switch c.kind {
			case compEach:
				if n.Kind == loader.Array || n.Kind == loader.Object {
					for _, m := range n.Children() {
						next[m] = true
					}
				}
			case compDeep:
				for _, m := range preorder(n) {
					next[m] = true
				}
			case compQueryOne, compQueryAll:
				if n.Kind != loader.Array {
					continue
				}
				q := strings.TrimSuffix(c.text, "#") // "#(...)": the first match, if any
				for _, e := range n.Children() {
					one := "[" + string(doc.JSON()[e.Offset:doc.JSONEnd(e)]) + "]"
					if !gjson.Get(one, q).Exists() {
						continue
					}
					next[e] = true
					if c.kind == compQueryOne {
						break
					}
				}
			case compKey:
				if n.Kind != loader.Object && n.Kind != loader.Array {
					continue
				}
				res := gjson.GetBytes(raw, c.text)
				if !res.Exists() {
					continue
				}
				m := doc.NodeAt(int(n.Offset) + res.Index)
				if m == nil || m.Parent != n {
					t.Fatalf("reference: gjson found %q in %s at %d, not a child", c.text, raw, res.Index)
				}
				next[m] = true
			case compWild:
				re, ok := wildRegexp(c.text)
				if !ok {
					return nil, false
				}
				var first *loader.Node
				if n.Kind == loader.Object {
					for _, m := range n.Children() {
						if re.MatchString(m.Key()) {
							next[m] = true
							if first == nil {
								first = m
							}
						}
					}
				}
				if !strings.Contains(c.text, `\`) && (n.Kind == loader.Object || n.Kind == loader.Array) {
					// gjson's own wildcard: its one match is our first.
					res := gjson.GetBytes(raw, c.text)
					switch {
					case !res.Exists() && first != nil:
						t.Fatalf("reference: gjson finds no %q in %s, the pattern matches %q", c.text, raw, first.Pointer())
					case res.Exists() && (first == nil || int(n.Offset)+res.Index != int(first.Offset)):
						t.Fatalf("reference: gjson finds %q in %s at %d, the first match is %v", c.text, raw, res.Index, first)
					}
				}
			}
		}
		cur = next
	}
	for _, n := range preorder(doc.Root) {
		if cur[n] {
			out = append(out, n)
		}
	}
	return out, true
}

// preorder returns n and all its descendants in document order.
func preorder(n *loader.Node) []*loader.Node {
	out := []*loader.Node{n}
	for _, c := range n.Children() {
		out = append(out, preorder(c)...)
	}
	return out
}

// wildRegexp translates a gjson wildcard pattern into a regular expression:
// '*' is any run of code points, '?' one code point, '\c' the character c.
func wildRegexp(pattern string) (*regexp.Regexp, bool) {
	if !utf8.ValidString(pattern) {
		return nil, false
	}
	var b strings.Builder
	b.WriteString(`^(?s:`)
	for i := 0; i < len(pattern); {
		r, size := utf8.DecodeRuneInString(pattern[i:])
		i += size
		switch r {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '\\':
			r, size = utf8.DecodeRuneInString(pattern[i:])
			i += size
			fallthrough
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`)$`)
	return regexp.MustCompile(b.String()), true
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
		{selectDoc, "**"},
		{selectDoc, "**.name"},
		{selectDoc, "tools.#.**"},
		{selectDoc, "tools.**.s.**"},
		{selectDoc, "**.**"},
		{selectDoc, "**.#"},
		{selectDoc, `**.#(mode=="form")#.name`},
		{selectDoc, "*.#"},
		{selectDoc, "#.*"},
		{selectDoc, "?dd*"},
		{`{"x-a":1,"y":2,"x-b":{"x-c":3}}`, "x-*"},
		{`{"x-a":1,"y":2,"x-b":{"x-c":3}}`, "**.x-*"},
		{`{"a/b":1,"~":2,"c":3}`, "*"},
		{`{"a/b":1,"~":2,"c":3}`, "?"},
		{`{"a*":1,"ab":2,"a\\b":3}`, `a\*`},
		{`{"a*":1,"ab":2,"a\\b":3}`, `a\**`},
		{`{"a*":1,"ab":2,"a\\b":3}`, `a\\*`},
		{`{"**":{"**":1},"b":[2]}`, `\*\*.**`},
		{`{"**":{"**":1},"b":[2]}`, `**.\*\*`},
		{`{"a":{"a":{"a":1}}}`, "**.a.**"},
		{`{"a":{"a":{"a":1}}}`, "**.a.a"},
		{`{"x":{"name":1},"name":2}`, "**.name"},
		{`{"#":1,"b":[2,3]}`, "#"},
		{`{"#":1,"b":[2,3]}`, `\#`},
		{`{"é😀":{"0":[true,false]}}`, "?.?"},
		{`[{"a":1},{"b":2}]`, "*"},
		{`[{"a":1},{"b":2}]`, "#.*"},
		{`[[1,[2,3]],[[4]],[]]`, "#.#.#"},
		{`[[1,[2,3]],[[4]],[]]`, "#.1.0"},
		{`[[1,[2,3]],[[4]],[]]`, "**.0"},
		{`[[1,2],[3,4]]`, "#(#(==3))#.1"},
		{`[{"a":[{"b":1},{"b":2}]},{"a":[{"b":2}]}]`, `#(a.#(b==2))#.a.#(b==2)#.b`},
		{`[{"a":[{"b":1},{"b":2}]},{"a":[{"b":2}]}]`, `#(a.#(b>1)).a.#`},
		{`{"a":[1,2,3,2]}`, `a.#(==2)#`},
		{`{"a":["x","y","xy"]}`, `a.#(%"x*")#`},
		{`{"a":["x","y","xy"]}`, `a.#(!%"x*")`},
		{`{"a.b":{"c*d":{"e?":1}},"a":{"b":2}}`, `a\.b.c\*d.e\?`},
		{`{"a.b":{"c*d":{"e?":1}},"a":{"b":2}}`, `a.b`},
		{`{"a.b":{"c*d":{"e?":1}},"a":{"b":2}}`, `a\.*.c\**`},
		{`{"":{"":[{"":0}]}}`, `\ .#`},
		{`{"":{"":[{"":0}]}}`, `*.*`},
		{`{"k":[{"n":"(x)"},{"n":"#"}]}`, `k.#(n=="(x)")#.n`},
		{`{"k":[{"n":"a\"b"},{"n":"#"}]}`, `k.#(n=="a\"b").n`},
		{`{"é😀":{"0":[true,false]}}`, "é😀.0.01"},
		{"[\n{\"x\": [null, {\"y\": \"\\u0000\"}]}\n]", "0.x.1.y"},
		// Queries decided on the tree (treeQuery): every kind of member.
		{`{"a":[{"m":0},{"m":"x"},{"m":true},{"m":false},{"m":null},{"m":[1]},{"m":{}},"s",[1],{"n":1},{"m":-0.0},{"m":1e2}]}`, `a.#(m=="x")#`},
		{`{"a":[{"m":0},{"m":"x"},{"m":true},{"m":false},{"m":null},{"m":[1]},{"m":{}},"s",[1],{"n":1},{"m":-0.0},{"m":1e2}]}`, `a.#(m!="x")#`},
		{`{"a":[{"m":0},{"m":"x"},{"m":true},{"m":false},{"m":null},{"m":[1]},{"m":{}},"s",[1],{"n":1},{"m":-0.0},{"m":1e2}]}`, `a.#(m==0)#`},
		{`{"a":[{"m":0},{"m":"x"},{"m":true},{"m":false},{"m":null},{"m":[1]},{"m":{}},"s",[1],{"n":1},{"m":-0.0},{"m":1e2}]}`, `a.#(m == 100)`},
		{`{"a":[{"m":0},{"m":"x"},{"m":true},{"m":false},{"m":null},{"m":[1]},{"m":{}},"s",[1],{"n":1},{"m":-0.0},{"m":1e2}]}`, `a.#(m=true)#`},
		{`{"a":[{"m":0},{"m":"x"},{"m":true},{"m":false},{"m":null},{"m":[1]},{"m":{}},"s",[1],{"n":1},{"m":-0.0},{"m":1e2}]}`, `a.#(m!=false)#`},
		{`{"a":[{"m":0},{"m":"x"},{"m":true},{"m":false},{"m":null},{"m":[1]},{"m":{}},"s",[1],{"n":1},{"m":-0.0},{"m":1e2}]}`, `a.#(m=="")#`},
		{`{"a":[{"m":0},{"m":"x"},{"m":true},{"m":false},{"m":null},{"m":[1]},{"m":{}},"s",[1],{"n":1},{"m":-0.0},{"m":1e2}]}`, `a.#(m==null)#`},
		{`{"a":[{"m-1":"x"},{"m_1":"y"}]}`, `a.#(m-1=="x")#`},
	} {
		f.Add([]byte(c.doc), c.path)
	}
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		// A hang must become a crasher, with its input: a deferred check
		// would never run, and the fuzzer would drop the input when its
		// time is up.
		slow := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("SLOW: %q %q", data, path)) })
		defer slow.Stop()
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
		// Through the linter, whose paths share their prefixes: the
		// prefixes asked for first, as shorter paths would be.
		l := &linter{doc: doc}
		for k := 1; k < len(sel.parts); k++ {
			if p, err := parseSelector(sel.prefix(k)); err != nil {
				t.Fatalf("prefix %q of %q: %v", sel.prefix(k), path, err)
			} else if _, err := l.prefixNodes(p, len(p.parts)); err != nil {
				t.Fatalf("prefix %q of %q: %v", sel.prefix(k), path, err)
			}
		}
		shared, err := l.prefixNodes(sel, len(sel.parts))
		if err != nil {
			t.Fatalf("prefixNodes(%q): %v", path, err)
		}
		if ps, ws := pointers(shared), pointers(got); ps != ws {
			t.Fatalf("prefixNodes(%q) on %s\n got  %s\n want %s", path, doc.JSON(), ps, ws)
		}
		want, ok := refSelect(t, doc, sel)
		if !ok {
			return
		}
		if ps, ws := pointers(got), pointers(want); ps != ws {
			t.Fatalf("match(%q) on %s\n got  %s\n want %s", path, doc.JSON(), ps, ws)
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

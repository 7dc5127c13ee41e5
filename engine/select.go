package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/celint/celint/loader"
	"github.com/tidwall/gjson"
)

// A selector is a parsed selection path: gjson path syntax, split into
// components so that every match keeps its exact location.
//
// Keys, wildcards, '#' and '**' are followed on the located tree itself;
// queries are evaluated by gjson on the raw JSON of the current array, and
// gjson's byte offsets are mapped back to located nodes through the
// document's offset index. Evaluating component by component keeps the
// locations that gjson itself loses under nested '#' and keeps the work
// linear in the size of the document.
type selector struct {
	text  string
	parts []component
	// prefixKeys[k] is the memo key of what the first k+1 components
	// select (see linter.prefixNodes), apart from the keys of whole
	// selections, which carry scopes.
	prefixKeys []string
}

type componentKind uint8

const (
	compKey      componentKind = iota // a member name, or an array index
	compWild                          // a key with an unescaped '*' or '?': every matching member
	compEach                          // '#': every element of an array, every member of an object
	compDeep                          // '**': the node and all its descendants
	compQueryAll                      // '#(...)#': every matching element
	compQueryOne                      // '#(...)': the first matching element
)

type component struct {
	kind  componentKind
	text  string     // the gjson path of this component (for compWild, the match pattern)
	key   string     // compKey: the member name, '\' escapes removed
	index int        // compKey: the array index the text names; -1 when it names none
	glob  glob       // compWild: the compiled pattern
	end   int        // the offset in the path just past the component
	tree  *treeQuery // a query that is decided on the tree, without gjson; nil: gjson decides
}

// parseSelector splits a gjson path into components. It accepts keys (with
// '\' escapes and the wildcards '*' and '?'), array indexes, '#', '**', and
// the queries '#(...)' and '#(...)#'. Modifiers ('@'), pipes ('|'),
// multipaths ('[' and '{' at a component start), static values ('!') and
// JSON-lines paths ('..') are refused: their results carry no location.
func parseSelector(path string) (*selector, error) {
	if path == "" {
		return nil, fmt.Errorf("empty selection path")
	}
	if path == "$" || path == "@this" {
		return &selector{text: path}, nil
	}
	s := &selector{text: path}
	i := 0
	for i <= len(path) {
		if i == len(path) {
			return nil, fmt.Errorf("selection path %q ends with '.'", path)
		}
		start := i
		switch {
		case strings.HasPrefix(path[i:], "#("):
			end, err := scanQuery(path, i+1)
			if err != nil {
				return nil, fmt.Errorf("selection path %q: %v", path, err)
			}
			i = end
			kind := compQueryOne
			if i < len(path) && path[i] == '#' {
				kind = compQueryAll
				i++
			}
			c := component{kind: kind, text: path[start:i]}
			if q, ok := parseTreeQuery(c.text); ok {
				c.tree = &q
			}
			s.parts = append(s.parts, c)
		case path[i] == '#':
			i++
			s.parts = append(s.parts, component{kind: compEach, text: "#"})
		default:
			switch path[i] {
			case '@':
				return nil, fmt.Errorf("selection path %q: modifiers ('@...') are not allowed: their results carry no location", path)
			case '!':
				return nil, fmt.Errorf("selection path %q: static values ('!...') are not allowed", path)
			case '[', '{':
				return nil, fmt.Errorf("selection path %q: multipaths are not allowed; list several paths under 'given' instead", path)
			case '.':
				return nil, fmt.Errorf("selection path %q: empty component at offset %d", path, i)
			}
			wild := false
			for i < len(path) && path[i] != '.' {
				switch path[i] {
				case '\\':
					i++
					if i == len(path) {
						return nil, fmt.Errorf("selection path %q ends with a lone '\\'", path)
					}
				case '*', '?':
					wild = true
				case '|':
					return nil, fmt.Errorf("selection path %q: pipes ('|') are not allowed; use '.'", path)
				case '#', '(', ')':
					return nil, fmt.Errorf("selection path %q: unexpected %q inside a key at offset %d (escape it with '\\')", path, path[i], i)
				}
				i++
			}
			text := path[start:i]
			switch {
			case text == "**":
				s.parts = append(s.parts, component{kind: compDeep, text: text})
			case wild:
				s.parts = append(s.parts, component{kind: compWild, text: text, glob: compileGlob(text)})
			default:
				s.parts = append(s.parts, component{kind: compKey, text: text, key: unescapeKey(text), index: arrayIndex(text)})
			}
		}
		s.parts[len(s.parts)-1].end = i
		if i == len(path) {
			break
		}
		if path[i] != '.' {
			return nil, fmt.Errorf("selection path %q: expected '.' at offset %d, found %q", path, i, path[i])
		}
		i++
	}
	for k := range s.parts {
		s.prefixKeys = append(s.prefixKeys, "\x01prefix "+s.prefix(k+1))
	}
	return s, nil
}

// unescapeKey removes the '\' escapes of a gjson key: "\x" is "x".
func unescapeKey(text string) string {
	if !strings.Contains(text, `\`) {
		return text
	}
	b := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' {
			i++
		}
		b = append(b, text[i])
	}
	return string(b)
}

// arrayIndex returns the array index a key names, as gjson reads it: the
// key is all ASCII digits (leading zeros allowed, no escapes); -1 otherwise,
// or when the number does not fit in an int.
func arrayIndex(text string) int {
	if text == "" {
		return -1
	}
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c < '0' || c > '9' {
			return -1
		}
		if n > (int(^uint(0)>>1)-int(c-'0'))/10 {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// scanQuery returns the offset just past the ')' that closes the '(' at i,
// skipping quoted strings and nested parentheses. Like gjson's own query
// parser, it counts '[' and ']' as parentheses too: otherwise the two would
// end the query at different places, and gjson's result would carry no
// location (for example "#((])#)", which gjson reads as "#((])" then "#)").
func scanQuery(path string, i int) (int, error) {
	depth := 0
	for ; i < len(path); i++ {
		switch path[i] {
		case '\\':
			i++
		case '"':
			for i++; i < len(path) && path[i] != '"'; i++ {
				if path[i] == '\\' {
					i++
				}
			}
			if i >= len(path) {
				return 0, fmt.Errorf("unterminated string in query")
			}
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		}
	}
	return 0, fmt.Errorf("unbalanced parentheses in query")
}

// match calls visit for every node the selector selects, once each, in
// document order. It stops early with the first error, for example a
// location that could not be mapped back (which would be a bug in celint,
// reported rather than hidden).
//
// Each step maps the current nodes, in document order and without
// duplicates, to the next ones. Until the first '**', the current nodes are
// all at the same depth, so their images are disjoint and come out in
// document order. After it, a node and its ancestor can both be current:
// a '**' step then skips the nodes inside a subtree it has already walked,
// and the other steps (whose images are still disjoint: every node has one
// parent) sort their result by offset, which is document order.
func (s *selector) match(doc *loader.Document, visit func(*loader.Node)) error {
	cur := []*loader.Node{doc.Root}
	for k := range s.parts {
		var err error
		if cur, err = s.step(doc, k, cur); err != nil {
			return fmt.Errorf("selection path %q: %w", s.text, err)
		}
		if len(cur) == 0 {
			return nil
		}
	}
	for _, n := range cur {
		visit(n)
	}
	return nil
}

// step maps cur, what the components before the k-th select, to what the
// first k+1 components select. Its error does not name the path: a prefix
// is shared by several.
func (s *selector) step(doc *loader.Document, k int, cur []*loader.Node) ([]*loader.Node, error) {
	c := s.parts[k]
	if c.kind == compDeep {
		return deep(cur, s.nestedBefore(k)), nil
	}
	next := make([]*loader.Node, 0, c.most(cur))
	if c.kind == compKey {
		next = c.keyStep(cur, next)
	} else {
		for _, n := range cur {
			var err error
			next, err = c.step(doc, n, next)
			if err != nil {
				return nil, err
			}
		}
	}
	if s.nestedBefore(k) {
		sortByOffset(next)
	}
	if cap(next)-len(next) > len(next)+64 {
		// Selections are kept for the whole lint: one that kept far
		// fewer nodes than it could have gets a list of its size.
		next = append([]*loader.Node(nil), next...)
	}
	return next, nil
}

// keyStep is step for a key, on every node of cur: it appends to out
// what step would. The key is looked up first where the node before had
// it: the objects of one selection mostly have one shape, and every member
// read on the way is a cache miss (siblings are far apart in memory).
func (c component) keyStep(cur, out []*loader.Node) []*loader.Node {
	hint := -1
	for _, n := range cur {
		if m, at := c.member(n, hint); m != nil {
			out = append(out, m)
			hint = at
		}
	}
	return out
}

// member is what a key selects on n: an object's member of that name,
// looked up first at position hint (see loader.Node.MemberAt), or an
// array's element at its index; at is the member's position, or hint
// when n is not an object.
func (c component) member(n *loader.Node, hint int) (m *loader.Node, at int) {
	switch n.Kind {
	case loader.Object:
		return n.MemberAt(c.key, hint)
	case loader.Array:
		return n.Elem(c.index), hint
	}
	return nil, hint
}

// most is how many nodes the component can select from cur, at most
// (queries that gjson answers, which find nodes by offset, can select more
// than that only by growing the list): the list is made that long once
// instead of growing, which left as much garbage as the list itself.
func (c component) most(cur []*loader.Node) int {
	if c.kind == compKey {
		return len(cur)
	}
	n := 0
	for _, x := range cur {
		n += x.Len()
	}
	return n
}

// nestedBefore reports whether what the components before the k-th select
// may hold a node and one of its descendants: a '**' comes before.
func (s *selector) nestedBefore(k int) bool {
	for _, c := range s.parts[:k] {
		if c.kind == compDeep {
			return true
		}
	}
	return false
}

// prefix is the path of the first k components, which names what they
// select: paths with the same prefix select the same nodes up to it.
func (s *selector) prefix(k int) string {
	if k == 0 {
		return ""
	}
	return s.text[:s.parts[k-1].end]
}

// deep returns every node of the subtrees rooted at cur, pre-order, in
// document order, each once. cur is in document order; when nested, a node
// of cur can lie inside the subtree of an earlier one, and is then skipped.
//
// The subtrees are walked twice, to count their nodes and then to list
// them: the list, kept for the whole lint, is made once at its size.
func deep(cur []*loader.Node, nested bool) []*loader.Node {
	total := 0
	walkDeep(cur, nested, func(*loader.Node) bool { total++; return true })
	out := make([]*loader.Node, 0, total)
	walkDeep(cur, nested, func(n *loader.Node) bool { out = append(out, n); return true })
	return out
}

// walkDeep visits the nodes deep lists, in its order, until visit returns
// false. The walk uses an explicit stack: documents can be deeper than the
// Go stack allows recursion for.
func walkDeep(cur []*loader.Node, nested bool, visit func(*loader.Node) bool) {
	var stack []*loader.Node
	// last is the greatest offset walked so far: the last node of the
	// last subtree, pre-order. A later root at or before it is inside
	// that subtree (a subtree's nodes start at increasing offsets, and
	// the next value's after all of them).
	last := int32(-1)
	for _, root := range cur {
		if nested && root.Offset <= last {
			continue
		}
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			last = n.Offset
			if !visit(n) {
				return
			}
			kids := n.Children()
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, kids[i])
			}
		}
	}
}

// afterDeep reports whether the k-th component follows a '**' and can be
// taken on its nodes as they are walked (see stepAfterDeep).
func (s *selector) afterDeep(k int) bool {
	return k >= 1 && k < len(s.parts) && s.parts[k-1].kind == compDeep && s.parts[k].kind != compDeep
}

// stepAfterDeep is step(k, deep(cur)) for a k-th component that follows a
// '**' (afterDeep): the component is taken on each node as the walk meets
// it, so that the list of every node under cur, most of which the
// component does not select, is never made.
func (s *selector) stepAfterDeep(doc *loader.Document, k int, cur []*loader.Node) ([]*loader.Node, error) {
	c := s.parts[k]
	var next []*loader.Node
	var err error
	walkDeep(cur, s.nestedBefore(k-1), func(n *loader.Node) bool {
		next, err = c.step(doc, n, next)
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	sortByOffset(next) // a '**' comes before: nestedBefore(k)
	return next, nil
}

// sortByOffset sorts nodes into document order, unless they already are.
func sortByOffset(nodes []*loader.Node) {
	cmp := func(a, b *loader.Node) int { return int(a.Offset - b.Offset) }
	if !slices.IsSortedFunc(nodes, cmp) {
		slices.SortFunc(nodes, cmp)
	}
}

func (c component) step(doc *loader.Document, n *loader.Node, out []*loader.Node) ([]*loader.Node, error) {
	switch c.kind {
	case compKey:
		if m, _ := c.member(n, -1); m != nil {
			out = append(out, m)
		}
		return out, nil
	case compWild:
		// On arrays, gjson's wildcards never match an index: nothing.
		if n.Kind != loader.Object {
			return out, nil
		}
		for _, m := range n.Children() {
			if c.glob.match(m.Key()) {
				out = append(out, m)
			}
		}
		return out, nil
	case compEach:
		if n.Kind == loader.Array || n.Kind == loader.Object {
			out = append(out, n.Children()...)
		}
		return out, nil
	}
	// A query: on arrays only (on an object, gjson would read it as keys).
	if n.Kind != loader.Array {
		return out, nil
	}
	if q := c.tree; q != nil {
		hint := -1
		for _, e := range n.Children() {
			if q.matches(e, &hint) {
				out = append(out, e)
				if c.kind == compQueryOne {
					break
				}
			}
		}
		return out, nil
	}
	res := gjson.GetBytes(doc.JSON()[n.Offset:doc.JSONEnd(n)], c.text)
	if c.kind == compQueryAll {
		for _, idx := range res.Indexes {
			m, err := locate(doc, n, idx)
			if err != nil {
				return out, err
			}
			out = append(out, m)
		}
		return out, nil
	}
	if !res.Exists() {
		return out, nil
	}
	m, err := locate(doc, n, res.Index)
	if err != nil {
		return out, err
	}
	return append(out, m), nil
}

// locate maps an offset relative to n's raw JSON back to a node.
func locate(doc *loader.Document, n *loader.Node, rel int) (*loader.Node, error) {
	// A query on an array matches its elements: found among n's children
	// (by offset, which is unique to a node) without searching the whole
	// document's nodes.
	at := int(n.Offset) + rel
	kids := n.Children()
	if i, found := slices.BinarySearchFunc(kids, at, func(c *loader.Node, at int) int { return int(c.Offset) - at }); found && rel > 0 {
		return kids[i], nil
	}
	m := doc.NodeAt(at)
	if m == nil || rel <= 0 {
		return nil, fmt.Errorf("internal error: no node at offset %d under %q", at, n.Pointer())
	}
	return m, nil
}

// treeQuery is a query of the plain form #(key==value) or #(key!=value),
// decided on the tree as gjson decides it on the JSON text (queryMatches),
// without reading that text: an element matches when it is an object with
// the member key and the member, compared with value, passes. Any other
// query is gjson's to decide.
type treeQuery struct {
	key   string
	equal bool   // "==" (or "="); else "!="
	value string // as gjson reads it: the literal without its quotes
}

// parseTreeQuery reads the text of a query component ("#(...)" or
// "#(...)#") as a treeQuery; false when it is not of the plain form: a key
// of letters, digits, '_' and '-' that starts with a letter or '_', the
// operator == (or =) or !=, and a value without quotes inside, escapes,
// brackets or parentheses, nor gjson's leading '~'.
func parseTreeQuery(text string) (treeQuery, bool) {
	inner, ok := strings.CutPrefix(text, "#(")
	if !ok {
		return treeQuery{}, false
	}
	inner = strings.TrimSuffix(inner, "#")
	if inner, ok = strings.CutSuffix(inner, ")"); !ok || strings.ContainsAny(inner, "\\()[]") {
		return treeQuery{}, false
	}
	j := strings.IndexAny(inner, "!=<>%")
	if j < 0 {
		return treeQuery{}, false
	}
	q := treeQuery{key: gjsonTrim(inner[:j])}
	rest := inner[j:]
	switch {
	case strings.HasPrefix(rest, "=="):
		q.equal, rest = true, rest[2:]
	case strings.HasPrefix(rest, "!="):
		rest = rest[2:]
	case strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "=<") && !strings.HasPrefix(rest, "=>"):
		q.equal, rest = true, rest[1:]
	default:
		return treeQuery{}, false
	}
	q.value = gjsonTrim(rest)
	if len(q.value) >= 2 && q.value[0] == '"' && q.value[len(q.value)-1] == '"' {
		q.value = q.value[1 : len(q.value)-1]
	}
	if strings.ContainsAny(q.value, "\"") || strings.HasPrefix(q.value, "~") || !plainQueryKey(q.key) {
		return treeQuery{}, false
	}
	return q, true
}

// gjsonTrim trims what gjson's query parser trims: bytes up to ' '.
func gjsonTrim(s string) string {
	for len(s) > 0 && s[0] <= ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] <= ' ' {
		s = s[:len(s)-1]
	}
	return s
}

// plainQueryKey reports whether gjson reads key as one member name and
// never as an array index or a pattern.
func plainQueryKey(key string) bool {
	if key == "" || !(key[0] == '_' || key[0] >= 'a' && key[0] <= 'z' || key[0] >= 'A' && key[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// matches reports whether the array element e passes the query, as
// gjson's queryMatches decides: a string member compares as a string, a
// number as a number (the value read by strconv.ParseFloat, 0 when it is
// not a number), true and false against the words "true" and "false";
// null, an object, an array or no member at all never pass.
func (q *treeQuery) matches(e *loader.Node, hint *int) bool {
	// nil unless e is an object with that member; looked up first where
	// the element before had it (hint)
	m, at := e.MemberAt(q.key, *hint)
	if m == nil {
		return false
	}
	*hint = at
	switch m.Kind {
	case loader.String:
		s, _ := m.Value().(string)
		return (s == q.value) == q.equal
	case loader.Number:
		want, _ := strconv.ParseFloat(q.value, 64)
		var got float64
		switch x := m.Value().(type) {
		case int64:
			got = float64(x)
		case float64:
			got = x
		}
		return (got == want) == q.equal
	case loader.Bool:
		word := "false"
		if b, _ := m.Value().(bool); b {
			word = "true"
		}
		return (q.value == word) == q.equal
	}
	return false
}

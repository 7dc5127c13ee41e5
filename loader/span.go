package loader

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"sort"
	"sync"
)

// End positions are computed lazily from Document.Source. The first call of
// End or Offset builds a spanCache once: the start offset of every line and
// a character count at every charBlock-th byte, so that a line:col converts
// to a byte offset and back in O(log lines + charBlock). Each End call then
// scans only the text of the value (scalars, and JSON or YAML flow
// collections that must be matched bracket by bracket) or follows the chain
// of last children down to a leaf (collections), never the whole document.
//
// Positions follow one convention in JSON and YAML, the one editors show:
// lines end at "\r\n", a lone '\r' or '\n' (YAML 1.2's line breaks; the
// loader refuses U+0085, U+2028 and U+2029 in YAML, which yaml/v4 would
// count as line breaks and YAML 1.2 does not, and in JSON they are ordinary
// characters); a column counts characters (a tab is one).
//
// In both, a character is a UTF-8 lead byte (any byte but 10xxxxxx); the
// loader only accepts valid UTF-8 without a byte order mark.

// charBlock is the byte distance between two character checkpoints.
const charBlock = 512

// spanCache holds what end positions are computed from; built on first use
// and read-only afterwards.
type spanCache struct {
	src   []byte
	yaml  bool
	lines lineIndex
	// chars[k] is the number of characters in src[:k*charBlock]; built
	// on first use (charTable): only a position far into a long line needs
	// it.
	chars     []int
	charsOnce sync.Once

	// irregular is set for YAML documents whose tree is not in source order:
	// alias expansions (copies that carry the anchored node's positions) or
	// duplicate keys (a later member in an earlier member's place). Their
	// collections need the slower, careful search for the last child.
	irregular bool
	// aliases is set for irregular documents that may hold alias
	// expansions; originals, built on first need, maps each position that
	// several nodes share to the one that is not a copy.
	aliases    bool
	nodes      []*Node
	copiesOnce sync.Once
	originals  map[Pos]*Node
}

// spanData returns the span cache, building it on first use.
func (d *Document) spanData() *spanCache {
	d.spanOnce.Do(func() { d.spans = newSpanCache(d) })
	return d.spans
}

func newSpanCache(d *Document) *spanCache {
	src := d.Source
	sc := &spanCache{src: src, yaml: d.Format == "yaml"}
	sc.lines = newLineIndex(src)
	if sc.yaml {
		// In a tree built straight from the source, positions strictly
		// increase in document (pre-)order, and values start after their
		// keys. A document whose JSON is not its tree's rendering (one
		// put together by hand) is taken as irregular.
		sc.irregular = !d.rendered || d.Root == nil
		var prev *Node
		if !sc.irregular {
			preorder(d.Root, func(n *Node) bool {
				if prev != nil && !posLess(prev.Pos, n.Pos) || n.Parent != nil && n.Parent.Kind == Object && !posLess(n.KeyPos, n.Pos) {
					sc.irregular = true
					return false
				}
				prev = n
				return true
			})
		}
		sc.aliases = sc.irregular && bytes.IndexByte(src, '*') >= 0
		if sc.aliases {
			preorder(d.Root, func(n *Node) bool {
				sc.nodes = append(sc.nodes, n)
				return true
			})
		}
	}
	return sc
}

// preorder calls visit for the nodes under root (root included) in
// document order, each before its children, as render writes them, until
// visit returns false.
func preorder(root *Node, visit func(*Node) bool) {
	if root == nil {
		return
	}
	stack := []*Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(n) {
			return
		}
		kids := n.Children()
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
}

// countChars counts the bytes of b that are not UTF-8 continuation bytes,
// eight at a time.
func countChars(b []byte) int {
	cont, i := 0, 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// A continuation byte has its top bit set and the next one clear.
		cont += bits.OnesCount64(w &^ (w << 1) & 0x8080808080808080)
	}
	for ; i < len(b); i++ {
		if b[i]&0xC0 == 0x80 {
			cont++
		}
	}
	return len(b) - cont
}

func isCont(c byte) bool { return c&0xC0 == 0x80 }

func posLess(a, b Pos) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }

// charTable returns chars, building it on first use.
func (sc *spanCache) charTable() []int {
	sc.charsOnce.Do(func() {
		src := sc.src
		chars := make([]int, len(src)/charBlock+1)
		total := 0
		for k := 1; k < len(chars); k++ {
			total += countChars(src[(k-1)*charBlock : k*charBlock])
			chars[k] = total
		}
		sc.chars = chars
	})
	return sc.chars
}

// charIndex returns the number of characters before byte offset off.
func (sc *spanCache) charIndex(off int) int {
	k := off / charBlock
	return sc.charTable()[k] + countChars(sc.src[k*charBlock:off])
}

// lineEnd returns the offset just past the last character of line li
// (0-based), before its line break.
func (sc *spanCache) lineEnd(li int) int {
	if li+1 >= sc.lines.count() {
		return len(sc.src)
	}
	e := sc.lines.start(li + 1)
	src := sc.src
	switch {
	case src[e-1] == '\n' && e-2 >= 0 && src[e-2] == '\r':
		return e - 2
	case src[e-1] == '\n' || src[e-1] == '\r':
		return e - 1
	}
	return e
}

// offset converts a position to a byte offset, -1 when it is outside the
// source. The position just past a line's last character is inside.
func (sc *spanCache) offset(p Pos) int {
	if p.Line < 1 || int(p.Line) > sc.lines.count() || p.Col < 1 {
		return -1
	}
	start, lim := sc.lines.start(int(p.Line)-1), sc.lineEnd(int(p.Line)-1)
	need := int(p.Col) - 1
	if need > lim-start {
		return -1
	}
	src := sc.src
	if need < 2*charBlock {
		// Each step counts the characters of as many bytes as are still
		// missing characters; it cannot overshoot.
		i := start
		for need > 0 {
			j := i + need
			if j > lim {
				return -1
			}
			need -= countChars(src[i:j])
			i = j
		}
		for i < lim && isCont(src[i]) { // the rest of the last character
			i++
		}
		return i
	}
	target := sc.charIndex(start) + need
	chars := sc.charTable()
	k := sort.Search(len(chars), func(k int) bool { return chars[k] > target }) - 1
	i, cnt := k*charBlock, chars[k]
	if i < start {
		i, cnt = start, sc.charIndex(start)
	}
	if i > lim { // the line has fewer characters than that
		if sc.charIndex(lim) == target {
			return lim
		}
		return -1
	}
	for ; i < lim; i++ {
		if !isCont(src[i]) {
			if cnt == target {
				return i
			}
			cnt++
		}
	}
	if cnt == target {
		return lim
	}
	return -1
}

// pos converts a byte offset (0 ≤ off ≤ len(src)) to a position.
func (sc *spanCache) pos(off int) Pos {
	li := sc.lines.lineOf(off)
	start := sc.lines.start(li)
	var col int
	if off-start < 2*charBlock {
		col = countChars(sc.src[start:off])
	} else {
		col = sc.charIndex(off) - sc.charIndex(start)
	}
	return Pos{Line: int32(li + 1), Col: int32(col + 1)}
}

// posAfter is pos(off) given an earlier offset start at position at: when
// both are on one line it counts only the characters between them.
func (sc *spanCache) posAfter(off, start int, at Pos) Pos {
	if li := int(at.Line) - 1; li+1 >= sc.lines.count() || sc.lines.lineOf(off) <= li {
		return Pos{Line: at.Line, Col: at.Col + int32(countChars(sc.src[start:off]))}
	}
	return sc.pos(off)
}

// col returns the 0-based column of offset off.
func (sc *spanCache) col(off int) int { return int(sc.pos(off).Col - 1) }

// Offset returns the byte offset in d.Source of the character at p, or -1
// when p is outside the source. The position just past the last character
// of a line (where its line break, or the end of input, is) is inside; its
// offset is that of the line break. Lines and columns are counted as the
// loader counts them for d.Format (see Pos).
func (d *Document) Offset(p Pos) int {
	if d == nil {
		return -1
	}
	return d.spanData().offset(p)
}

// End returns the position just past the last character of n's value in the
// source: for a scalar, past its text (closing quote included); for a
// collection, past its closing bracket or brace (JSON, YAML flow) or past the
// end of its last descendant (YAML block collections). Zero Pos when n is nil
// or does not belong to d.
//
// A YAML value written as nothing (the null of "key:") ends where it
// starts; one written only as properties ("key: !!str") ends past the last
// of them. A value the source does not match (it cannot happen for a
// document from Parse) ends where it starts. The first call builds a
// line index of d.Source; End is safe for concurrent use.
func (d *Document) End(n *Node) Pos {
	if d == nil || n == nil || !d.owns(n) {
		return Pos{}
	}
	sc := d.spanData()
	start := sc.offset(n.Pos)
	if start < 0 {
		return n.Pos
	}
	end := sc.end(n, start)
	if end < start || end > len(sc.src) {
		return n.Pos
	}
	p := sc.posAfter(end, start, n.Pos)
	if posLess(p, n.Pos) {
		return n.Pos
	}
	return p
}

// owns reports whether n is a node of d's tree (and not, for instance, one
// dropped for a duplicate key).
func (d *Document) owns(n *Node) bool {
	c := n
	for ; c.Parent != nil; c = c.Parent {
		p := c.Parent
		switch p.Kind {
		case Array:
			if c.Index() < 0 { // Index finds c among p's elements, or says it is not one
				return false
			}
		case Object:
			if p.Member(c.Key()) != c {
				return false
			}
		default:
			return false
		}
	}
	return c == d.Root
}

// end returns the byte offset just past n's value, -1 when it cannot tell;
// start is the offset of n.Pos.
func (sc *spanCache) end(n *Node, start int) int {
	// A copy ends where its original does, read in the original's context.
	n = sc.original(n)
	// Follow the last children down to a leaf, then come back up closing
	// brackets.
	var buf [32]*Node
	chain := buf[:0]
	c := n
	e := -1
	for {
		next, alias := sc.lastChild(c)
		if alias >= 0 {
			chain = append(chain, c)
			e = alias
			break
		}
		if next == nil {
			if c != n {
				start = sc.offset(c.Pos)
			}
			e = sc.leafEnd(c, start)
			if start < 0 && c != n && sc.yaml && c.Kind != Array && c.Kind != Object {
				e = len(sc.src) // yaml/v4 places some empty values past the end
			}
			break
		}
		chain = append(chain, c)
		c = next
	}
	for k := len(chain) - 1; k >= 0; k-- {
		e = sc.closeCollection(chain[k], c, e)
		c = chain[k]
	}
	return e
}

// lastChild returns the child of c whose value is the last in the source,
// nil when c has none. When that child is the expansion of an alias, alias
// is instead the offset just past the alias (*name) when it can be found.
func (sc *spanCache) lastChild(c *Node) (last *Node, alias int) {
	kids := c.Children()
	if len(kids) == 0 || c.Kind != Array && c.Kind != Object {
		return nil, -1
	}
	last = kids[len(kids)-1]
	if !sc.yaml || !sc.irregular {
		return last, -1
	}
	if c.Kind == Object {
		// Key positions are those of the source (an alias key's is the
		// alias's), so the last member is the one with the greatest.
		for _, k := range kids {
			if posLess(last.KeyPos, k.KeyPos) {
				last = k
			}
		}
		// A copy's value starts before its key, or it has an original
		// (unless that was dropped for a duplicate key).
		if !posLess(last.KeyPos, last.Pos) || sc.isCopy(last) {
			if e := sc.aliasAfterKey(last, c.Style == Flow); e >= 0 {
				return nil, e
			}
		}
		return last, -1
	}
	// Sequence elements are in source order. Past the last element that is
	// not a copy come "- *name" (or ", *name") aliases.
	j := len(kids) - 1
	for j >= 0 && (sc.isCopy(kids[j]) || !posLess(c.Pos, kids[j].Pos) ||
		j > 0 && !posLess(kids[j-1].Pos, kids[j].Pos)) {
		j--
	}
	if j == len(kids)-1 {
		return last, -1
	}
	var e int
	if j >= 0 {
		e = sc.end(kids[j], sc.offset(kids[j].Pos))
	} else if e = sc.offset(c.Pos); e >= 0 {
		e = sc.skipProps(e, c)
	}
	for i := j + 1; i < len(kids) && e >= 0; i++ {
		e = sc.aliasAfter(e, c.Style == Flow, i == 0)
	}
	if e < 0 {
		return last, -1
	}
	return nil, e
}

// original returns the node that n is a copy of (an alias expansion
// carries the positions of the anchored node), or n itself.
func (sc *spanCache) original(n *Node) *Node {
	if !sc.aliases {
		return n
	}
	sc.copiesOnce.Do(sc.findOriginals)
	if o := sc.originals[n.Pos]; o != nil {
		return o
	}
	return n
}

// findOriginals picks, for every position that several nodes share, the
// one in its source place: a member whose value starts after its key, an
// element after its sequence's start and its previous sibling (else the
// first in document order).
func (sc *spanCache) findOriginals() {
	byPos := slices.Clone(sc.nodes)
	slices.SortStableFunc(byPos, func(a, b *Node) int {
		if a.Pos.Line != b.Pos.Line {
			return int(a.Pos.Line - b.Pos.Line)
		}
		return int(a.Pos.Col - b.Pos.Col)
	})
	sc.originals = map[Pos]*Node{}
	for i := 0; i < len(byPos); {
		j := i + 1
		for j < len(byPos) && byPos[j].Pos == byPos[i].Pos {
			j++
		}
		if j-i > 1 {
			o := byPos[i]
			for _, n := range byPos[i:j] {
				if inPlace(n) {
					o = n
					break
				}
			}
			sc.originals[o.Pos] = o
		}
		i = j
	}
}

func inPlace(n *Node) bool {
	p := n.Parent
	switch {
	case p == nil:
		return true
	case p.Kind == Object:
		return posLess(n.KeyPos, n.Pos)
	}
	i := n.Index()
	return posLess(p.Pos, n.Pos) && (i <= 0 || posLess(p.Children()[i-1].Pos, n.Pos))
}

func (sc *spanCache) isCopy(n *Node) bool { return sc.original(n) != n }

// closeCollection returns the end of collection c given e, the end of the
// value of last, its last child (-1 if unknown; last is not a child when
// the value is an alias).
func (sc *spanCache) closeCollection(c, last *Node, e int) int {
	src := sc.src
	if !sc.yaml {
		closer := byte('}')
		if c.Kind == Array {
			closer = ']'
		}
		if e > 0 {
			k := skipJSONSpace(src, e)
			if k < len(src) && src[k] == closer {
				return k + 1
			}
		}
		// Not the last member in the source (a replaced duplicate key):
		// match the brackets.
		if start := sc.offset(c.Pos); start >= 0 {
			return skipJSONValue(src, start)
		}
		return -1
	}
	if c.Style != Flow {
		if o := sc.offset(last.Pos); c.Kind == Object && last.Parent == c && e >= 0 && (e == o || o < 0 && e == len(src)) {
			// The last value is empty. Unless written as "key:", yaml/v4
			// places it at whatever follows ("? key" alone): end at the key.
			j := e - 1
			for j >= 0 && isBlank(src[j]) {
				j--
			}
			if j < 0 || src[j] != ':' {
				k := sc.keyEnd(last, false)
				if k < 0 {
					k = sc.offset(last.KeyPos) // an empty key, just past its "?"
				}
				if k >= 0 && k < e {
					return k
				}
			}
		}
		return e
	}
	start := sc.offset(c.Pos)
	if start < 0 {
		return -1
	}
	b, _ := sc.skipSep(sc.skipProps(start, c))
	if b >= len(src) || src[b] != '[' && src[b] != '{' {
		// A single-pair mapping inside a flow sequence: [a: b]. yaml/v4
		// places an empty value at the ":" ([a :]).
		if last.Parent == c && e >= 0 && e < len(src) && src[e] == ':' && e == sc.offset(last.Pos) {
			return e + 1
		}
		return e
	}
	closer := byte('}')
	if src[b] == '[' {
		closer = ']'
	}
	if e > b {
		k, _ := sc.skipSep(e)
		if k < len(src) && src[k] == ',' {
			k, _ = sc.skipSep(k + 1)
		}
		if k < len(src) && src[k] == closer {
			return k + 1
		}
	}
	return sc.skipFlow(b)
}

// leafEnd returns the end of a scalar or of an empty collection that
// starts at start.
func (sc *spanCache) leafEnd(n *Node, start int) int {
	if start < 0 {
		return -1
	}
	if !sc.yaml {
		return skipJSONValue(sc.src, start)
	}
	return sc.yamlEnd(n, start)
}

// ---- JSON ----

func skipJSONSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// skipJSONValue returns the offset just past the JSON value at i, -1 when
// there is none.
func skipJSONValue(src []byte, i int) int {
	if i >= len(src) {
		return -1
	}
	switch c := src[i]; {
	case c == '"':
		return skipDoubleQuoted(src, i)
	case c == '-' || isDigit(c):
		j := i + 1
		for j < len(src) && (isDigit(src[j]) || src[j] == '.' || src[j] == 'e' || src[j] == 'E' || src[j] == '+' || src[j] == '-') {
			j++
		}
		return j
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range [...]string{"true", "false", "null"} {
			if bytes.HasPrefix(src[i:], []byte(lit)) {
				return i + len(lit)
			}
		}
		return -1
	case c == '[' || c == '{':
		depth := 0
		for j := i; j < len(src); j++ {
			switch src[j] {
			case '"':
				k := skipDoubleQuoted(src, j)
				if k < 0 {
					return -1
				}
				j = k - 1
			case '[', '{':
				depth++
			case ']', '}':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
	}
	return -1
}

// skipDoubleQuoted returns the offset just past the double-quoted string
// (JSON or YAML) that opens at i, -1 when it is not closed. A backslash
// escapes the byte after it, so a quote closes the string when an even
// number of backslashes precede it.
func skipDoubleQuoted(src []byte, i int) int {
	open := i
	i++
	for i <= len(src) {
		j := bytes.IndexByte(src[i:], '"')
		if j < 0 {
			return -1
		}
		q := i + j
		b := 0
		for k := q - 1; k > open && src[k] == '\\'; k-- {
			b++
		}
		if b%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
	return -1
}

// ---- YAML ----

// breakLen returns the length of the YAML line break at i, 0 if none.
func breakLen(src []byte, i int) int {
	if i >= len(src) {
		return 0
	}
	switch src[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(src) && src[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xC2:
		if i+1 < len(src) && src[i+1] == 0x85 {
			return 2
		}
	case 0xE2:
		if i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9) {
			return 3
		}
	}
	return 0
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isBlankz reports a blank, a line break or the end of input at i.
func isBlankz(src []byte, i int) bool {
	return i >= len(src) || isBlank(src[i]) || src[i] == 0 || breakLen(src, i) > 0
}

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// isAnchorChar reports the characters of an anchor or alias name as
// yaml/v4 reads them: YAML 1.2 production [102] restricted to ASCII, that
// is printable ASCII other than the space and the flow indicators.
func isAnchorChar(c byte) bool { return c > ' ' && c < 0x7f && !isFlowIndicator(c) }

// flowEndsColon reports whether a ':' followed by c ends a plain scalar in
// a flow collection, as yaml/v4 reads it: a '?' or any other ':' is part
// of the scalar.
func flowEndsColon(c byte) bool { return c == ',' || c == ']' || c == '}' }

// anchorEnd returns the end of the anchor or alias name that starts at i,
// just past its '&' or '*'. A run of ':' belongs to the name only when
// another name character follows it, so "*a: b" is the alias "a" as a key.
func anchorEnd(src []byte, i int) int {
	for i < len(src) && isAnchorChar(src[i]) {
		if src[i] != ':' {
			i++
			continue
		}
		j := i
		for j < len(src) && src[j] == ':' {
			j++
		}
		if j >= len(src) || !isAnchorChar(src[j]) {
			return i
		}
		i = j
	}
	return i
}

// isTagChar reports the characters of a tag: URI characters other than the
// flow indicators ',', '[' and ']', which end a tag (YAML 1.2 production
// [40]).
func isTagChar(c byte) bool {
	if isIdentByte(c) || c == '-' {
		return true
	}
	switch c {
	case ';', '/', '?', ':', '@', '&', '=', '+', '$', '.', '!', '~', '*', '\'', '(', ')', '%':
		return true
	}
	return false
}

// nextChar returns the offset of the character after the one at i.
func nextChar(src []byte, i int) int {
	i++
	for i < len(src) && isCont(src[i]) {
		i++
	}
	return i
}

func isDocMarker(src []byte, i int) bool {
	return i+3 <= len(src) && (src[i] == '-' && src[i+1] == '-' && src[i+2] == '-' ||
		src[i] == '.' && src[i+1] == '.' && src[i+2] == '.') && isBlankz(src, i+3)
}

// skipSep skips blanks, line breaks and comments from i; crossed reports
// whether a line break was skipped.
func (sc *spanCache) skipSep(i int) (j int, crossed bool) {
	src := sc.src
	for i < len(src) {
		c := src[i]
		switch {
		case isBlank(c):
			i++
		case c == '#':
			for i < len(src) && breakLen(src, i) == 0 {
				i++
			}
		default:
			w := breakLen(src, i)
			if w == 0 {
				return i, crossed
			}
			i += w
			crossed = true
		}
	}
	return i, crossed
}

// skipProps skips the anchor and tag properties of node n at i and returns
// the offset just past the last of them (i when there are none). In block
// context, a property on a later line belongs to n only when indented past
// n's parent collection; n is nil inside flow collections.
func (sc *spanCache) skipProps(i int, n *Node) int {
	src := sc.src
	for i < len(src) {
		j := i + 1
		switch src[i] {
		case '&':
			j = anchorEnd(src, j)
		case '!':
			if j < len(src) && src[j] == '<' {
				k := bytes.IndexByte(src[j:], '>')
				if k < 0 {
					return i
				}
				j += k + 1
			} else {
				for j < len(src) && isTagChar(src[j]) {
					j++
				}
			}
		default:
			return i
		}
		k, crossed := sc.skipSep(j)
		if k >= len(src) || src[k] != '&' && src[k] != '!' ||
			crossed && n != nil && !inFlow(n) && sc.col(k) <= sc.parentIndent(n) {
			return j
		}
		i = k
	}
	return i
}

// inFlow reports whether n is inside a flow collection.
func inFlow(n *Node) bool { return n.Parent != nil && n.Parent.Style == Flow }

// yamlEnd returns the end of a YAML scalar or empty collection n that
// starts at start.
// inComment reports whether offset i is inside a comment: after a '#' that
// starts its line or follows a space or tab, with no quote before it on
// the line (a quoted scalar may hold " #"; such a line is not judged).
func (sc *spanCache) inComment(i int) bool {
	src := sc.src
	for j := sc.lines.start(sc.lines.lineOf(i)); j < i; j++ {
		switch src[j] {
		case '\'', '"':
			return false
		case '#':
			if j == 0 || src[j-1] == ' ' || src[j-1] == '\t' || src[j-1] == '\n' || src[j-1] == '\r' {
				return true
			}
		}
	}
	return false
}

func (sc *spanCache) yamlEnd(n *Node, start int) int {
	src := sc.src
	flow := inFlow(n)
	i := sc.skipProps(start, n)
	propEnd := i
	if i > start {
		k, crossed := sc.skipSep(i)
		if k >= len(src) {
			return propEnd
		}
		if flow {
			if c := src[k]; c == ',' || c == ']' || c == '}' || c == ':' {
				return propEnd
			}
		} else if crossed && (sc.col(k) == 0 && isDocMarker(src, k) ||
			src[k] != '|' && src[k] != '>' && sc.col(k) <= sc.parentIndent(n)) {
			// Nothing after the properties: an empty value. (yaml/v4 takes
			// a block scalar on a line of its own even when it is not
			// indented; anything else there is the next key.)
			return propEnd
		}
		i = k
	}
	if i >= len(src) {
		return propEnd
	}
	if n.Kind == Array || n.Kind == Object {
		if n.Style == Flow && (src[i] == '[' || src[i] == '{') {
			return sc.skipFlow(i)
		}
		return propEnd
	}
	switch n.Style {
	case SingleQuoted:
		if src[i] != '\'' {
			return -1
		}
		return skipSingleQuoted(src, i)
	case DoubleQuoted:
		if src[i] != '"' {
			return -1
		}
		return skipDoubleQuoted(src, i)
	case Literal, Folded:
		if src[i] != '|' && src[i] != '>' {
			return -1
		}
		return sc.scanBlockScalar(i, sc.parentIndent(n))
	}
	if !plainStart(src, i, flow) {
		return propEnd // empty: the position is that of what follows
	}
	if n.Kind == Null && sc.inComment(i) {
		// Written as nothing, where yaml/v4 places it inside the comment
		// that follows ("? k" and then "#0" on the next line).
		return propEnd
	}
	indent := 0
	if !flow {
		indent = sc.parentIndent(n) + 1
	}
	e := sc.scanPlain(i, sc.col(i), indent, flow)
	if e <= i {
		return propEnd
	}
	if !flow {
		// A plain scalar followed by ": " is the next key, where yaml/v4
		// places an empty value ("? a" without ": value").
		k := e
		for k < len(src) && isBlank(src[k]) {
			k++
		}
		if k < len(src) && src[k] == ':' && isBlankz(src, k+1) {
			return start
		}
	}
	return e
}

// plainStart reports whether a plain scalar can start at i (as yaml/v4
// reads it: in flow context "?" and ":" are always indicators).
func plainStart(src []byte, i int, flow bool) bool {
	if isBlankz(src, i) {
		return false
	}
	switch c := src[i]; c {
	case '?', ':':
		return !flow && !isBlankz(src, i+1)
	case '-':
		return !isBlankz(src, i+1) && !(flow && isFlowIndicator(src[i+1]))
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

// parentIndent returns the indentation (0-based column) of the block
// collection that contains n, -1 for the root: the column of a mapping's
// keys, or of a sequence's "-" indicators.
func (sc *spanCache) parentIndent(n *Node) int {
	p := n.Parent
	if p == nil {
		return -1
	}
	src := sc.src
	if p.Kind == Object {
		col := int(n.KeyPos.Col) - 1
		if o := sc.offset(n.KeyPos); o >= 0 {
			// An explicit key "? key": the mapping is at the "?".
			j := o - 1
			for j >= 0 && isBlank(src[j]) {
				j--
			}
			if j >= 0 && src[j] == '?' && j < o-1 {
				col -= o - j
			}
		}
		return col
	}
	if c, ok := sc.dashCol(n); ok {
		return c
	}
	if p.Len() > 0 {
		if c, ok := sc.dashCol(p.Children()[0]); ok {
			return c
		}
	}
	if o := sc.offset(p.Pos); o >= 0 {
		// The sequence starts with its properties, then its first "-".
		if k, _ := sc.skipSep(sc.skipProps(o, p)); k < len(src) && src[k] == '-' {
			return sc.col(k)
		}
	}
	// The element is on a line of its own: its parent is left of it.
	li := int(n.Pos.Line) - 1
	if li < 0 || li >= sc.lines.count() {
		return -1
	}
	start := sc.lines.start(li)
	i := start
	for i < len(src) && src[i] == ' ' {
		i++
	}
	return i - start - 1
}

// dashCol returns the column of the "-" before sequence element e on its
// line.
func (sc *spanCache) dashCol(e *Node) (int, bool) {
	o := sc.offset(e.Pos)
	if o < 0 {
		return 0, false
	}
	j := o - 1
	for j >= 0 && isBlank(sc.src[j]) {
		j--
	}
	if j >= 0 && sc.src[j] == '-' {
		return int(e.Pos.Col) - 1 - (o - j), true
	}
	return 0, false
}

// skipSingleQuoted returns the offset just past the single-quoted scalar
// that opens at i (a doubled quote is an escaped one), -1 when it is not
// closed.
func skipSingleQuoted(src []byte, i int) int {
	i++
	for i <= len(src) {
		j := bytes.IndexByte(src[i:], '\'')
		if j < 0 {
			return -1
		}
		q := i + j
		if q+1 < len(src) && src[q+1] == '\'' {
			i = q + 2
			continue
		}
		return q + 1
	}
	return -1
}

// scanPlain returns the offset just past the plain scalar at i, whose
// column is col; continuation lines in block context must be indented at
// least indent. It follows yaml/v4's scanner.
func (sc *spanCache) scanPlain(i, col, indent int, flow bool) int {
	src := sc.src
	end := i
	for {
		if col == 0 && isDocMarker(src, i) {
			break
		}
		if i < len(src) && src[i] == '#' {
			break
		}
		for !isBlankz(src, i) {
			c := src[i]
			if c == ':' && (isBlankz(src, i+1) || flow && flowEndsColon(src[i+1])) || flow && isFlowIndicator(c) {
				break
			}
			i = nextChar(src, i)
			col++
			end = i
		}
		if i >= len(src) || !isBlank(src[i]) && breakLen(src, i) == 0 {
			break
		}
		for i < len(src) {
			if isBlank(src[i]) {
				i++
				col++
			} else if w := breakLen(src, i); w > 0 {
				i += w
				col = 0
			} else {
				break
			}
		}
		if !flow && col < indent {
			break
		}
	}
	return end
}

// scanBlockScalar returns the offset just past the last non-blank character
// of the literal or folded scalar whose indicator is at i (past the header
// when its text is empty), given the indentation of its parent collection.
// It follows yaml/v4's scanner.
func (sc *spanCache) scanBlockScalar(i, parentIndent int) int {
	src := sc.src
	i++
	increment := 0
	if i < len(src) && (src[i] == '+' || src[i] == '-') {
		i++
		if i < len(src) && src[i] >= '1' && src[i] <= '9' {
			increment = int(src[i] - '0')
			i++
		}
	} else if i < len(src) && src[i] >= '1' && src[i] <= '9' {
		increment = int(src[i] - '0')
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
	}
	end := i
	for i < len(src) && isBlank(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '#' {
		for i < len(src) && breakLen(src, i) == 0 {
			i++
		}
	}
	if i < len(src) {
		w := breakLen(src, i)
		if w == 0 {
			return -1
		}
		i += w
	}
	// The content's indentation: from the header's indicator, or else
	// found on the first line that is not empty. A block scalar at the
	// root (parentIndent -1) may have its content at column 0, as yaml/v4
	// reads it; any other is indented at least one column.
	indent, known := 0, false
	if increment > 0 {
		indent, known = increment, true
		if parentIndent >= 0 {
			indent += parentIndent
		}
	}
	col := 0
	// breaks skips indentation and empty lines, fixing indent on first use.
	breaks := func() bool {
		maxIndent := 0
		for {
			col = 0
			for (!known || col < indent) && i < len(src) && src[i] == ' ' {
				i++
				col++
			}
			maxIndent = max(maxIndent, col)
			if (!known || col < indent) && i < len(src) && src[i] == '\t' {
				return false
			}
			w := breakLen(src, i)
			if w == 0 {
				break
			}
			i += w
		}
		if !known {
			indent, known = max(maxIndent, parentIndent+1), true
			if parentIndent >= 0 {
				indent = max(indent, 1)
			}
		}
		return true
	}
	if !breaks() {
		return end
	}
	for col == indent && i < len(src) && !(indent == 0 && isDocMarker(src, i)) {
		for i < len(src) && breakLen(src, i) == 0 {
			if !isBlank(src[i]) {
				end = nextChar(src, i)
				i = end
			} else {
				i++
			}
		}
		i += breakLen(src, i)
		if !breaks() {
			break
		}
	}
	return end
}

// skipFlow returns the offset just past the flow collection that opens at
// i, -1 when it is not closed.
func (sc *spanCache) skipFlow(i int) int {
	src := sc.src
	depth := 0
	for i < len(src) {
		switch c := src[i]; c {
		case '[', '{':
			depth++
			i++
		case ']', '}':
			depth--
			i++
			if depth == 0 {
				return i
			}
		case ',', '?', ':', ' ', '\t', '|', '>', '%', '@', '`', 0:
			i++
		case '#':
			for i < len(src) && breakLen(src, i) == 0 {
				i++
			}
		case '\'':
			if i = skipSingleQuoted(src, i); i < 0 {
				return -1
			}
		case '"':
			if i = skipDoubleQuoted(src, i); i < 0 {
				return -1
			}
		case '!', '&', '*':
			if c == '*' {
				i = anchorEnd(src, i+1)
			} else {
				i = sc.skipProps(i, nil)
			}
		default:
			if w := breakLen(src, i); w > 0 {
				i += w
				continue
			}
			if e := sc.scanPlain(i, 1, 0, true); e > i {
				i = e
			} else {
				i = nextChar(src, i)
			}
		}
	}
	return -1
}

// aliasAfter returns the offset just past the alias that is the next
// sequence element after offset i: "- *name" in a block sequence, ", *name"
// in a flow one (first: "[ *name" or, for a block sequence, "- *name" right
// at its start). -1 when the source does not read so.
func (sc *spanCache) aliasAfter(i int, flow, first bool) int {
	src := sc.src
	k, _ := sc.skipSep(i)
	want := byte('-')
	if flow {
		want = ','
		if first {
			want = '['
		}
	}
	if k >= len(src) || src[k] != want {
		return -1
	}
	return sc.aliasAt(k + 1)
}

// aliasAt returns the offset just past the alias that comes next after i.
func (sc *spanCache) aliasAt(i int) int {
	src := sc.src
	k, _ := sc.skipSep(i)
	if k >= len(src) || src[k] != '*' {
		return -1
	}
	return anchorEnd(src, k+1)
}

// aliasAfterKey returns the offset just past the alias that is the value of
// member m ("key: *name"), -1 when the source does not read so.
func (sc *spanCache) aliasAfterKey(m *Node, flow bool) int {
	k := sc.keyEnd(m, flow)
	if k < 0 {
		return -1
	}
	k, _ = sc.skipSep(k)
	if k >= len(sc.src) || sc.src[k] != ':' {
		return -1
	}
	return sc.aliasAt(k + 1)
}

// keyEnd returns the offset just past the key of member m, -1 when the
// source does not read as a scalar or alias key there.
func (sc *spanCache) keyEnd(m *Node, flow bool) int {
	src := sc.src
	k := sc.offset(m.KeyPos)
	if k < 0 {
		return -1
	}
	props := -1 // end of the key's properties, if any
	if p := sc.skipProps(k, m); p > k {
		props = p
		k, _ = sc.skipSep(p)
	}
	if k >= len(src) {
		return props
	}
	switch src[k] {
	case '*':
		k = anchorEnd(src, k+1)
	case '\'':
		k = skipSingleQuoted(src, k)
	case '"':
		k = skipDoubleQuoted(src, k)
	case '|', '>':
		k = sc.scanBlockScalar(k, sc.parentIndent(m)) // "? |"
	default:
		if !plainStart(src, k, flow) {
			return props // a key written as nothing (or only properties)
		}
		indent := 0
		if !flow {
			indent = sc.parentIndent(m) + 1
		}
		k = sc.scanPlain(k, sc.col(k), indent, flow)
	}
	if k < 0 {
		return props
	}
	return k
}

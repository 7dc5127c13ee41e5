package loader

import (
	"bytes"
	"unicode/utf8"
)

// The YAML fast path reads the YAML that encoders write and most people
// write by hand directly into celint's tree, without yaml/v4 and yaml/v4's
// own tree of about 200 bytes a node (on the benchmark description it is
// almost four times as fast as yaml/v4 alone):
//
//   - block mappings and sequences indented with spaces, a mapping's
//     sequence at its key's column, compact entries ("- a: 1", "- - x");
//   - plain, single- and double-quoted scalars, over several lines too;
//   - literal and folded block scalars, with or without a chomping
//     indicator;
//   - flow sequences and mappings of scalars and flow collections, over
//     several lines too;
//   - empty values and entries (nulls);
//   - comments, CRLF line breaks, and a "---" line that starts the stream.
//
// It builds exactly the tree the yaml/v4 front end builds (positions,
// styles, values, member order, counts), and gives up, leaving the whole
// input to yaml/v4, at the first thing outside that subset or in doubt:
// anchors, aliases, tags, directives, other document markers, explicit
// keys, a flow mapping's implicit keys and empty values, block scalars
// with an indentation indicator or leading empty lines, tabs, any ':' or
// '?' in a flow scalar, any error and any limit crossed. So every error is
// still yaml/v4's front end's, with its message and position, and so are
// the limits' pre-scan and alias checks.
// TestFastYAMLAgrees and FuzzFastYAML compare the two front ends on every
// document the fast path takes.

// yfast is the fast path's cursor: the current content line, the first
// line at or after a given offset that is neither blank nor a comment.
type yfast struct {
	*builder
	data []byte
	ls   int // offset of the line's first byte
	cs   int // offset of its first non-space byte
	le   int // offset of its end (its line break, or len(data))
	nl   int // offset of its '\n', or len(data)
	line int // its 1-based number
	eof  bool
	kids []*Node // the children of the open collections, innermost last
	cr   bool    // the input has a carriage return

	colLine, colOff, colCol int  // the last column pos counted: the line's start, the offset, the column
	start                   bool // a "---" line may start the document here
}

// maxFastKey is the longest key the fast path reads; YAML limits an
// implicit key to 1024 characters.
const maxFastKey = 1000

// parseBlockYAML reads data by the fast path; ok is false when it gives up
// (then b's counts are to be reset).
func parseBlockYAML(b *builder, data []byte) (root *Node, ok bool) {
	if bytes.IndexByte(data, '\t') >= 0 {
		return nil, false
	}
	p := &yfast{builder: b, data: data, cr: bytes.IndexByte(data, '\r') >= 0, start: true}
	if !p.seek(0, 1) || p.eof {
		return nil, false
	}
	p.start = false
	if p.seqIndicator(p.cs) {
		root, ok = p.seq(p.cs, 0)
	} else if _, _, _, isKey, fine := p.key(p.cs); isKey && fine {
		root, ok = p.mapping(p.cs, 0)
	}
	if !ok || !p.eof {
		return nil, false
	}
	return root, true
}

// seek moves to the first content line at or after off, a line start whose
// number is line. It is false at a document marker, a directive or a
// carriage return that does not end a line.
func (p *yfast) seek(off, line int) bool {
	d := p.data
	for off < len(d) {
		le, nl, sp, ok := p.lineAt(off)
		if !ok {
			return false
		}
		cs := off + sp
		if sp == 0 && cs < le && d[cs] == '%' {
			return false // a directive
		}
		if sp == 0 && le-off >= 3 && (string(d[off:off+3]) == "---" || string(d[off:off+3]) == "...") {
			if !p.start || string(d[off:off+3]) != "---" || !p.restAt(off+3, le) {
				return false
			}
			p.start = false // the document's start marker, alone on its line
			off, line = nl+1, line+1
			continue
		}
		if cs < le && d[cs] != '#' {
			p.ls, p.cs, p.le, p.nl, p.line = off, cs, le, nl, line
			return true
		}
		off, line = nl+1, line+1
	}
	p.eof = true
	return true
}

// next moves past the current line.
func (p *yfast) next() bool { return p.seek(p.nl+1, p.line+1) }

// ind is the current line's indentation.
func (p *yfast) ind() int { return p.cs - p.ls }

// pos is where the byte at off of the current line is, its column counted
// in characters as yaml/v4 counts it. It counts on from the last position
// asked for on the line, so that the nodes of a long line (a flow
// collection of a million entries) cost linear time, not quadratic.
func (p *yfast) pos(off int) Pos {
	from, col := p.ls, 0
	if p.colLine == p.ls && p.colOff <= off {
		from, col = p.colOff, p.colCol
	}
	for _, c := range p.data[from:off] {
		if c&0xC0 != 0x80 { // not a UTF-8 continuation byte: a character starts
			col++
		}
	}
	p.colLine, p.colOff, p.colCol = p.ls, off, col
	return Pos{Line: int32(p.line), Col: int32(col + 1)}
}

// seqIndicator reports a block sequence entry's "-" at off.
func (p *yfast) seqIndicator(off int) bool {
	return p.data[off] == '-' && (off+1 == p.le || p.data[off+1] == ' ')
}

// plainStart reports whether a plain scalar may start at off.
func (p *yfast) plainStart(off int) bool { return p.plainStartAt(off, p.le) }

// plainStartAt is plainStart on the line that ends at le.
func (p *yfast) plainStartAt(off, le int) bool {
	switch p.data[off] {
	case '-':
		return off+1 < le && p.data[off+1] != ' '
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

// flowPlainStart reports whether a plain scalar may start at off inside a
// flow collection, where a '-' followed by a flow indicator starts none.
func (p *yfast) flowPlainStart(off int) bool {
	return p.plainStart(off) && !(p.data[off] == '-' && isFlowIndicator(p.data[off+1]))
}

// key reads a mapping key at off: its member name, position and the offset
// past its ':'. isKey is false when the line at off is not a key; fine is
// false when the fast path gives up.
func (p *yfast) key(off int) (name string, at Pos, after int, isKey, fine bool) {
	d := p.data
	at = p.pos(off)
	if c := d[off]; c == '"' || c == '\'' {
		s, end, ok := p.quoted(off)
		if !ok {
			return "", at, 0, false, true // not a key; perhaps a value over several lines
		}
		if end >= p.le || d[end] != ':' {
			return "", at, 0, false, true // a quoted scalar, unless more follows
		}
		if end+1 < p.le && d[end+1] != ' ' || end-off > maxFastKey || len(s) > p.opts.Limits.ScalarBytes {
			return "", at, 0, false, false
		}
		return s, at, end + 1, true, true
	}
	if !p.plainStart(off) {
		return "", at, 0, false, true // not a key; perhaps a value
	}
	for i := off; i < p.le; i++ {
		switch d[i] {
		case '#':
			if d[i-1] == ' ' {
				return "", at, 0, false, true
			}
		case ':':
			if i+1 < p.le && d[i+1] != ' ' {
				continue
			}
			if d[i-1] == ' ' || i-off > maxFastKey {
				return "", at, 0, false, false
			}
			name, ok := p.plainKey(p.name(d[off:i]), at)
			return name, at, i + 1, ok, ok
		}
	}
	return "", at, 0, false, true
}

// quoted reads the single-line quoted scalar at off: its value and the
// offset past its closing quote.
func (p *yfast) quoted(off int) (string, int, bool) { return p.quotedIn(off, -1) }

// quotedIn reads the quoted scalar at off. With parentCol >= 0 it may go
// on over lines indented past that column, folded as yaml/v4 folds them
// (a line break is a space, each further one a "\n", the spaces around
// them dropped), and the cursor is moved to its last line.
func (p *yfast) quotedIn(off, parentCol int) (string, int, bool) {
	d := p.data
	q := d[off]
	var sb []byte
	folded := false // sb holds the value so far
	start := off + 1
	for i := start; ; i++ {
		if i == p.le {
			if parentCol < 0 {
				return "", 0, false
			}
			j := i
			for j > start && d[j-1] == ' ' {
				j--
			}
			sb, folded = append(sb, d[start:j]...), true
			if i, ok := p.foldBreaks(&sb, parentCol); ok {
				start = i
				i--
				continue
			}
			return "", 0, false
		}
		c := d[i]
		if c == q {
			if q == '\'' && i+1 < p.le && d[i+1] == '\'' {
				sb, folded = append(sb, d[start:i+1]...), true
				start = i + 2
				i++
				continue
			}
			if !folded {
				return sourceString(d[start:i]), i + 1, true
			}
			return string(append(sb, d[start:i]...)), i + 1, true
		}
		if c != '\\' || q != '"' {
			continue
		}
		if i+1 >= p.le {
			return "", 0, false // an escaped line break
		}
		sb, folded = append(sb, d[start:i]...), true
		e := d[i+1]
		i++
		if r, ok := yamlEscapes[e]; ok {
			sb = append(sb, r)
			start = i + 1
			continue
		}
		switch e {
		case 'x', 'u', 'U':
			n := 2
			if e == 'u' {
				n = 4
			} else if e == 'U' {
				n = 8
			}
			if i+n >= p.le {
				return "", 0, false
			}
			var r rune
			for _, h := range d[i+1 : i+1+n] {
				v, ok := hexVal(h)
				if !ok {
					return "", 0, false
				}
				r = r<<4 | rune(v)
			}
			if r >= 0xD800 && r <= 0xDFFF || r > utf8.MaxRune {
				return "", 0, false
			}
			sb = utf8.AppendRune(sb, r)
			i += n
		default:
			return "", 0, false
		}
		start = i + 1
	}
}

// foldBreaks moves the cursor from the end of a quoted scalar's line to
// the next line that is not empty, which must be indented past parentCol,
// and adds the folded line breaks to sb; it returns where the line's text
// starts.
func (p *yfast) foldBreaks(sb *[]byte, parentCol int) (int, bool) {
	d := p.data
	breaks := 0
	for start, line := p.nl+1, p.line+1; start < len(d); start, line = p.nl+1, line+1 {
		le, nl, sp, ok := p.lineAt(start)
		if !ok {
			return 0, false
		}
		p.ls, p.cs, p.le, p.nl, p.line = start, start+sp, le, nl, line
		if start+sp == le {
			breaks++
			continue
		}
		if sp <= parentCol {
			return 0, false
		}
		*sb = appendFold(*sb, breaks)
		return start + sp, true
	}
	return 0, false
}

// appendFold adds the folding of a flow scalar's line break followed by
// breaks empty lines: a space, or a "\n" for each empty line.
func appendFold(sb []byte, breaks int) []byte {
	if breaks == 0 {
		return append(sb, ' ')
	}
	for range breaks {
		sb = append(sb, '\n')
	}
	return sb
}

// yamlEscapes are the one-character escapes of a double-quoted scalar
// that yaml/v4 knows (it knows no \/), and what they stand for; \N, \_,
// \L and \P are left to yaml/v4.
var yamlEscapes = map[byte]byte{
	'0': 0, 'a': '\a', 'b': '\b', 't': '\t', 'n': '\n', 'v': '\v', 'f': '\f', 'r': '\r', 'e': 0x1b,
	' ': ' ', '"': '"', '\\': '\\',
}

func hexVal(h byte) (byte, bool) {
	switch {
	case h >= '0' && h <= '9':
		return h - '0', true
	case h >= 'a' && h <= 'f':
		return h - 'a' + 10, true
	case h >= 'A' && h <= 'F':
		return h - 'A' + 10, true
	}
	return 0, false
}

// scalar reads the scalar value at off, or the empty flow collection "{}"
// or "[]", which ends its line (but for a comment, or the lines of a block
// scalar), and moves to the next line. depth is its parent's nesting
// depth, parentCol the column of its parent collection.
func (p *yfast) scalar(off, depth, parentCol int) (*Node, bool) {
	d := p.data
	if c := d[off]; c == '|' || c == '>' {
		return p.blockScalar(off, parentCol)
	}
	at := p.pos(off)
	if c := d[off]; c == '{' || c == '[' {
		n, end, ok := p.flow(off, depth, parentCol)
		if !ok || !p.restOfLine(end) {
			return nil, false
		}
		return n, p.next()
	}
	var (
		kind      Kind
		val       any
		nonFinite bool
		style     = Plain
		raw       string
		moved     bool // the cursor is past the scalar already
	)
	if c := d[off]; c == '"' || c == '\'' {
		s, end, ok := p.quotedIn(off, parentCol)
		if !ok || !p.restOfLine(end) {
			return nil, false
		}
		kind, val, raw = String, s, s
		if c == '"' {
			style = DoubleQuoted
		} else {
			style = SingleQuoted
		}
	} else {
		if !p.plainStart(off) {
			return nil, false
		}
		end, comment, ok := p.plainLine(off, p.le)
		if !ok {
			return nil, false
		}
		if !comment {
			var sb []byte
			if sb, ok = p.plainMore(d[off:end], parentCol); !ok {
				return nil, false
			}
			if sb != nil {
				raw, moved = string(sb), true
			}
		}
		if !moved {
			raw = sourceString(d[off:end])
		}
		var err *Error
		if kind, val, nonFinite, err = p.resolvePlain(raw, at); err != nil {
			return nil, false
		}
	}
	n, ok := p.scalarNode(kind, val, nonFinite, raw, style, at)
	if !ok || moved {
		return n, ok
	}
	return n, p.next()
}

// blockScalar reads the literal (|) or folded (>) block scalar whose
// indicator is at off, in a collection at column parentCol, as yaml/v4
// (libyaml) reads it, and moves to the line after it. It gives up on an
// explicit indentation indicator, on empty lines before the first line of
// content, and on a scalar without content.
func (p *yfast) blockScalar(off, parentCol int) (*Node, bool) {
	d := p.data
	at := p.pos(off)
	literal := d[off] == '|'
	chomp := 0 // clip; -1 strip, 1 keep
	i := off + 1
	if i < p.le && (d[i] == '-' || d[i] == '+') {
		chomp = 1
		if d[i] == '-' {
			chomp = -1
		}
		i++
	}
	if i < p.le && d[i] >= '0' && d[i] <= '9' || !p.restOfLine(i) {
		return nil, false
	}
	var (
		sb           []byte
		indent       = -1
		leadingBreak bool // the content so far ends with a line break not yet added
		leadingBlank bool // the last content line started with a space
		trailing     int  // empty lines since the last content line
		line         = p.line + 1
		start        = p.nl + 1
	)
	for start < len(d) {
		le, nl, sp, ok := p.lineAt(start)
		if !ok {
			return nil, false
		}
		blank := start+sp == le
		if indent < 0 {
			if blank || sp <= parentCol {
				return nil, false
			}
			indent = sp
		}
		if blank && sp <= indent {
			if nl == len(d) {
				break // spaces at the end of the input are no line
			}
			trailing++
			start, line = nl+1, line+1
			continue
		}
		if sp < indent {
			break
		}
		trailingBlank := d[start+indent] == ' '
		if !literal && leadingBreak && !leadingBlank && !trailingBlank {
			if trailing == 0 {
				sb = append(sb, ' ')
			}
		} else if leadingBreak {
			sb = append(sb, '\n')
		}
		for ; trailing > 0; trailing-- {
			sb = append(sb, '\n')
		}
		leadingBlank = trailingBlank
		sb = append(sb, d[start+indent:le]...)
		// A last line of spaces only, more indented than the scalar, ends
		// with a line break to yaml/v4 even at the end of the input.
		leadingBreak = nl < len(d) || blank
		if len(sb) > p.opts.Limits.ScalarBytes {
			return nil, false
		}
		start, line = nl+1, line+1
	}
	if indent < 0 {
		return nil, false
	}
	if chomp != -1 && leadingBreak {
		sb = append(sb, '\n')
	}
	if chomp == 1 {
		for ; trailing > 0; trailing-- {
			sb = append(sb, '\n')
		}
	}
	if len(sb) > p.opts.Limits.ScalarBytes {
		return nil, false
	}
	n, err := p.newNode(String, at)
	if err != nil {
		return nil, false
	}
	n.Style = Folded
	n.setString(string(sb))
	if literal {
		n.Style = Literal
	}
	return n, p.seek(start, line)
}

// plainLine finds where the plain scalar text from off ends on the line
// that ends at le: before a comment (then comment is true) or trailing
// spaces. It is false at a ": " or a final ':', which yaml/v4 refuses in a
// value.
func (p *yfast) plainLine(off, le int) (end int, comment, ok bool) {
	d := p.data
	end = le
	for i := off; i < le; i++ {
		switch d[i] {
		case '#':
			if i > off && d[i-1] == ' ' {
				end, comment = i, true
				i = le
			}
		case ':':
			if i+1 == le || d[i+1] == ' ' {
				return 0, false, false
			}
		}
	}
	for end > off && d[end-1] == ' ' {
		end--
	}
	return end, comment, true
}

// plainMore reads the continuation lines of the plain scalar whose first
// line is first, in a collection at column parentCol: the lines after it
// indented past that column, up to the first that is not (or a comment).
// It returns the whole folded scalar, each line break a space and each
// empty line a "\n", with the cursor moved past it; nil when the scalar
// has one line.
func (p *yfast) plainMore(first []byte, parentCol int) ([]byte, bool) {
	d := p.data
	var sb []byte
	start, line, breaks := p.nl+1, p.line+1, 0
	lastNL, lastLine := 0, 0
	for start < len(d) {
		le, nl, sp, ok := p.lineAt(start)
		if !ok {
			return nil, false
		}
		if start+sp == le {
			if nl == len(d) {
				break
			}
			breaks++
			start, line = nl+1, line+1
			continue
		}
		if sp <= parentCol || d[start+sp] == '#' {
			break
		}
		if !p.plainStartAt(start+sp, le) {
			return nil, false // what yaml/v4 makes of it is not worth the doubt
		}
		end, comment, ok := p.plainLine(start+sp, le)
		if !ok || comment {
			return nil, false
		}
		if sb == nil {
			sb = append(sb, first...)
		}
		sb = append(appendFold(sb, breaks), d[start+sp:end]...)
		breaks = 0
		if len(sb) > p.opts.Limits.ScalarBytes {
			return nil, false
		}
		lastNL, lastLine = nl, line
		start, line = nl+1, line+1
	}
	if sb == nil {
		return nil, true
	}
	return sb, p.seek(lastNL+1, lastLine+1)
}

// lineAt returns where the line that starts at off ends (before its line
// break), where its '\n' is (len(data) for the last line) and how many
// spaces it starts with; it is false at a carriage return that does not
// end a line.
func (p *yfast) lineAt(off int) (le, nl, sp int, ok bool) {
	d := p.data
	nl = bytes.IndexByte(d[off:], '\n')
	if nl < 0 {
		nl = len(d)
	} else {
		nl += off
	}
	le = nl
	if p.cr {
		if le > off && le < len(d) && d[le-1] == '\r' {
			le--
		}
		if bytes.IndexByte(d[off:le], '\r') >= 0 {
			return 0, 0, 0, false
		}
	}
	for off+sp < le && d[off+sp] == ' ' {
		sp++
	}
	return le, nl, sp, true
}

// skipSpaces returns the offset of the first byte at or after i on the
// current line that is not a space.
func (p *yfast) skipSpaces(i int) int {
	for i < p.le && p.data[i] == ' ' {
		i++
	}
	return i
}

// flow reads the flow sequence or mapping at off, in a block collection at
// column parentCol, and returns the offset past it, on the line where it
// ends (the cursor's then). Its lines after the first must be indented
// past parentCol. Its entries are flow collections, single-line quoted
// scalars and plain scalars without ':'; a mapping's are "key: value"
// pairs. It gives up at anything else, an empty entry or value, and a
// trailing ','.
func (p *yfast) flow(off, depth, parentCol int) (*Node, int, bool) {
	d := p.data
	kind, closing := Array, byte(']')
	if d[off] == '{' {
		kind, closing = Object, '}'
	}
	n, fine := p.collection(kind, p.pos(off), depth)
	if !fine {
		return nil, 0, false
	}
	n.Style = Flow
	base := len(p.kids)
	var index map[string]int
	i, ok := p.flowSpace(off+1, parentCol)
	if !ok {
		return nil, 0, false
	}
	if i < p.le && d[i] == closing {
		i++
	} else {
		for {
			var (
				key    string
				keyPos Pos
				at     = -1
			)
			if kind == Object {
				var err *Error
				if key, keyPos, i, ok = p.flowKey(i); !ok {
					return nil, 0, false
				}
				if at, err = p.memberSlot(p.kids[base:], index, key, keyPos); err != nil {
					return nil, 0, false
				}
				if i = p.skipSpaces(i); i >= p.le {
					return nil, 0, false // a value on the next line
				}
			}
			var child *Node
			if child, i, ok = p.flowNode(i, depth+1, parentCol); !ok {
				return nil, 0, false
			}
			child.Parent = n
			if kind == Array {
				p.kids = append(p.kids, child)
			} else {
				child.key, child.KeyPos = p.keyRef(key), keyPos
				index = p.addMember(base, at, child, index)
			}
			if i, ok = p.flowSpace(i, parentCol); !ok {
				return nil, 0, false
			}
			if d[i] == closing {
				i++
				break
			}
			if d[i] != ',' {
				return nil, 0, false
			}
			if i, ok = p.flowSpace(i+1, parentCol); !ok || d[i] == closing || d[i] == ',' {
				return nil, 0, false
			}
		}
	}
	if kind == Object {
		p.finishObject(n, p.kids[base:], index)
	} else {
		p.finishArray(n, p.kids[base:])
	}
	p.kids = p.kids[:base]
	return n, i, true
}

// flowSpace skips the spaces, comments and line breaks from i inside a
// flow collection to the next token, moving the cursor to its line.
func (p *yfast) flowSpace(i, parentCol int) (int, bool) {
	d := p.data
	j := p.skipSpaces(i)
	if j < p.le && (d[j] != '#' || j == i && j > p.ls && d[j-1] != ' ') {
		return j, true
	}
	for {
		if p.nl >= len(d) {
			return 0, false
		}
		start := p.nl + 1
		le, nl, sp, ok := p.lineAt(start)
		if !ok {
			return 0, false
		}
		cs := start + sp
		p.ls, p.cs, p.le, p.nl, p.line = start, cs, le, nl, p.line+1
		if cs == le || d[cs] == '#' {
			continue
		}
		if cs-start <= parentCol {
			return 0, false
		}
		return cs, true
	}
}

// flowNode reads the entry of a flow collection at off (not a space).
func (p *yfast) flowNode(off, depth, parentCol int) (*Node, int, bool) {
	d := p.data
	at := p.pos(off)
	var (
		kind      = String
		val       any
		nonFinite bool
		raw       string
		style     = Plain
		end       int
	)
	switch c := d[off]; c {
	case '[', '{':
		return p.flow(off, depth, parentCol)
	case '"', '\'':
		s, e, ok := p.quoted(off)
		if !ok {
			return nil, 0, false
		}
		raw, val, end, style = s, s, e, SingleQuoted
		if c == '"' {
			style = DoubleQuoted
		}
	default:
		if !p.flowPlainStart(off) {
			return nil, 0, false
		}
		end = off
		for end < p.le && !isFlowStop(d[end]) {
			if d[end] == ':' || d[end] == '?' || d[end] == '#' && d[end-1] == ' ' {
				return nil, 0, false // (':', '?' and comments in flow scalars are left to yaml/v4)
			}
			end++
		}
		e := end
		for e > off && d[e-1] == ' ' {
			e--
		}
		raw = string(d[off:e])
		var err *Error
		if kind, val, nonFinite, err = p.resolvePlain(raw, at); err != nil {
			return nil, 0, false
		}
	}
	n, ok := p.scalarNode(kind, val, nonFinite, raw, style, at)
	return n, end, ok
}

// scalarNode creates the node of a scalar written raw at at, resolved to
// kind and val, as the yaml/v4 front end's convert does.
func (p *yfast) scalarNode(kind Kind, val any, nonFinite bool, raw string, style Style, at Pos) (*Node, bool) {
	if len(raw) > p.opts.Limits.ScalarBytes {
		return nil, false
	}
	if nonFinite {
		if p.rejects(NonFiniteNumbers) {
			return nil, false
		}
		kind, val = String, raw
	}
	n, err := p.newNode(kind, at)
	if err != nil {
		return nil, false
	}
	n.Style = style
	n.setScalar(val)
	return n, true
}

// isFlowStop reports the flow indicators that end a plain scalar in a flow
// collection.
func isFlowStop(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// flowKey reads the key of a flow mapping's entry at off, and its ": ".
func (p *yfast) flowKey(off int) (string, Pos, int, bool) {
	d := p.data
	at := p.pos(off)
	if c := d[off]; c == '"' || c == '\'' {
		s, end, ok := p.quoted(off)
		if !ok || end+1 >= p.le || d[end] != ':' || d[end+1] != ' ' || end-off > maxFastKey || len(s) > p.opts.Limits.ScalarBytes {
			return "", at, 0, false
		}
		return s, at, end + 2, true
	}
	if !p.flowPlainStart(off) {
		return "", at, 0, false
	}
	i := off
	for i < p.le && d[i] != ':' {
		if isFlowStop(d[i]) || d[i] == '#' || d[i] == '?' {
			return "", at, 0, false
		}
		i++
	}
	if i+1 >= p.le || d[i+1] != ' ' || d[i-1] == ' ' || i-off > maxFastKey {
		return "", at, 0, false
	}
	name, ok := p.plainKey(p.name(d[off:i]), at)
	return name, at, i + 2, ok
}

// plainKey is the member name of the plain key raw, written at at, as the
// yaml/v4 front end's key resolves it; false for a merge key, a key over
// the scalar limit, or one the options refuse.
func (p *yfast) plainKey(raw string, at Pos) (string, bool) {
	if raw == "<<" || len(raw) > p.opts.Limits.ScalarBytes {
		return "", false
	}
	kind, val, nonFinite, err := p.resolvePlain(raw, at)
	if err != nil {
		return "", false
	}
	if kind == String && !nonFinite {
		return val.(string), true
	}
	if p.rejects(NonStringKeys) {
		return "", false
	}
	return raw, true
}

// restOfLine reports whether the current line holds nothing but spaces and
// a comment from off, the end of a value.
func (p *yfast) restOfLine(off int) bool { return p.restAt(off, p.le) }

// restAt is restOfLine for the line that ends at le.
func (p *yfast) restAt(off, le int) bool {
	i := off
	for i < le && p.data[i] == ' ' {
		i++
	}
	return i == le || i > off && p.data[i] == '#'
}

// addMember places a mapping's member among the open mapping's children,
// from base on: at the earlier member's place at (memberSlot), or last;
// it returns the mapping's name index.
func (p *yfast) addMember(base, at int, child *Node, index map[string]int) map[string]int {
	if at >= 0 {
		p.kids[base+at] = child
		return index
	}
	p.kids = append(p.kids, child)
	return noteMember(p.kids[base:], index)
}

// null creates the null of an empty value or entry, at at.
func (p *yfast) null(at Pos) (*Node, bool) {
	n, err := p.newNode(Null, at)
	return n, err == nil
}

// collection creates a mapping's or sequence's node, whose parent is at
// nesting depth depth.
func (p *yfast) collection(kind Kind, at Pos, depth int) (*Node, bool) {
	n, err := p.newNode(kind, at)
	if err != nil || depth+1 > p.opts.Limits.Depth {
		return nil, false
	}
	p.depth = max(p.depth, depth+1)
	return n, true
}

// block reads the node that starts the current line, indented past its
// parent's, which is at column parentCol.
func (p *yfast) block(depth, parentCol int) (*Node, bool) {
	return p.inline(p.cs, depth, parentCol)
}

// inline reads the node at off: a sequence, a mapping or a scalar.
func (p *yfast) inline(off, depth, parentCol int) (*Node, bool) {
	if p.seqIndicator(off) {
		return p.seq(off, depth)
	}
	_, _, _, isKey, fine := p.key(off)
	switch {
	case !fine:
		return nil, false
	case isKey:
		return p.mapping(off, depth)
	}
	return p.scalar(off, depth, parentCol)
}

// seq reads the block sequence whose first "-" is at off.
func (p *yfast) seq(off, depth int) (*Node, bool) {
	col := off - p.ls
	n, ok := p.collection(Array, p.pos(off), depth)
	if !ok {
		return nil, false
	}
	base := len(p.kids)
	for {
		q := p.skipSpaces(off + 1)
		var child *Node
		if q == p.le || p.data[q] == '#' {
			empty := p.pos(off + 1) // where yaml/v4 places an empty entry: just past the '-'
			switch {
			case !p.next():
				return nil, false
			case !p.eof && p.ind() > col:
				child, ok = p.block(depth+1, col)
			default:
				child, ok = p.null(empty)
			}
		} else {
			child, ok = p.inline(q, depth+1, col)
		}
		if !ok {
			return nil, false
		}
		child.Parent = n
		p.kids = append(p.kids, child)
		if p.eof || p.ind() < col || p.ind() == col && !p.seqIndicator(p.cs) {
			break
		}
		if p.ind() > col {
			return nil, false
		}
		off = p.cs
	}
	p.finishArray(n, p.kids[base:])
	p.kids = p.kids[:base]
	return n, true
}

// mapping reads the block mapping whose first key is at off.
func (p *yfast) mapping(off, depth int) (*Node, bool) {
	col := off - p.ls
	n, ok := p.collection(Object, p.pos(off), depth)
	if !ok {
		return nil, false
	}
	base := len(p.kids)
	var index map[string]int
	for {
		key, keyPos, after, isKey, fine := p.key(off)
		if !isKey || !fine {
			return nil, false
		}
		at, err := p.memberSlot(p.kids[base:], index, key, keyPos)
		if err != nil {
			return nil, false
		}
		q := p.skipSpaces(after)
		var child *Node
		if q < p.le && p.data[q] != '#' {
			child, ok = p.scalar(q, depth+1, col)
		} else {
			empty := p.pos(after) // where yaml/v4 places an empty value: just past the ':'
			switch {
			case !p.next():
				return nil, false
			case !p.eof && p.ind() > col:
				child, ok = p.block(depth+1, col)
			case !p.eof && p.ind() == col && p.seqIndicator(p.cs):
				child, ok = p.seq(p.cs, depth+1) // a sequence at its key's column
			default:
				child, ok = p.null(empty)
			}
		}
		if !ok {
			return nil, false
		}
		child.Parent, child.key, child.KeyPos = n, p.keyRef(key), keyPos
		index = p.addMember(base, at, child, index)
		if p.eof || p.ind() < col {
			break
		}
		if p.ind() > col || p.seqIndicator(p.cs) {
			return nil, false
		}
		off = p.cs
	}
	p.finishObject(n, p.kids[base:], index)
	p.kids = p.kids[:base]
	return n, true
}

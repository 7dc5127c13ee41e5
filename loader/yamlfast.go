package loader

import (
	"bytes"
	"unicode/utf8"
)

// The block-YAML fast path reads the plainest kind of YAML document
// directly into celint's tree, without yaml.v3 and its own tree of about
// 200 bytes a node: block mappings and sequences indented with spaces, one
// line per entry, keys and values that are single-line plain, single- or
// double-quoted scalars, literal and folded block scalars, comments and a
// "---" start marker. That is what YAML encoders write and most
// hand-written descriptions are. It builds exactly the tree the yaml.v3
// front end builds (positions, styles, values, member order), and it gives
// up, leaving the input to yaml.v3, at the first thing outside that subset
// or in doubt: flow collections (but "{}" and "[]"), anchors, aliases,
// tags, directives, other document markers, multi-line flow scalars, empty
// values, explicit keys, block scalars with an indentation indicator or
// leading empty lines, tabs, carriage returns outside CRLF line breaks,
// any error and any limit crossed. So every error is still reported by the
// yaml.v3 front end, with its message and position. TestFastYAMLAgrees and
// FuzzFastYAML compare the two front ends on every document the fast path
// accepts.

// yfast is the fast path's cursor: the current content line, the first
// line at or after a given offset that is neither blank nor a comment.
type yfast struct {
	*builder
	data  []byte
	ls    int // offset of the line's first byte
	cs    int // offset of its first non-space byte
	le    int // offset of its end (its line break, or len(data))
	nl    int // offset of its '\n', or len(data)
	line  int // its 1-based number
	eof   bool
	kids  []*Node // the children of the open collections, innermost last
	cr    bool    // the input has a carriage return
	start bool    // a "---" line may start the document here
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
		nl := bytes.IndexByte(d[off:], '\n')
		if nl < 0 {
			nl = len(d)
		} else {
			nl += off
		}
		le := nl
		if p.cr {
			if le > off && le < len(d) && d[le-1] == '\r' {
				le--
			}
			if bytes.IndexByte(d[off:le], '\r') >= 0 {
				return false
			}
		}
		cs := off
		for cs < le && d[cs] == ' ' {
			cs++
		}
		if cs == off && le-off >= 3 && (string(d[off:off+3]) == "---" || string(d[off:off+3]) == "...") || cs == off && cs < le && d[cs] == '%' {
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
// in characters as yaml.v3 counts it.
func (p *yfast) pos(off int) Pos {
	col := off - p.ls
	for _, c := range p.data[p.ls:off] {
		if c >= utf8.RuneSelf {
			col = utf8.RuneCount(p.data[p.ls:off])
			break
		}
	}
	return Pos{Line: p.line, Col: col + 1}
}

// seqIndicator reports a block sequence entry's "-" at off.
func (p *yfast) seqIndicator(off int) bool {
	return p.data[off] == '-' && (off+1 == p.le || p.data[off+1] == ' ')
}

// plainStart reports whether a plain scalar may start at off.
func (p *yfast) plainStart(off int) bool {
	switch p.data[off] {
	case '-':
		return off+1 < p.le && p.data[off+1] != ' '
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
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
			return "", at, 0, false, false
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
			raw := string(d[off:i])
			if raw == "<<" || len(raw) > p.opts.Limits.ScalarBytes {
				return "", at, 0, false, false // a merge key
			}
			kind, val, nonFinite, err := p.resolvePlain(raw, at)
			if err != nil {
				return "", at, 0, false, false
			}
			if kind == String && !nonFinite {
				return val.(string), at, i + 1, true, true
			}
			if p.rejects(NonStringKeys) {
				return "", at, 0, false, false
			}
			return raw, at, i + 1, true, true
		}
	}
	return "", at, 0, false, true
}

// quoted reads the single-line quoted scalar at off: its value and the
// offset past its closing quote.
func (p *yfast) quoted(off int) (string, int, bool) {
	d := p.data
	if d[off] == '\'' {
		var sb []byte
		start := off + 1
		for i := start; i < p.le; i++ {
			if d[i] != '\'' {
				continue
			}
			if i+1 < p.le && d[i+1] == '\'' {
				sb = append(sb, d[start:i+1]...)
				start = i + 2
				i++
				continue
			}
			if sb == nil {
				return string(d[start:i]), i + 1, true
			}
			return string(append(sb, d[start:i]...)), i + 1, true
		}
		return "", 0, false
	}
	var sb []byte
	start := off + 1
	for i := start; i < p.le; i++ {
		switch d[i] {
		case '"':
			if sb == nil {
				return string(d[start:i]), i + 1, true
			}
			return string(append(sb, d[start:i]...)), i + 1, true
		case '\\':
			if i+1 >= p.le {
				return "", 0, false
			}
			sb = append(sb, d[start:i]...)
			e := d[i+1]
			i++
			switch e {
			case '0':
				sb = append(sb, 0)
			case 'a':
				sb = append(sb, '\a')
			case 'b':
				sb = append(sb, '\b')
			case 't':
				sb = append(sb, '\t')
			case 'n':
				sb = append(sb, '\n')
			case 'v':
				sb = append(sb, '\v')
			case 'f':
				sb = append(sb, '\f')
			case 'r':
				sb = append(sb, '\r')
			case 'e':
				sb = append(sb, 0x1b)
			case ' ', '"', '\\': // (yaml.v3 knows no \/)
				sb = append(sb, e)
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
	return "", 0, false
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
		if off+1 >= p.le || d[off+1] != c+2 || !p.restOfLine(off+2) { // '{'+2 is '}', '['+2 is ']'
			return nil, false
		}
		kind := Object
		if c == '[' {
			kind = Array
		}
		n, ok := p.collection(kind, at, depth)
		if !ok {
			return nil, false
		}
		n.Style = Flow
		if kind == Object {
			finishObject(n, nil, nil)
		} else {
			finishArray(n, nil)
		}
		return n, p.next()
	}
	var (
		kind      Kind
		val       any
		nonFinite bool
		style     = Plain
		raw       string
	)
	if c := d[off]; c == '"' || c == '\'' {
		s, end, ok := p.quoted(off)
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
		end := p.le
	scan:
		for i := off; i < p.le; i++ {
			switch d[i] {
			case '#':
				if d[i-1] == ' ' {
					end = i
					break scan
				}
			case ':':
				if i+1 == p.le || d[i+1] == ' ' {
					return nil, false
				}
			}
		}
		for end > off && d[end-1] == ' ' {
			end--
		}
		raw = string(d[off:end])
		var err *Error
		if kind, val, nonFinite, err = p.resolvePlain(raw, at); err != nil {
			return nil, false
		}
	}
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
	n.scalar, n.Style = val, style
	return n, p.next()
}

// blockScalar reads the literal (|) or folded (>) block scalar whose
// indicator is at off, in a collection at column parentCol, as yaml.v3
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
		nl := bytes.IndexByte(d[start:], '\n')
		if nl < 0 {
			nl = len(d)
		} else {
			nl += start
		}
		le := nl
		if p.cr {
			if le > start && le < len(d) && d[le-1] == '\r' {
				le--
			}
			if bytes.IndexByte(d[start:le], '\r') >= 0 {
				return nil, false
			}
		}
		sp := 0
		for start+sp < le && d[start+sp] == ' ' {
			sp++
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
		leadingBreak = nl < len(d)
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
	n.scalar, n.Style = string(sb), Folded
	if literal {
		n.Style = Literal
	}
	return n, p.seek(start, line)
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
		q := off + 1
		for q < p.le && p.data[q] == ' ' {
			q++
		}
		var child *Node
		if q == p.le || p.data[q] == '#' {
			if !p.next() || p.eof || p.ind() <= col {
				return nil, false // an empty entry
			}
			child, ok = p.block(depth+1, col)
		} else {
			child, ok = p.inline(q, depth+1, col)
		}
		if !ok {
			return nil, false
		}
		child.Parent, child.Index = n, len(p.kids)-base
		p.kids = append(p.kids, child)
		if p.eof || p.ind() < col || p.ind() == col && !p.seqIndicator(p.cs) {
			break
		}
		if p.ind() > col {
			return nil, false
		}
		off = p.cs
	}
	finishArray(n, p.kids[base:])
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
		q := after
		for q < p.le && p.data[q] == ' ' {
			q++
		}
		var child *Node
		switch {
		case q < p.le && p.data[q] != '#':
			child, ok = p.scalar(q, depth+1, col)
		case !p.next() || p.eof:
			return nil, false // an empty value
		case p.ind() > col:
			child, ok = p.block(depth+1, col)
		case p.ind() == col && p.seqIndicator(p.cs):
			child, ok = p.seq(p.cs, depth+1) // a sequence at its key's column
		default:
			return nil, false // an empty value
		}
		if !ok {
			return nil, false
		}
		child.Parent, child.Key, child.KeyPos = n, key, keyPos
		if at >= 0 {
			p.kids[base+at] = child
		} else {
			p.kids = append(p.kids, child)
			index = noteMember(p.kids[base:], index)
		}
		if p.eof || p.ind() < col {
			break
		}
		if p.ind() > col || p.seqIndicator(p.cs) {
			return nil, false
		}
		off = p.cs
	}
	finishObject(n, p.kids[base:], index)
	p.kids = p.kids[:base]
	return n, true
}

package loader

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON front end is a strict RFC 8259 parser. It is iterative (an
// explicit stack of open containers), so nesting depth costs no Go stack,
// and it checks the depth limit as each container opens.
//
// Choices where RFC 8259 leaves room: a \u escape of a lone UTF-16 surrogate
// is an error (it has no UTF-8 encoding). Line numbers count line breaks
// as editors do: "\r\n", a lone '\r' and '\n' (RFC 8259 allows both CR and
// LF as white space).

type jsonFrame struct {
	node  *Node
	base  int            // start of this container's children in jsonParser.kids
	index map[string]int // member name index once the object is large
}

type jsonParser struct {
	*builder
	data  []byte
	i     int
	lt    lineTracker
	kids  []*Node // children of all open containers, innermost last
	stack []jsonFrame

	key    *string // pending member name
	keyPos Pos

	// second is the second reader of a large input (jsonsplit.go), until
	// this reader reaches where it started; half, in the second reader,
	// is its own secondHalf, and maxOpen the most containers it had open.
	second  *secondHalf
	half    *secondHalf
	maxOpen int

	// rewritten is set when the tree is not the input's text read as it
	// is: a member name written with an escape, or a duplicate member that
	// replaced an earlier one. The input then cannot serve as the
	// document's JSON (see newDocument).
	rewritten bool
}

// lineTracker converts increasing byte offsets to positions in linear time.
// Lines end at "\r\n", a lone '\r' or '\n' (see lineBreakAt).
type lineTracker struct {
	data      []byte
	off       int
	line, col int
}

// newLine notes that a line starts at offset start, the parser having
// passed its line break: tokenPos then need not look for line breaks.
func (t *lineTracker) newLine(start int) {
	t.off, t.line, t.col = start, t.line+1, 1
}

// tokenPos is pos(off) for an offset whose line's break, if any, newLine
// was told: it only counts the characters since the last position.
func (t *lineTracker) tokenPos(off int) Pos {
	if off < t.off { // not reached: the parser asks in increasing order
		return posAt(t.data, off)
	}
	t.col += countChars(t.data[t.off:off])
	t.off = off
	return Pos{Line: int32(t.line), Col: int32(t.col)}
}

func (t *lineTracker) pos(off int) Pos {
	d := t.data
	line, col := t.line, t.col
	for i := t.off; i < off; i++ {
		if lineBreakAt(d, i) {
			line++
			col = 1
		} else if d[i]&0xC0 != 0x80 {
			col++
		}
	}
	t.off, t.line, t.col = off, line, col
	return Pos{Line: int32(line), Col: int32(col)}
}

// parseJSON reads data into a tree whose nodes' Offsets are byte offsets
// in data. verbatim reports whether data can serve as the
// document's JSON: every member name is written without escapes and no
// member replaced a duplicate, so gjson reads data as the tree and a
// member name appears in it as it is.
func parseJSON(b *builder, data []byte) (root *Node, verbatim bool, err *Error) {
	p := &jsonParser{builder: b, data: data, lt: lineTracker{data: data, line: 1, col: 1}}
	if b.useSplit(len(data)) {
		p.second = startSecondHalf(b, data)
	}
	root, err = p.run()
	if h := p.second; h != nil {
		// Never reached (an error came first, or the guess was not an
		// element): the second reader stops at its next element, and
		// reads data no more once Parse returns.
		h.stop.Store(true)
		<-h.done
	}
	return root, !p.rewritten, err
}

func (p *jsonParser) errAt(off int, format string, args ...any) *Error {
	return p.errorf(posAt(p.data, off), format, args...)
}

// found describes the input at offset i for an error message.
func (p *jsonParser) found(i int) string {
	if i >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[i:])
	if r < 0x20 || r == 0x7F {
		return "control character " + strconv.QuoteRune(r)
	}
	return strconv.QuoteRune(r)
}

// skipWS skips whitespace, counting its line breaks: outside whitespace,
// JSON has none (a string holds them escaped), so that the positions of
// the tokens after it are counted from the last (see lineTracker.tokenPos).
func (p *jsonParser) skipWS() {
	d, i := p.data, p.i
	for i < len(d) {
		switch d[i] {
		case ' ', '\t':
			i++
			continue
		case '\n':
			i++
			p.lt.newLine(i)
			continue
		case '\r':
			i++
			if i < len(d) && d[i] == '\n' {
				i++
			}
			p.lt.newLine(i)
			continue
		}
		break
	}
	p.i = i
}

// notClosed explains an unexpected end of input inside a container.
func (p *jsonParser) notClosed(f *jsonFrame) string {
	if p.i < len(p.data) {
		return ""
	}
	return " (the " + f.node.Kind.String() + " that starts at " + f.node.Pos.String() + " is not closed)"
}

// newValue creates the node for the value starting at p.i and attaches it to
// the innermost open container.
func (p *jsonParser) newValue(kind Kind) (*Node, *Error) {
	pos := p.lt.tokenPos(p.i)
	n, err := p.newNode(kind, pos)
	if err != nil {
		return nil, err
	}
	n.Offset = int32(p.i)
	if len(p.stack) == 0 {
		return n, nil
	}
	f := &p.stack[len(p.stack)-1]
	n.Parent = f.node
	if f.node.Kind == Array {
		p.kids = append(p.kids, n)
		return n, nil
	}
	n.key, n.KeyPos = p.key, p.keyPos
	at, err := p.memberSlot(p.kids[f.base:], f.index, *p.key, p.keyPos)
	if err != nil {
		return nil, err
	}
	if at >= 0 {
		p.kids[f.base+at] = n
		p.rewritten = true
	} else {
		p.kids = append(p.kids, n)
		f.index = noteMember(p.kids[f.base:], f.index)
	}
	return n, nil
}

// closeTop finishes the innermost container and pops it.
func (p *jsonParser) closeTop() *Node {
	f := p.stack[len(p.stack)-1]
	kids := p.kids[f.base:]
	if f.node.Kind == Array {
		p.finishArray(f.node, kids)
	} else {
		p.finishObject(f.node, kids, f.index)
	}
	clear(kids)
	p.kids = p.kids[:f.base]
	p.stack = p.stack[:len(p.stack)-1]
	return f.node
}

// readKey reads `"name" :` at p.i (after whitespace) into p.key.
func (p *jsonParser) readKey(afterComma bool) *Error {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		f := &p.stack[len(p.stack)-1]
		if afterComma && p.i < len(p.data) && p.data[p.i] == '}' {
			return p.errAt(p.i, "trailing comma before '}' is not allowed in JSON")
		}
		if p.i < len(p.data) && p.data[p.i] == '\'' {
			return p.errAt(p.i, "expected a string (object member name), found \"'\": JSON strings use double quotes")
		}
		return p.errAt(p.i, "expected a string (object member name), found %s%s", p.found(p.i), p.notClosed(f))
	}
	start := p.i
	key, err := p.readName()
	if err != nil {
		return err
	}
	p.keyPos = p.lt.tokenPos(start)
	p.key = key
	if p.i-start != len(*key)+2 {
		p.rewritten = true // written with an escape
	}
	p.skipWS()
	if p.i >= len(p.data) || p.data[p.i] != ':' {
		return p.errAt(p.i, "expected ':' after object member name, found %s%s", p.found(p.i), p.notClosed(&p.stack[len(p.stack)-1]))
	}
	p.i++
	p.skipWS()
	return nil
}

func (p *jsonParser) run() (*Node, *Error) {
	p.skipWS()
	if p.i >= len(p.data) {
		return nil, p.errAt(p.i, "expected a JSON value, found end of input (the input is empty)")
	}
	afterComma := false
	for {
		// A value starts at p.i.
		var n *Node
		if p.second != nil && p.i == p.second.at {
			// The second reader read from here: its elements, if they
			// are this array's, complete the value that starts here.
			if n = p.splice(); n != nil {
				goto complete
			}
		}
		if p.i >= len(p.data) {
			msg := "expected a JSON value, found end of input"
			if len(p.stack) > 0 {
				msg += p.notClosed(&p.stack[len(p.stack)-1])
			}
			return nil, p.errAt(p.i, "%s", msg)
		}
		switch c := p.data[p.i]; c {
		case '{', '[':
			kind := Object
			if c == '[' {
				kind = Array
			}
			node, err := p.newValue(kind)
			if err != nil {
				return nil, err
			}
			if len(p.stack) >= p.opts.Limits.Depth {
				return nil, p.depthError(node.Pos)
			}
			p.maxOpen = max(p.maxOpen, len(p.stack))
			p.stack = append(p.stack, jsonFrame{node: node, base: len(p.kids)})
			p.i++
			p.skipWS()
			closer := byte('}')
			if kind == Array {
				closer = ']'
			}
			if p.i < len(p.data) && p.data[p.i] == closer {
				p.i++
				n = p.closeTop()
				break
			}
			if kind == Object {
				if err := p.readKey(false); err != nil {
					return nil, err
				}
			}
			afterComma = false
			continue
		case '"':
			node, err := p.newValue(String)
			if err != nil {
				return nil, err
			}
			node.Style = DoubleQuoted
			s, err := p.readString()
			if err != nil {
				return nil, err
			}
			node.setString(s)
			n = node
		case 't', 'f', 'n':
			var kind Kind
			var val any
			var lit string
			switch c {
			case 't':
				kind, val, lit = Bool, true, "true"
			case 'f':
				kind, val, lit = Bool, false, "false"
			default:
				kind, val, lit = Null, nil, "null"
			}
			if !bytes.HasPrefix(p.data[p.i:], []byte(lit)) || (p.i+len(lit) < len(p.data) && isIdentByte(p.data[p.i+len(lit)])) {
				return nil, p.badLiteral()
			}
			node, err := p.newValue(kind)
			if err != nil {
				return nil, err
			}
			node.setScalar(val)
			p.i += len(lit)
			n = node
		default:
			if c == '-' || (c >= '0' && c <= '9') {
				node, err := p.newValue(Number)
				if err != nil {
					return nil, err
				}
				v, err := p.readNumber()
				if err != nil {
					return nil, err
				}
				node.setScalar(v)
				n = node
				break
			}
			return nil, p.unexpectedValue(afterComma)
		}

		// n is complete: handle what follows it, closing containers.
	complete:
		for {
			if len(p.stack) == 0 {
				p.skipWS()
				if p.i < len(p.data) {
					return nil, p.errAt(p.i, "unexpected %s after the top-level value (a JSON text holds exactly one value)", p.found(p.i))
				}
				return n, nil
			}
			p.skipWS()
			if p.half != nil && len(p.stack) == 1 {
				// The second reader stops before the ']' that closes its
				// elements' array, or when it is no longer needed.
				if p.i < len(p.data) && p.data[p.i] == ']' {
					return nil, nil
				}
				if p.half.stop.Load() {
					return nil, errNotNeeded
				}
			}
			f := &p.stack[len(p.stack)-1]
			closer, what := byte(']'), "']' after array element"
			if f.node.Kind == Object {
				closer, what = '}', "'}' after object member"
			}
			if p.i < len(p.data) && p.data[p.i] == ',' {
				p.i++
				p.skipWS()
				if f.node.Kind == Object {
					if err := p.readKey(true); err != nil {
						return nil, err
					}
				}
				afterComma = true
				break
			}
			if p.i < len(p.data) && p.data[p.i] == closer {
				p.i++
				n = p.closeTop()
				continue
			}
			return nil, p.errAt(p.i, "expected ',' or %s, found %s%s", what, p.found(p.i), p.notClosed(f))
		}
	}
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// identAt returns the identifier-like word at i, for messages.
func (p *jsonParser) identAt(i int) string {
	j := i
	for j < len(p.data) && j-i < 20 && isIdentByte(p.data[j]) {
		j++
	}
	return string(p.data[i:j])
}

func (p *jsonParser) badLiteral() *Error {
	word := p.identAt(p.i)
	return p.errAt(p.i, "invalid literal %q; expected true, false or null", word)
}

// unexpectedValue explains why no value starts at p.i.
func (p *jsonParser) unexpectedValue(afterComma bool) *Error {
	c := p.data[p.i]
	switch {
	case c == 'N' && p.identAt(p.i) == "NaN":
		return p.errAt(p.i, "NaN is not valid JSON (JSON numbers must be finite)")
	case c == 'I' && p.identAt(p.i) == "Infinity":
		return p.errAt(p.i, "Infinity is not valid JSON (JSON numbers must be finite)")
	case c == '+':
		return p.errAt(p.i, "a JSON number cannot start with '+'")
	case c == '.':
		return p.errAt(p.i, "a JSON number needs a digit before the decimal point")
	case c == '\'':
		return p.errAt(p.i, "expected a JSON value, found \"'\": JSON strings use double quotes")
	case c == '/':
		return p.errAt(p.i, "comments are not allowed in JSON")
	case afterComma && (c == ']' || c == '}'):
		return p.errAt(p.i, "trailing comma before %q is not allowed in JSON", c)
	}
	msg := "expected a JSON value, found " + p.found(p.i)
	if isIdentByte(c) {
		msg = "expected a JSON value, found " + strconv.Quote(p.identAt(p.i)) + " (strings must be quoted)"
	}
	return p.errAt(p.i, "%s", msg)
}

// readName reads the member name starting with the quote at p.i: as
// readString does, a name without escapes shared with its earlier
// occurrences (see builder.name).
func (p *jsonParser) readName() (*string, *Error) {
	d := p.data
	for i := p.i + 1; i < len(d); i++ {
		c := d[i]
		if c == '\\' || c < 0x20 || c == '"' && i-p.i-1 > p.opts.Limits.ScalarBytes {
			break // readString reads it, or says what is wrong
		}
		if c == '"' {
			s := p.nameRef(d[p.i+1 : i])
			p.i = i + 1
			return s, nil
		}
	}
	s, err := p.readString()
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// readString reads the string starting with the quote at p.i.
func (p *jsonParser) readString() (string, *Error) {
	d := p.data
	start := p.i
	i := start + 1
	for i < len(d) {
		c := d[i]
		if c == '"' {
			if i-start-1 > p.opts.Limits.ScalarBytes {
				return "", p.scalarError(p.lt.tokenPos(start), "the string", i-start-1)
			}
			p.i = i + 1
			return sourceString(d[start+1 : i]), nil
		}
		if c == '\\' {
			return p.readEscapedString(start, i)
		}
		if c < 0x20 {
			return "", p.controlChar(i)
		}
		i++
	}
	return "", p.errAt(start, "unterminated string (no closing '\"')")
}

func (p *jsonParser) controlChar(i int) *Error {
	return p.errAt(i, "control character U+%04X must be escaped in a JSON string", p.data[i])
}

// readEscapedString continues readString from the first backslash at i.
func (p *jsonParser) readEscapedString(start, i int) (string, *Error) {
	d := p.data
	buf := make([]byte, 0, i-start+16)
	buf = append(buf, d[start+1:i]...)
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			if len(buf) > p.opts.Limits.ScalarBytes {
				return "", p.scalarError(p.lt.tokenPos(start), "the string", len(buf))
			}
			p.i = i + 1
			return string(buf), nil
		case c < 0x20:
			return "", p.controlChar(i)
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		// An escape.
		if i+1 >= len(d) {
			break
		}
		e := d[i+1]
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := hex4(d, i+2)
			if !ok {
				return "", p.errAt(i, "invalid \\u escape: expected four hexadecimal digits")
			}
			width := 6
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(0), false
				if r < 0xDC00 && i+7 < len(d) && d[i+6] == '\\' && d[i+7] == 'u' {
					r2, ok2 = hex4(d, i+8)
				}
				dec := utf16.DecodeRune(r, r2)
				if !ok2 || dec == utf8.RuneError {
					return "", p.errAt(i, "invalid \\u escape: lone UTF-16 surrogate %s is not allowed", string(d[i:i+6]))
				}
				r, width = dec, 12
			}
			buf = utf8.AppendRune(buf, r)
			i += width
			continue
		default:
			return "", p.errAt(i, "invalid escape sequence %s in a JSON string", strconv.Quote(string(d[i:i+2])))
		}
		i += 2
	}
	return "", p.errAt(start, "unterminated string (no closing '\"')")
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// shortDecimal reads a JSON number written with a decimal point, no
// exponent and at most 15 digits, such as 1.5 or -0.25: its value is the
// quotient of two integers that float64 holds exactly, which the division
// rounds correctly (strconv.ParseFloat's own fast path), and the number is
// exact in exactFloat's sense (any decimal of 15 digits or fewer reads back
// as itself). False for any other number, which readFloat reads.
func shortDecimal(lex []byte) (float64, bool) {
	neg := lex[0] == '-'
	if neg {
		lex = lex[1:]
	}
	var m int64
	digits, frac := 0, -1
	for i, c := range lex {
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + int64(c-'0')
			digits++
		case c == '.' && frac < 0:
			frac = len(lex) - i - 1
		default:
			return 0, false
		}
	}
	if frac < 0 || digits > 15 {
		return 0, false
	}
	f := float64(m) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// readNumber reads the number at p.i: int64 when written without fraction
// or exponent (an error if it does not fit), else float64 made int64 when
// integral and exactly representable; a literal that float64 cannot hold
// exactly (see exactFloat) is an error.
func (p *jsonParser) readNumber() (any, *Error) {
	d := p.data
	start := p.i
	i := start
	if d[i] == '-' {
		i++
		if i < len(d) && d[i] == 'I' && p.identAt(i) == "Infinity" {
			return nil, p.errAt(start, "-Infinity is not valid JSON (JSON numbers must be finite)")
		}
	}
	switch {
	case i >= len(d) || !isDigit(d[i]):
		return nil, p.errAt(i, "expected a digit after '-', found %s", p.found(i))
	case d[i] == '0':
		i++
		if i < len(d) && isDigit(d[i]) {
			return nil, p.errAt(start, "leading zeros are not allowed in JSON numbers")
		}
	default:
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	isInt := true
	if i < len(d) && d[i] == '.' {
		isInt = false
		i++
		if i >= len(d) || !isDigit(d[i]) {
			return nil, p.errAt(i, "expected a digit after the decimal point, found %s", p.found(i))
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		isInt = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return nil, p.errAt(i, "expected a digit in the exponent, found %s", p.found(i))
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	lex := d[start:i]
	if len(lex) > p.opts.Limits.ScalarBytes {
		return nil, p.scalarError(p.lt.tokenPos(start), "the number", len(lex))
	}
	p.i = i
	if isInt {
		digits := lex
		if digits[0] == '-' {
			digits = digits[1:]
		}
		if len(digits) <= 18 {
			var v int64
			for _, c := range digits {
				v = v*10 + int64(c-'0')
			}
			if lex[0] == '-' {
				v = -v
			}
			return v, nil
		}
		v, err := strconv.ParseInt(string(lex), 10, 64)
		if err != nil {
			return nil, p.errAt(start, "integer %s is outside the 64-bit range", shorten(string(lex)))
		}
		return v, nil
	}
	if f, ok := shortDecimal(lex); ok {
		return normFloat(f), nil
	}
	// The position is counted only for an error: counting it from the
	// start of the data for every literal would make reading quadratic.
	if f, ok := readFloat(string(lex)); ok && exactFloat(string(lex), f) {
		return normFloat(f), nil
	}
	return p.floatLiteral(posAt(p.data, start), string(lex))
}

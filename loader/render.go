package loader

import (
	"strconv"
	"unicode/utf8"
)

// A document's JSON rendering (for YAML, and JSON that does not read back
// as its tree verbatim) is laid out when the document is read and written
// when it is first needed (Document.JSON): layout gives every node its
// Offset in it, and render writes the bytes those offsets index. The two
// walk the tree in the same order and count the same bytes.

// layout gives every node under root its Offset in root's compact
// normalised JSON, and returns that JSON's length and the number of nodes.
// ok is false when the JSON would be longer than limit bytes (at most
// MaxJSONBytes, which a node's 32-bit offsets can index). It is iterative
// and linear in the number of nodes and the length of their strings.
func layout(root *Node, limit int) (size, count int, ok bool) {
	type frame struct {
		n *Node
		i int
	}
	var stack []frame
	off := 0
	visit := func(n *Node) {
		n.Offset = int32(off) // off <= limit: checked before every visit
		count++
		switch n.Kind {
		case Object, Array:
			off++
			stack = append(stack, frame{n: n})
		case Null:
			off += len("null")
		case Bool:
			if n.Value().(bool) {
				off += len("true")
			} else {
				off += len("false")
			}
		case Number:
			off += numberLen(n.Value())
		case String:
			off += jsonStringLen(n.Value().(string))
		}
	}
	visit(root)
	for len(stack) > 0 {
		if off > limit {
			return 0, 0, false
		}
		top := &stack[len(stack)-1]
		n := top.n
		if top.i == n.Len() {
			off++ // '}' or ']'
			stack = stack[:len(stack)-1]
			continue
		}
		c := n.Children()[top.i]
		if top.i > 0 {
			off++ // ','
		}
		top.i++
		if n.Kind == Object {
			off += jsonStringLen(c.Key()) + 1 // the name and ':'
		}
		if off > limit {
			return 0, 0, false
		}
		visit(c)
	}
	if off > limit {
		return 0, 0, false
	}
	return off, count, true
}

// numberLen is the length of a number node's value as render writes it.
func numberLen(v any) int {
	var scratch [32]byte
	switch v := v.(type) {
	case int64:
		return len(strconv.AppendInt(scratch[:0], v, 10))
	case float64:
		return len(strconv.AppendFloat(scratch[:0], v, 'g', -1, 64))
	}
	return 0
}

// render writes the compact normalised JSON of root, size bytes long, as
// layout laid it out (keys in the tree's order, no space). It reads the
// tree only, so that it may run while the tree is read elsewhere.
func render(root *Node, size int) []byte {
	buf := make([]byte, 0, size)
	type frame struct {
		n *Node
		i int
	}
	var stack []frame
	visit := func(n *Node) {
		switch n.Kind {
		case Object:
			buf = append(buf, '{')
			stack = append(stack, frame{n: n})
		case Array:
			buf = append(buf, '[')
			stack = append(stack, frame{n: n})
		case Null:
			buf = append(buf, "null"...)
		case Bool:
			buf = strconv.AppendBool(buf, n.Value().(bool))
		case Number:
			switch v := n.Value().(type) {
			case int64:
				buf = strconv.AppendInt(buf, v, 10)
			case float64:
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			}
		case String:
			buf = AppendJSONString(buf, n.Value().(string))
		}
	}
	visit(root)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		n := top.n
		if top.i == n.Len() {
			if n.Kind == Object {
				buf = append(buf, '}')
			} else {
				buf = append(buf, ']')
			}
			stack = stack[:len(stack)-1]
			continue
		}
		c := n.Children()[top.i]
		if top.i > 0 {
			buf = append(buf, ',')
		}
		top.i++
		if n.Kind == Object {
			buf = AppendJSONString(buf, c.Key())
			buf = append(buf, ':')
		}
		visit(c)
	}
	return buf
}

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as a JSON string that encoding/json and gjson
// read back as s, as Document.JSON writes a member name: a member named s
// appears in any Document.JSON as these bytes, whether the JSON is the
// input itself (used only when no member name in it is written with an
// escape) or a rendering. Only '"', '\\' and control characters are
// escaped; bytes that are not UTF-8 (which the loader never produces)
// become \ufffd.
func AppendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i++
			start = i
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// jsonStringLen is len(AppendJSONString(nil, s)), counted without writing.
func jsonStringLen(s string) int {
	n := 2 // the quotes
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				n += size
				i += size
				continue
			}
			n += len(`\ufffd`)
			i++
			continue
		}
		switch c {
		case '"', '\\', '\n', '\r', '\t', '\b', '\f':
			n += 2
		default:
			n += len(`\u0000`)
		}
		i++
	}
	return n
}

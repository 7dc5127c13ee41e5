package loader

import (
	"strconv"
	"unicode/utf8"
)

// render writes the compact normalised JSON of root, setting every node's
// Offset, and returns the number of nodes it wrote. It is
// iterative and linear in the output size. It returns nil when the JSON
// would be longer than limit bytes (at most MaxJSONBytes, which a node's
// 32-bit offsets can index).
func render(root *Node, sizeHint, limit int) ([]byte, int) {
	buf := make([]byte, 0, min(sizeHint, limit)+64)
	count := 0
	type frame struct {
		n *Node
		i int
	}
	var stack []frame
	over := false
	// at is the current offset, or false once the JSON is too long.
	at := func() (int32, bool) {
		if len(buf) > limit {
			over = true
			return 0, false
		}
		return int32(len(buf)), true
	}
	visit := func(n *Node) {
		off, ok := at()
		if !ok {
			return
		}
		n.Offset = off
		count++
		switch n.Kind {
		case Object:
			buf = append(buf, '{')
			stack = append(stack, frame{n: n})
			return
		case Array:
			buf = append(buf, '[')
			stack = append(stack, frame{n: n})
			return
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
		at() // the limit, past the value
	}
	visit(root)
	for len(stack) > 0 && !over {
		top := &stack[len(stack)-1]
		n := top.n
		if top.i == n.Len() {
			if n.Kind == Object {
				buf = append(buf, '}')
			} else {
				buf = append(buf, ']')
			}
			at() // the limit, past the collection
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
	if over {
		return nil, 0
	}
	return buf, count
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

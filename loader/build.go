package loader

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// builder holds what the JSON and YAML front ends share: options, the value
// count, node allocation and member bookkeeping.
type builder struct {
	file   string
	opts   Options // limits already defaulted
	values int
	slab   []Node
}

// newNode allocates a node, counting it against the values limit.
func (b *builder) newNode(kind Kind, pos Pos) (*Node, *Error) {
	b.values++
	if b.values > b.opts.Limits.Values {
		return nil, limitError(b.file, pos, "values",
			fmt.Sprintf("the document has more than %d values", b.opts.Limits.Values))
	}
	if len(b.slab) == 0 {
		size := 64
		if b.values > 4096 {
			size = 1024
		}
		b.slab = make([]Node, size)
	}
	n := &b.slab[0]
	b.slab = b.slab[1:]
	n.Kind = kind
	n.Pos = pos
	n.Index = -1
	return n, nil
}

func (b *builder) errorf(pos Pos, format string, args ...any) *Error {
	return &Error{File: b.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (b *builder) rejects(f Feature) bool { return b.opts.Reject&f != 0 }

func (b *builder) depthError(pos Pos) *Error {
	return limitError(b.file, pos, "depth",
		fmt.Sprintf("nesting depth exceeds the limit of %d", b.opts.Limits.Depth))
}

func (b *builder) scalarError(pos Pos, what string, n int) *Error {
	return limitError(b.file, pos, "scalarBytes",
		fmt.Sprintf("%s is %d bytes, more than the limit of %d bytes", what, n, b.opts.Limits.ScalarBytes))
}

// memberSlot decides where a new member named key goes among kids, the
// members of one object collected so far (index is their name index, nil
// while the object is small). It returns the position of an earlier member
// with the same name, which the new one replaces, or -1 to append. When
// duplicate keys are rejected a duplicate is an error.
func (b *builder) memberSlot(kids []*Node, index map[string]int, key string, keyPos Pos) (int, *Error) {
	at := -1
	if index != nil {
		if i, ok := index[key]; ok {
			at = i
		}
	} else {
		for i, k := range kids {
			if k.Key == key {
				at = i
				break
			}
		}
	}
	if at >= 0 && b.rejects(DuplicateKeys) {
		return 0, b.errorf(keyPos, "duplicate key %s (first defined at %s)", quoteShort(key), kids[at].KeyPos)
	}
	return at, nil
}

// noteMember records that kids[len(kids)-1] was appended, building the name
// index once the object outgrows smallObject; it returns the index.
func noteMember(kids []*Node, index map[string]int) map[string]int {
	if index != nil {
		index[kids[len(kids)-1].Key] = len(kids) - 1
		return index
	}
	if len(kids) > smallObject {
		index = make(map[string]int, 2*len(kids))
		for i, k := range kids {
			index[k.Key] = i
		}
	}
	return index
}

// finishArray gives an array its children and value.
func finishArray(n *Node, kids []*Node) {
	n.Children = append([]*Node(nil), kids...)
	vals := make([]any, len(kids))
	for i, k := range kids {
		vals[i] = k.Value
	}
	n.Value = vals
}

// finishObject gives an object its members, name index and value.
func finishObject(n *Node, kids []*Node, index map[string]int) {
	n.Children = append([]*Node(nil), kids...)
	n.index = index
	m := make(map[string]any, len(kids))
	for _, k := range kids {
		m[k.Key] = k.Value
	}
	n.Value = m
}

// normFloat turns an integral float64 of magnitude at most 2^53 into int64.
func normFloat(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return int64(f)
	}
	return f
}

// quoteShort quotes s for a message, shortening long strings.
func quoteShort(s string) string {
	const max = 60
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}

// shorten cuts a long literal for a message.
func shorten(s string) string {
	const max = 40
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// posAt computes the position of byte offset off in data from scratch.
func posAt(data []byte, off int) Pos {
	t := lineTracker{data: data, line: 1, col: 1}
	return t.pos(min(off, len(data)))
}

// checkEncoding rejects byte order marks, UTF-16/32 and invalid UTF-8.
func checkEncoding(file string, data []byte) *Error {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return &Error{File: file, Pos: Pos{1, 1}, Msg: "a UTF-8 byte order mark is not allowed; save the file as UTF-8 without BOM"}
	case bytes.HasPrefix(data, []byte{0x00, 0x00, 0xFE, 0xFF}), bytes.HasPrefix(data, []byte{0xFF, 0xFE, 0x00, 0x00}):
		return &Error{File: file, Pos: Pos{1, 1}, Msg: "input looks like UTF-32; celint reads UTF-8 only"}
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}), bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return &Error{File: file, Pos: Pos{1, 1}, Msg: "input looks like UTF-16; celint reads UTF-8 only"}
	}
	head := data
	if len(head) > 4 {
		head = head[:4]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		enc := "UTF-16"
		if len(head) == 4 && (head[0] == 0 && head[1] == 0 && head[2] == 0 || head[1] == 0 && head[2] == 0 && head[3] == 0) {
			enc = "UTF-32"
		}
		return &Error{File: file, Pos: Pos{1, 1}, Msg: "input looks like " + enc + "; celint reads UTF-8 only"}
	}
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		if data[off] < utf8.RuneSelf {
			off++
			continue
		}
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	return &Error{File: file, Pos: posAt(data, off),
		Msg: fmt.Sprintf("invalid UTF-8 byte 0x%02X; celint reads UTF-8 only", data[off])}
}

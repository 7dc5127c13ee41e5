package loader

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// builder holds what the JSON and YAML front ends share: options, the value
// count, node allocation and member bookkeeping.
type builder struct {
	file    string
	opts    Options // limits already defaulted
	values  int
	depth   int // the deepest nesting checked against the limit (YAML only)
	slab    []Node
	lists   []*Node             // where children lists are cut from (see children)
	names   *[nameSlots]*string // member names read last, one per slot (see name)
	keySlab []string            // where names' addresses are cut from (see newKey)
	// splitMin, when not 0, replaces splitMin (jsonsplit.go), for tests.
	splitMin int
	splices  int // the second reader's elements taken (for tests)
}

// Member names are few and repeat: a description's thousands of objects
// share a few dozen names. name keeps the last name read in each slot of
// a small table, chosen by the name's length and end bytes, so that a
// name met again is not allocated again; a name longer than maxNameLen is
// always allocated.
const (
	maxNameLen = 64
	nameSlots  = 512 // a power of two
)

// name returns the member name raw, shared with its earlier occurrence
// when that is still in its slot.
func (b *builder) name(raw []byte) string { return *b.nameRef(raw) }

// nameRef is name's address, which the members of one name share while
// it stays in its slot.
func (b *builder) nameRef(raw []byte) *string {
	// The slot is found with a view of raw, which is copied only when it
	// is a new name.
	slot := b.slot(unsafe.String(unsafe.SliceData(raw), len(raw)))
	if slot != nil && *slot != nil && **slot == string(raw) {
		return *slot
	}
	p := b.newKey(string(raw))
	if slot != nil {
		*slot = p
	}
	return p
}

// keyRef is nameRef for a name already read into a string.
func (b *builder) keyRef(name string) *string {
	slot := b.slot(name)
	if slot != nil && *slot != nil && **slot == name {
		return *slot
	}
	p := b.newKey(name)
	if slot != nil {
		*slot = p
	}
	return p
}

// slot is the place of name in the table of names read last; nil for a
// name the table does not keep (empty, or longer than maxNameLen).
func (b *builder) slot(name string) **string {
	if len(name) == 0 || len(name) > maxNameLen {
		return nil
	}
	if b.names == nil {
		b.names = new([nameSlots]*string)
	}
	h := uint32(2166136261) // FNV-1a: names of a few bytes differ anywhere
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	return &b.names[h&(nameSlots-1)]
}

// newKey returns a new address holding name, cut from a block as nodes
// are: names read once each (a description's many property names) would
// otherwise be small objects strewn among the reading's garbage, each
// keeping a page of it from reuse.
func (b *builder) newKey(name string) *string {
	if len(b.keySlab) == 0 {
		size := 16 // small documents get small blocks, as newNode's
		if b.values > 4096 {
			size = 256
		}
		b.keySlab = make([]string, size)
	}
	p := &b.keySlab[0]
	b.keySlab = b.keySlab[1:]
	*p = name
	return p
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
			if k.Key() == key {
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
		index[kids[len(kids)-1].Key()] = len(kids) - 1
		return index
	}
	if len(kids) > smallObject {
		index = make(map[string]int, 2*len(kids))
		for i, k := range kids {
			index[k.Key()] = i
		}
	}
	return index
}

// kidsSlab is the size of the blocks children lists are cut from, and
// kidsOwn the length from which a list is allocated on its own.
const (
	kidsSlab = 4096
	kidsOwn  = 256
)

// children returns a copy of kids cut from a shared block: a document has
// one list per collection, mostly short, and one allocation for each was
// a fifth of reading's. Nil when kids is empty.
func (b *builder) children(kids []*Node) []*Node {
	n := len(kids)
	switch {
	case n == 0:
		return nil
	case n >= kidsOwn:
		return append([]*Node(nil), kids...)
	}
	if len(b.lists) < n {
		// Small documents get small blocks, as newNode's.
		size := kidsSlab
		if b.values <= 4096 {
			size = kidsOwn
		}
		b.lists = make([]*Node, size)
	}
	c := b.lists[:n:n]
	b.lists = b.lists[n:]
	copy(c, kids)
	return c
}

// finishArray gives an array its children.
func finishArray(n *Node, kids []*Node) {
	n.setKids(append([]*Node(nil), kids...), nil)
}

// finishArray is finishArray, with the children's list cut from b's
// blocks.
func (b *builder) finishArray(n *Node, kids []*Node) {
	n.setKids(b.children(kids), nil)
}

// finishObject gives an object its members and name index.
func finishObject(n *Node, kids []*Node, index map[string]int) {
	setMembers(n, append([]*Node(nil), kids...), index)
}

// finishObject is finishObject, with the members' list cut from b's
// blocks.
func (b *builder) finishObject(n *Node, kids []*Node, index map[string]int) {
	setMembers(n, b.children(kids), index)
}

// setMembers gives an object its members (a list of its own) and name
// index.
func setMembers(n *Node, kids []*Node, index map[string]int) {
	n.setKids(kids, index)
	if index != nil {
		return
	}
	for _, k := range kids {
		n.names |= nameBit(k.Key())
	}
}

// normFloat turns an integral float64 of magnitude at most 2^53 into int64.
func normFloat(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return int64(f)
	}
	return f
}

// floatLiteral reads lit, a decimal number literal (JSON or YAML number
// syntax) written at pos, as a number's value: int64 when integral and of
// magnitude at most 2^53, float64 otherwise. A literal beyond float64's
// range, or that float64 cannot hold exactly (see exactFloat), is an error.
func (b *builder) floatLiteral(pos Pos, lit string) (any, *Error) {
	f, ok := readFloat(lit)
	if !ok {
		return nil, b.errorf(pos, "number %s is outside the range of a 64-bit float", shorten(lit))
	}
	if !exactFloat(lit, f) {
		return nil, b.inexactError(pos, lit, f)
	}
	return normFloat(f), nil
}

// floatDigits is how many significant digits of a longer literal readFloat
// keeps. A midpoint between two adjacent float64s has at most 767
// significant digits, so a literal rounds like its first floatDigits digits
// followed by a 1 when any digit after them is not zero.
const floatDigits = 800

// readFloat returns the float64 nearest to the decimal literal lit (JSON or
// YAML number syntax), ties to even, however many digits lit has; false
// when lit is beyond float64's range (f is then an infinity). A literal too
// small for the smallest float64 reads as zero. The work is linear in
// len(lit): at most floatDigits digits and an exponent within float64's
// range reach math/big.
func readFloat(lit string) (float64, bool) {
	neg := strings.HasPrefix(lit, "-")
	signed := func(f float64) float64 {
		if neg {
			return math.Copysign(f, -1)
		}
		return f
	}
	digits, exp := decimalDigits(lit)
	if digits == "" {
		return signed(0), true
	}
	// The value's magnitude m is such that 10^(top-1) <= m < 10^top.
	switch top := exp + len(digits); {
	case top > 310: // m >= 10^310 > math.MaxFloat64
		return signed(math.Inf(1)), false
	case top < -330: // m < 10^-330, less than half the smallest float64 (4.9e-324)
		return signed(0), true
	}
	if len(digits) <= 19 {
		// strconv.ParseFloat reads few digits right; given more than 800
		// before the decimal point, it loses the point's place.
		f, err := strconv.ParseFloat(digits+"e"+strconv.Itoa(exp), 64)
		return signed(f), err == nil || !math.IsInf(f, 0)
	}
	if len(digits) > floatDigits {
		// digits ends with a non-zero digit (decimalDigits trims zeros),
		// so the dropped digits are not all zero.
		exp += len(digits) - floatDigits - 1
		digits = digits[:floatDigits] + "1"
	}
	num, _ := new(big.Int).SetString(digits, 10)
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(exp, -exp))), nil)
	var r big.Rat
	if exp >= 0 {
		r.SetInt(num.Mul(num, scale))
	} else {
		r.SetFrac(num, scale)
	}
	f, _ := r.Float64()
	return signed(f), !math.IsInf(f, 0)
}

// exactFloat reports whether f, the float64 nearest to the decimal literal
// lit (JSON or YAML number syntax), has exactly lit's value: whether the
// shortest decimal that reads back as f is lit, up to leading and trailing
// zeros and the place of the decimal point. 0.1 is exact in this sense,
// 1e-400 (read as 0) and 9007199254740993.0 (read as 9007199254740992) are
// not.
func exactFloat(lit string, f float64) bool {
	d1, e1 := decimalDigits(lit)
	d2, e2 := decimalDigits(strconv.FormatFloat(f, 'e', -1, 64))
	return d1 == d2 && (d1 == "" || e1 == e2)
}

// decimalDigits returns the significant digits of a decimal literal
// ([-+]?digits[.digits][eE[-+]?digits], either part of the mantissa may be
// empty) without leading or trailing zeros, and the exponent of its last
// digit; "" for zero. A literal whose exponent does not fit an int
// saturates, which still compares unequal to any float64's.
func decimalDigits(s string) (string, int) {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e := s[i+1:]
		neg := strings.HasPrefix(e, "-")
		e = strings.TrimLeft(e, "+-")
		for _, c := range []byte(e) {
			if exp < 1<<26 { // saturates far past any float64 exponent, and fits a 32-bit int
				exp = exp*10 + int(c-'0')
			}
		}
		if neg {
			exp = -exp
		}
	}
	mant = strings.TrimLeft(mant, "+-")
	frac := 0
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		frac = len(mant) - i - 1
		mant = mant[:i] + mant[i+1:]
	}
	mant = strings.TrimLeft(mant, "0")
	trimmed := strings.TrimRight(mant, "0")
	return trimmed, exp - frac + len(mant) - len(trimmed)
}

// inexactError explains a number literal that a float64 cannot hold.
func (b *builder) inexactError(pos Pos, lit string, f float64) *Error {
	would := strconv.FormatFloat(f, 'g', -1, 64)
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		would = strconv.FormatFloat(f, 'f', -1, 64)
	}
	return b.errorf(pos, "number %s cannot be held exactly by a 64-bit float (it would become %s); write it with fewer digits, or quote it for a string",
		shorten(lit), would)
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

// utf8BOM is the UTF-8 byte order mark, which a document may start with.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// checkEncoding rejects a second UTF-8 byte order mark (the first is
// stripped before), UTF-16/32 and invalid UTF-8.
func checkEncoding(file string, data []byte) *Error {
	switch {
	case bytes.HasPrefix(data, utf8BOM):
		return &Error{File: file, Pos: Pos{1, 1}, Msg: "a second UTF-8 byte order mark is not allowed"}
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

// sourceString is the text of b, a part of the input, without a copy: the
// document keeps its input, which nobody writes (see Parse).
func sourceString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

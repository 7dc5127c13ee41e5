package loader

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/celint/celint/internal/jsonpointer"
)

// Kind is the JSON type of a node.
type Kind uint8

// The node kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// String returns the JSON Schema name of the kind: "null", "boolean",
// "number", "string", "array" or "object".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Pos is a 1-based line and column; columns count Unicode code points.
type Pos struct{ Line, Col int32 }

// String returns "line:col".
func (p Pos) String() string { return strconv.Itoa(int(p.Line)) + ":" + strconv.Itoa(int(p.Col)) }

// IsZero reports whether p is the zero (unknown) position.
func (p Pos) IsZero() bool { return p.Line == 0 && p.Col == 0 }

// Node is one value of a document.
//
// When duplicate keys are allowed, the last occurrence of a key wins, as in
// encoding/json and JavaScript's JSON.parse: its node takes the place of the
// first occurrence in Children (so member order is the order in which keys
// first appear) and the earlier node is dropped from the tree.
//
// Its integers are 32 bits wide, its member name is a shared string's
// address, and its value and children share two words (see value.go), so
// that a node takes 64 bytes: a document holds one per value, and they are
// most of its memory. No document the loader accepts has 2^31 bytes (see
// MaxBytes).
type Node struct {
	Kind   Kind
	Style  Style  // how a YAML scalar or collection is written; Plain for JSON
	names  uint16 // a small object's member names, one bit each (see nameBit); 0 when unknown
	Offset int32  // byte offset of the value's first byte in Document.JSON (see Document.JSONEnd)
	Pos    Pos    // where the value starts in the source
	KeyPos Pos    // where the member name starts, for object members; zero otherwise
	Parent *Node  // nil for the root

	// key is the member name, when Parent is an object (see Key); the
	// names of one document share their strings' headers.
	key *string

	// ptr and word hold the value, by Kind (see value.go): a string's
	// bytes and length, laid out as a string header; a number's boxed
	// int64 or float64 and which of the two it is; a boolean in word; a
	// collection's children, as the first of word pointers or, for an
	// object with a name index, as a *bigObject.
	ptr  unsafe.Pointer
	word int
}

// Style is how a value is written in YAML source.
type Style uint8

// The styles. JSON values are Plain, except strings, which are DoubleQuoted.
const (
	Plain        Style = iota // unquoted scalar, or a block collection
	SingleQuoted              // 'text'
	DoubleQuoted              // "text"
	Literal                   // | block scalar
	Folded                    // > block scalar
	Flow                      // [a, b] or {a: b}
)

// smallObject is the largest object whose members are found by linear scan.
const smallObject = 8

// Index returns n's position among its parent's elements when the parent
// is an array; -1 otherwise. Elements start at increasing offsets in
// Document.JSON, so it is found by binary search (by a scan when the
// offsets are not yet set, while a document is read).
func (n *Node) Index() int {
	p := n.Parent
	if p == nil || p.Kind != Array {
		return -1
	}
	kids := p.list() // an array has no name index: its children are a list
	i := sort.Search(len(kids), func(i int) bool { return kids[i].Offset >= n.Offset })
	if i < len(kids) && kids[i] == n {
		return i
	}
	for i, c := range kids {
		if c == n {
			return i
		}
	}
	return -1
}

// Pointer returns the RFC 6901 JSON Pointer of n from the root ("" for the
// root), with "~" and "/" in member names escaped as "~0" and "~1".
func (n *Node) Pointer() string {
	var small [16]string // most pointers are short: no list to allocate
	toks := small[:0]
	for c := n; c.Parent != nil; c = c.Parent {
		if c.Parent.Kind == Array {
			toks = append(toks, strconv.Itoa(c.Index()))
		} else {
			toks = append(toks, c.Key())
		}
	}
	slices.Reverse(toks)
	return jsonpointer.Join(toks...)
}

// EscapeToken escapes a member name as a JSON Pointer reference token
// (RFC 6901: "~" as "~0", "/" as "~1"); see jsonpointer.Escape.
func EscapeToken(s string) string { return jsonpointer.Escape(s) }

// Child returns the member or element that one escaped JSON Pointer
// reference token names, or nil.
func (n *Node) Child(token string) *Node {
	tok, ok := jsonpointer.Unescape(token)
	if !ok {
		return nil
	}
	switch n.Kind {
	case Object:
		return n.Member(tok)
	case Array:
		if i, ok := jsonpointer.ArrayIndex(tok); ok {
			return n.Elem(i)
		}
	}
	return nil
}

// Member returns the member named name, or nil when it is absent or n is not
// an object.
func (n *Node) Member(name string) *Node {
	m, _ := n.MemberAt(name, -1)
	return m
}

// MemberAt is Member given a hint: the position at which the caller found
// name in the last object it read, where objects of one shape have it too
// (any other number, such as -1, is no hint). It returns the member and
// its position in Children (-1 when there is none).
func (n *Node) MemberAt(name string, hint int) (*Node, int) {
	if n == nil || n.Kind != Object {
		return nil, -1
	}
	// Most lookups that miss are answered by the names' bits, without
	// reading a member node: siblings are far apart in memory (each is
	// followed by its own subtree), so every member read is a cache miss.
	if n.names != 0 && n.names&nameBit(name) == 0 {
		return nil, -1
	}
	if n.word < 0 {
		big := (*bigObject)(n.ptr)
		if uint(hint) < uint(len(big.kids)) {
			if c := big.kids[hint]; c.Key() == name {
				return c, hint // names are unique within Children
			}
		}
		if i, ok := big.index[name]; ok {
			return big.kids[i], i
		}
		return nil, -1
	}
	kids := n.list()
	if uint(hint) < uint(len(kids)) {
		if c := kids[hint]; c.Key() == name {
			return c, hint
		}
	}
	for i, c := range kids {
		if c.Key() == name {
			return c, i
		}
	}
	return nil, -1
}

// MemberHinted is MemberAt with a second hint: key, the address of a
// member name of the document (see KeyRef) equal to name, such as that of
// the member found last. A member at hint whose name has that address is
// name, without comparing the two.
func (n *Node) MemberHinted(name string, hint int, key *string) (*Node, int) {
	if n != nil && n.Kind == Object && n.word >= 0 && key != nil {
		if kids := n.list(); uint(hint) < uint(len(kids)) && kids[hint].key == key {
			return kids[hint], hint
		}
	}
	return n.MemberAt(name, hint)
}

// nameBit is a member name's bit in an object's names: a hash of its
// length and three of its bytes, cheap enough to compute at each lookup.
func nameBit(name string) uint16 {
	h := uint(len(name))
	if len(name) > 0 {
		h += uint(name[0])*5 + uint(name[len(name)/2])*3 + uint(name[len(name)-1])
	}
	return 1 << (h & 15)
}

// Elem returns the i-th element, or nil when i is out of range or n is not
// an array.
func (n *Node) Elem(i int) *Node {
	if n == nil || n.Kind != Array || uint(i) >= uint(n.word) {
		return nil // (an array has no name index: word is its length)
	}
	return n.list()[i]
}

// Document is a parsed document.
type Document struct {
	Name   string // file name as given
	Format string // "json" or "yaml"
	Root   *Node
	Values int    // number of values (nodes) in the document
	Source []byte // the input as read, for code frames, without a leading byte order mark
	// BOM reports that the input started with a UTF-8 byte order mark,
	// which Source leaves out; a tool that writes the document back
	// writes it first again.
	BOM bool

	json     []byte    // see JSON
	rendered bool      // json is Root's rendering (newDocument, Extract), in which nodes come in document order
	jsonSize int       // the rendering's length, as layout laid it out
	jsonOnce sync.Once // writes the rendering on first use
	counted  int       // values counted against the limit (replaced duplicates included)
	depth    int       // YAML: the deepest nesting checked against the limit

	spanOnce sync.Once  // builds spans on first use
	spans    *spanCache // source offsets for end positions; see span.go
}

// Lookup returns the node at the RFC 6901 pointer; false when the pointer is
// malformed or names no node.
func (d *Document) Lookup(pointer string) (*Node, bool) {
	n, complete := d.walk(pointer)
	if !complete {
		return nil, false
	}
	return n, true
}

// Nearest returns the deepest existing node along the pointer: the node
// itself when it exists, the root at worst.
func (d *Document) Nearest(pointer string) *Node {
	n, _ := d.walk(pointer)
	return n
}

// walk follows pointer as far as it goes; complete reports whether it
// reached the end.
func (d *Document) walk(pointer string) (n *Node, complete bool) {
	n = d.Root
	if n == nil {
		return nil, false
	}
	if pointer == "" {
		return n, true
	}
	if pointer[0] != '/' {
		return n, false
	}
	rest := pointer[1:]
	for {
		tok := rest
		next := strings.IndexByte(rest, '/')
		if next >= 0 {
			tok = rest[:next]
		}
		c := n.Child(tok)
		if c == nil {
			return n, false
		}
		n = c
		if next < 0 {
			return n, true
		}
		rest = rest[next+1:]
	}
}

// JSON returns the JSON text of d's tree, which the nodes' Offsets index.
// For a JSON input that reads back as the tree as it is (no member name
// written with an escape, no duplicate member replaced) it is the input
// itself; otherwise it is the compact normalised rendering of the tree,
// object members in source order, written on the first call (most lints
// never need it) and kept. It is safe for concurrent use, and must not be
// modified.
func (d *Document) JSON() []byte {
	if d.rendered {
		d.jsonOnce.Do(func() { d.json = render(d.Root, d.jsonSize) })
	}
	return d.json
}

// MayHaveMember reports whether an object of d may have a member named
// name: false only when none has. A rendered document's tree is searched;
// a JSON input that is its own JSON, whose member names are all written
// without escapes, is searched for the name as a JSON string.
func (d *Document) MayHaveMember(name string) bool {
	if !d.rendered {
		return bytes.Contains(d.json, AppendJSONString(nil, name))
	}
	found := false
	preorder(d.Root, func(n *Node) bool {
		if n.Kind == Object && n.Member(name) != nil {
			found = true
		}
		return !found
	})
	return found
}

// JSONEnd returns the byte offset just past n's value in d.JSON: the value's
// JSON text is d.JSON[n.Offset:d.JSONEnd(n)]. It follows the last children
// down to a scalar or an empty collection, reads past that, then past each
// closing bracket on the way back: the time it takes grows with the depth,
// not with the size of the value. n must be a node of d.
func (d *Document) JSONEnd(n *Node) int {
	data := d.JSON()
	closers := 0
	for n.Kind >= Array && n.Len() > 0 {
		n = n.Children()[n.Len()-1]
		closers++
	}
	var e int
	if n.Kind >= Array { // empty: '[' or '{', space, the closing one
		e = skipJSONSpace(data, int(n.Offset)+1) + 1
	} else {
		e = skipJSONValue(data, int(n.Offset))
	}
	for ; closers > 0 && e >= 0; closers-- {
		e = skipJSONSpace(data, e) + 1
	}
	if e < int(n.Offset) || e > len(data) { // not n's JSON: cannot be for a node of d
		return len(data)
	}
	return e
}

// NodeAt returns the node whose value starts at byte offset in d.JSON, or
// nil if none does. Every node starts at a distinct offset, so the answer is
// unique; gjson's Result.Index is such an offset.
// It descends from the root, choosing among each node's children, which
// are in offset order, by binary search.
func (d *Document) NodeAt(offset int) *Node {
	// A node's subtree spans from its offset to its end, and its children
	// follow one another in it: the node at offset, if any, is under the
	// last child that starts at or before it.
	n := d.Root
	for n != nil && int(n.Offset) != offset {
		if offset < int(n.Offset) {
			return nil
		}
		kids := n.Children()
		i := sort.Search(len(kids), func(i int) bool { return int(kids[i].Offset) > offset })
		if i == 0 {
			return nil
		}
		n = kids[i-1]
	}
	return n
}

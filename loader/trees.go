package loader

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/celint/celint/internal/keyed"
)

// Trees are documents parsed in an earlier run, kept in a compact binary
// form, so that a program that reads the same files at every start (such
// as the rule files it ships) skips parsing them: yaml/v4 reads about
// 10 MB/s, and reading half a megabyte of rule files was most of what
// celint spent starting up. A program records them once (RecordTrees,
// Marshal) and reads them at start (ReadTrees, Trees.Parse).
//
// Each tree is keyed by a hash of the file's bytes, of the parse options
// and of the format's version: any other file, or the same file under
// other options, is parsed as usual. Only trees a program made itself
// should be read; they are not checked again.
//
// Trees are safe for concurrent use.
type Trees struct {
	mu      sync.Mutex
	entries map[keyed.Key][]byte
	record  bool
	hits    int
}

// treesMagic starts the serialised form; its version changes with the
// format or with what a key covers.
//
// Format 1: the magic, then the trees, each a key, its length and its
// bytes. A tree is: its strings (their number, then each as its length
// and its bytes), the values counted while parsing, the deepest nesting,
// then the nodes in document order. A node is a byte (kind | style<<3),
// its line and column, for an object member the index of its name and the
// line and column of the name, then a boolean's byte, a number's tag
// (0: int64 as a zigzag varint; 1: float64 as its 8 bytes), a string's
// index, or a collection's number of children and the children. Numbers
// are unsigned varints unless said otherwise.
//
// Format 2: after the deepest nesting, a byte that is 1 when the
// document's JSON is its input (see Document.JSON), 0 otherwise; when it
// is 1, each node's position is followed by its Offset and its length
// (End - Offset).
const treesMagic = treesFamily + "2\n"

// treesFamily starts the serialised form of every version.
const treesFamily = "celint trees "

// RecordTrees returns an empty set that records every document its Parse
// parses.
func RecordTrees() *Trees { return &Trees{entries: map[keyed.Key][]byte{}, record: true} }

// ReadTrees reads what Marshal wrote.
func ReadTrees(data []byte) (*Trees, error) {
	rest, ok := bytes.CutPrefix(data, []byte(treesMagic))
	if !ok {
		if bytes.HasPrefix(data, []byte(treesFamily)) {
			// Another version's trees, written by another celint: an empty
			// set, so that every file is parsed as usual.
			return &Trees{entries: map[keyed.Key][]byte{}}, nil
		}
		return nil, errors.New("celint: not a set of parsed trees")
	}
	entries, err := keyed.Read(rest, "parsed trees")
	if err != nil {
		return nil, err
	}
	return &Trees{entries: entries}, nil
}

// Marshal returns the set's serialised form, trees in key order.
func (t *Trees) Marshal() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return keyed.Append([]byte(treesMagic), t.entries)
}

// Len returns the number of trees in the set.
func (t *Trees) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.entries)
}

// Hits returns how many documents Parse took from the set.
func (t *Trees) Hits() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hits
}

// Parse is Parse(name, data, opts), from the set when it holds data's tree
// under opts; a set that records keeps the tree of what it parses. A nil
// set parses.
func (t *Trees) Parse(name string, data []byte, opts Options) (*Document, error) {
	if t == nil {
		return Parse(name, data, opts)
	}
	opts.Limits = opts.Limits.withDefaults()
	k := treeKeyOf(data, opts)
	t.mu.Lock()
	enc, ok := t.entries[k]
	t.mu.Unlock()
	if ok {
		if doc, err := decodeTree(name, data, opts, enc); err == nil {
			t.mu.Lock()
			t.hits++
			t.mu.Unlock()
			return doc, nil
		}
	}
	doc, err := Parse(name, data, opts)
	if err != nil {
		return nil, err
	}
	if t.record {
		if enc, err := encodeTree(doc); err == nil {
			t.mu.Lock()
			t.entries[k] = enc
			t.mu.Unlock()
		}
	}
	return doc, nil
}

func treeKeyOf(data []byte, opts Options) keyed.Key {
	h := sha256.New()
	fmt.Fprintf(h, "%s%+v\x00", treesMagic, opts)
	h.Write(data)
	var k keyed.Key
	h.Sum(k[:0])
	return k
}

// encodeTree is the tree of doc in the format of treesMagic.
func encodeTree(doc *Document) ([]byte, error) {
	e := treeEncoder{verbatim: doc.verbatim(), doc: doc}
	if err := e.node(doc.Root, false); err != nil {
		return nil, err
	}
	out := keyed.AppendTable(nil, e.strs.Items())
	out = binary.AppendUvarint(out, uint64(doc.counted))
	out = binary.AppendUvarint(out, uint64(doc.depth))
	out = append(out, boolByte(e.verbatim))
	return append(out, e.out...), nil
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

type treeEncoder struct {
	out      []byte
	strs     keyed.Table
	verbatim bool // the nodes' offsets are in the input: record them
	doc      *Document
}

func (e *treeEncoder) str(s string) { e.out = e.strs.AppendIndex(e.out, s) }

func (e *treeEncoder) pos(p Pos) {
	e.out = binary.AppendUvarint(e.out, uint64(p.Line))
	e.out = binary.AppendUvarint(e.out, uint64(p.Col))
}

func (e *treeEncoder) node(n *Node, member bool) error {
	e.out = append(e.out, byte(n.Kind)|byte(n.Style)<<3)
	e.pos(n.Pos)
	if e.verbatim {
		e.out = binary.AppendUvarint(e.out, uint64(n.Offset))
		e.out = binary.AppendUvarint(e.out, uint64(e.doc.JSONEnd(n)-int(n.Offset)))
	}
	if member {
		e.str(n.Key())
		e.pos(n.KeyPos)
	}
	switch n.Kind {
	case Null:
	case Bool:
		b, _ := n.Value().(bool)
		e.out = append(e.out, map[bool]byte{false: 0, true: 1}[b])
	case Number:
		switch v := n.Value().(type) {
		case int64:
			e.out = append(e.out, 0)
			e.out = binary.AppendVarint(e.out, v)
		case float64:
			e.out = append(e.out, 1)
			e.out = binary.LittleEndian.AppendUint64(e.out, math.Float64bits(v))
		default:
			return fmt.Errorf("a number of type %T", n.Value())
		}
	case String:
		s, _ := n.Value().(string)
		e.str(s)
	case Array, Object:
		e.out = binary.AppendUvarint(e.out, uint64(n.Len()))
		for _, c := range n.Children() {
			if err := e.node(c, n.Kind == Object); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("a node of kind %v", n.Kind)
	}
	return nil
}

// errBadTree is any fault of an encoded tree; the file is then parsed.
var errBadTree = errors.New("celint: bad parsed tree")

// decodeTree builds the Document that Parse(name, data, opts) returns from
// its encoded tree.
func decodeTree(name string, data []byte, opts Options, enc []byte) (*Document, error) {
	if int64(len(data)) > opts.Limits.Bytes || bytes.HasPrefix(data, utf8BOM) {
		return nil, errBadTree // Parse refuses it, or leaves the mark out of Source
	}
	d := treeDecoder{b: &builder{file: name, opts: opts}, size: len(data)}
	var ok bool
	if d.strs, d.in, ok = keyed.ReadTable(enc); !ok {
		return nil, errBadTree
	}
	counted, depth := d.uint(), d.uint()
	if counted > uint64(opts.Limits.Values) || depth > uint64(opts.Limits.Depth) {
		return nil, errBadTree // Parse would have refused it; and counted sizes a slice
	}
	switch d.byte() {
	case 0:
	case 1:
		d.verbatim = true
	default:
		return nil, errBadTree
	}
	format := formatOf(name, data, opts)
	root := d.node(false, 0)
	if d.err || len(d.in) != 0 || root == nil || d.verbatim && (format != "json" || counted != uint64(d.b.values)) {
		return nil, errBadTree
	}
	if d.verbatim {
		return verbatimDocument(name, root, data, int(counted)), nil
	}
	doc, err := newDocument(name, format, root, data, int(counted), int(depth))
	if err != nil {
		return nil, errBadTree
	}
	return doc, nil
}

type treeDecoder struct {
	in       []byte
	strs     []string
	b        *builder
	err      bool
	kids     []*Node // a stack of children being collected, shared by all levels
	verbatim bool    // each node records its offsets in the input
	size     int     // the input's length, which offsets must stay within
}

func (d *treeDecoder) uint() uint64 {
	v, w := binary.Uvarint(d.in)
	if w <= 0 {
		d.err = true
		return 0
	}
	d.in = d.in[w:]
	return v
}

func (d *treeDecoder) str() string {
	i := d.uint()
	if i >= uint64(len(d.strs)) {
		d.err = true
		return ""
	}
	return d.strs[i]
}

func (d *treeDecoder) pos() Pos {
	line, col := d.uint(), d.uint()
	if line > math.MaxInt32 || col > math.MaxInt32 {
		d.err = true
	}
	return Pos{Line: int32(line), Col: int32(col)}
}

func (d *treeDecoder) byte() byte {
	if len(d.in) == 0 {
		d.err = true
		return 0
	}
	c := d.in[0]
	d.in = d.in[1:]
	return c
}

func (d *treeDecoder) node(member bool, depth int) *Node {
	if depth > d.b.opts.Limits.Depth {
		d.err = true
		return nil
	}
	head := d.byte()
	kind, style := Kind(head&7), Style(head>>3)
	if d.err || kind > Object || style > Flow {
		d.err = true
		return nil
	}
	n, err := d.b.newNode(kind, d.pos())
	if err != nil {
		d.err = true
		return nil
	}
	n.Style = style
	if d.verbatim {
		off, length := d.uint(), d.uint()
		if off > uint64(d.size) || length > uint64(d.size)-off {
			d.err = true
			return nil
		}
		// The length only bounds the value: a node's end is found from
		// the JSON (see JSONEnd).
		n.Offset = int32(off)
	}
	if member {
		n.setKey(d.str())
		n.KeyPos = d.pos()
	}
	switch kind {
	case Bool:
		n.setScalar(d.byte() == 1)
	case Number:
		switch d.byte() {
		case 0:
			v, w := binary.Varint(d.in)
			if w <= 0 {
				d.err = true
				return nil
			}
			d.in = d.in[w:]
			n.setScalar(v)
		case 1:
			if len(d.in) < 8 {
				d.err = true
				return nil
			}
			n.setScalar(math.Float64frombits(binary.LittleEndian.Uint64(d.in)))
			d.in = d.in[8:]
		default:
			d.err = true
			return nil
		}
	case String:
		n.setString(d.str())
	case Array, Object:
		count := d.uint()
		if d.err || count > uint64(len(d.in)) || count > math.MaxInt32 {
			d.err = true
			return nil
		}
		base := len(d.kids)
		for range int(count) {
			c := d.node(kind == Object, depth+1)
			if d.err {
				return nil
			}
			c.Parent = n
			d.kids = append(d.kids, c)
		}
		kids := d.kids[base:]
		if kind == Array {
			finishArray(n, kids)
		} else {
			var index map[string]int
			if len(kids) > smallObject {
				index = make(map[string]int, 2*len(kids))
				for i, k := range kids {
					index[k.Key()] = i
				}
			}
			finishObject(n, kids, index)
		}
		d.kids = d.kids[:base]
	}
	return n
}

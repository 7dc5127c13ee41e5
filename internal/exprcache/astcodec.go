package exprcache

import (
	"encoding/binary"
	"errors"
	"maps"
	"math"
	"slices"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/celint/celint/internal/keyed"
)

// The checked expressions' own binary form (format 3 of checkedMagic): an
// expression tree, node by node in preorder, then each node's source
// offset, then its reference (an identifier's name, a call's overload
// IDs), then its type, all as unsigned varints with names and types as
// indexes into the set's tables. It decodes several times faster than the
// exprpb.CheckedExpr protos it replaces, whose reflection-driven decoding
// was a third of compiling the rules.

// The node kinds of the tree, and of literals.
const (
	nodeCall byte = iota + 1
	nodeMemberCall
	nodeComprehension
	nodeIdent
	nodeList
	nodeLiteral
	nodeMap
	nodeSelect
	nodePresence
)

const (
	litBool byte = iota
	litBytes
	litDouble
	litInt
	litNull
	litString
	litUint
)

// errUnencodable is an AST this form does not hold (macro calls, source
// extensions, constant references, message construction): it is not
// recorded, and compiles as usual.
var errUnencodable = errors.New("celint: checked expression not encodable")

// astEncoder encodes ASTs, numbering the names they use in a table shared
// by the set.
type astEncoder struct {
	names keyed.Table
	types keyed.Table // serialised exprpb.Type
}

func (e *astEncoder) name(out []byte, s string) []byte { return e.names.AppendIndex(out, s) }

// encode appends a recorded expression's entry.
func (e *astEncoder) encode(out []byte, r recordedExpr) ([]byte, error) {
	a := r.ast
	info := a.SourceInfo()
	if len(info.MacroCalls()) > 0 || len(info.Extensions()) > 0 || info.SyntaxVersion() != "" {
		return nil, errUnencodable
	}
	out, err := e.expr(out, a.Expr())
	if err != nil {
		return nil, err
	}
	ranges := info.OffsetRanges()
	ids := slices.Sorted(maps.Keys(ranges))
	out = binary.AppendUvarint(out, uint64(len(ids)))
	var prev int64
	for _, id := range ids {
		out = binary.AppendUvarint(out, uint64(id-prev))
		out = binary.AppendUvarint(out, uint64(ranges[id].Start))
		prev = id
	}
	refs := a.ReferenceMap()
	ids = slices.Sorted(maps.Keys(refs))
	out = binary.AppendUvarint(out, uint64(len(ids)))
	prev = 0
	for _, id := range ids {
		rf := refs[id]
		if rf.Value != nil {
			return nil, errUnencodable
		}
		out = binary.AppendUvarint(out, uint64(id-prev))
		out = e.name(out, rf.Name)
		out = binary.AppendUvarint(out, uint64(len(rf.OverloadIDs)))
		for _, o := range rf.OverloadIDs {
			out = e.name(out, o)
		}
		prev = id
	}
	out = binary.AppendUvarint(out, uint64(len(r.ids)))
	prev = 0
	for i, id := range r.ids {
		out = binary.AppendUvarint(out, uint64(id-prev))
		out = e.types.AppendIndex(out, r.types[i])
		prev = id
	}
	return out, nil
}

func (e *astEncoder) expr(out []byte, x ast.Expr) ([]byte, error) {
	var err error
	id := uint64(x.ID())
	switch x.Kind() {
	case ast.CallKind:
		c := x.AsCall()
		if c.IsMemberFunction() {
			out = append(out, nodeMemberCall)
		} else {
			out = append(out, nodeCall)
		}
		out = binary.AppendUvarint(out, id)
		out = e.name(out, c.FunctionName())
		if c.IsMemberFunction() {
			if out, err = e.expr(out, c.Target()); err != nil {
				return nil, err
			}
		}
		out = binary.AppendUvarint(out, uint64(len(c.Args())))
		for _, a := range c.Args() {
			if out, err = e.expr(out, a); err != nil {
				return nil, err
			}
		}
	case ast.ComprehensionKind:
		c := x.AsComprehension()
		out = append(out, nodeComprehension)
		out = binary.AppendUvarint(out, id)
		out = e.name(out, c.IterVar())
		out = e.name(out, c.IterVar2())
		out = e.name(out, c.AccuVar())
		for _, sub := range []ast.Expr{c.IterRange(), c.AccuInit(), c.LoopCondition(), c.LoopStep(), c.Result()} {
			if out, err = e.expr(out, sub); err != nil {
				return nil, err
			}
		}
	case ast.IdentKind:
		out = append(out, nodeIdent)
		out = binary.AppendUvarint(out, id)
		out = e.name(out, x.AsIdent())
	case ast.ListKind:
		l := x.AsList()
		out = append(out, nodeList)
		out = binary.AppendUvarint(out, id)
		out = binary.AppendUvarint(out, uint64(len(l.Elements())))
		for _, el := range l.Elements() {
			if out, err = e.expr(out, el); err != nil {
				return nil, err
			}
		}
		out = binary.AppendUvarint(out, uint64(len(l.OptionalIndices())))
		for _, i := range l.OptionalIndices() {
			out = binary.AppendUvarint(out, uint64(i))
		}
	case ast.LiteralKind:
		out = append(out, nodeLiteral)
		out = binary.AppendUvarint(out, id)
		switch v := x.AsLiteral().(type) {
		case types.Bool:
			out = append(out, litBool, map[bool]byte{false: 0, true: 1}[bool(v)])
		case types.Bytes:
			out = append(out, litBytes)
			out = binary.AppendUvarint(out, uint64(len(v)))
			out = append(out, v...)
		case types.Double:
			out = append(out, litDouble)
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(float64(v)))
		case types.Int:
			out = append(out, litInt)
			out = binary.AppendVarint(out, int64(v))
		case types.Null:
			out = append(out, litNull)
		case types.String:
			out = append(out, litString)
			out = e.name(out, string(v))
		case types.Uint:
			out = append(out, litUint)
			out = binary.AppendUvarint(out, uint64(v))
		default:
			return nil, errUnencodable
		}
	case ast.MapKind:
		m := x.AsMap()
		out = append(out, nodeMap)
		out = binary.AppendUvarint(out, id)
		out = binary.AppendUvarint(out, uint64(len(m.Entries())))
		for _, en := range m.Entries() {
			me := en.AsMapEntry()
			out = binary.AppendUvarint(out, uint64(en.ID()))
			out = append(out, map[bool]byte{false: 0, true: 1}[me.IsOptional()])
			if out, err = e.expr(out, me.Key()); err != nil {
				return nil, err
			}
			if out, err = e.expr(out, me.Value()); err != nil {
				return nil, err
			}
		}
	case ast.SelectKind:
		s := x.AsSelect()
		if s.IsTestOnly() {
			out = append(out, nodePresence)
		} else {
			out = append(out, nodeSelect)
		}
		out = binary.AppendUvarint(out, id)
		out = e.name(out, s.FieldName())
		if out, err = e.expr(out, s.Operand()); err != nil {
			return nil, err
		}
	default:
		return nil, errUnencodable
	}
	return out, nil
}

// astDecoder reads one entry.
type astDecoder struct {
	in    []byte
	names []string
	fac   ast.ExprFactory
	bad   bool
}

func (d *astDecoder) uint() uint64 {
	v, w := binary.Uvarint(d.in)
	if w <= 0 {
		d.bad = true
		return 0
	}
	d.in = d.in[w:]
	return v
}

func (d *astDecoder) byte() byte {
	if len(d.in) == 0 {
		d.bad = true
		return 0
	}
	b := d.in[0]
	d.in = d.in[1:]
	return b
}

func (d *astDecoder) name() string {
	i := d.uint()
	if i >= uint64(len(d.names)) {
		d.bad = true
		return ""
	}
	return d.names[i]
}

// count reads a number of items, each at least one byte long.
func (d *astDecoder) count() int {
	n := d.uint()
	if n > uint64(len(d.in)) {
		d.bad = true
		return 0
	}
	return int(n)
}

// maxDecodedDepth bounds the decoder's recursion, as cel-go bounds the
// depth of the ASTs it loads.
const maxDecodedDepth = 250

func (d *astDecoder) expr(depth int) ast.Expr {
	if d.bad || depth > maxDecodedDepth {
		d.bad = true
		return nil
	}
	kind := d.byte()
	id := int64(d.uint())
	switch kind {
	case nodeCall, nodeMemberCall:
		fn := d.name()
		var target ast.Expr
		if kind == nodeMemberCall {
			target = d.expr(depth + 1)
		}
		args := make([]ast.Expr, d.count())
		for i := range args {
			args[i] = d.expr(depth + 1)
		}
		if d.bad {
			return nil
		}
		if kind == nodeMemberCall {
			return d.fac.NewMemberCall(id, fn, target, args...)
		}
		return d.fac.NewCall(id, fn, args...)
	case nodeComprehension:
		iterVar, iterVar2, accuVar := d.name(), d.name(), d.name()
		rng, init, cond, step, result := d.expr(depth+1), d.expr(depth+1), d.expr(depth+1), d.expr(depth+1), d.expr(depth+1)
		if d.bad {
			return nil
		}
		if iterVar2 != "" {
			return d.fac.NewComprehensionTwoVar(id, rng, iterVar, iterVar2, accuVar, init, cond, step, result)
		}
		return d.fac.NewComprehension(id, rng, iterVar, accuVar, init, cond, step, result)
	case nodeIdent:
		return d.fac.NewIdent(id, d.name())
	case nodeList:
		elems := make([]ast.Expr, d.count())
		for i := range elems {
			elems[i] = d.expr(depth + 1)
		}
		var opt []int32
		if n := d.count(); n > 0 {
			opt = make([]int32, n)
			for i := range opt {
				opt[i] = int32(d.uint())
			}
		}
		if d.bad {
			return nil
		}
		return d.fac.NewList(id, elems, opt)
	case nodeLiteral:
		var v ref.Val
		switch d.byte() {
		case litBool:
			v = types.Bool(d.byte() == 1)
		case litBytes:
			n := d.count()
			if d.bad {
				return nil
			}
			v = types.Bytes(append([]byte(nil), d.in[:n]...))
			d.in = d.in[n:]
		case litDouble:
			if len(d.in) < 8 {
				d.bad = true
				return nil
			}
			v = types.Double(math.Float64frombits(binary.LittleEndian.Uint64(d.in)))
			d.in = d.in[8:]
		case litInt:
			n, w := binary.Varint(d.in)
			if w <= 0 {
				d.bad = true
				return nil
			}
			d.in = d.in[w:]
			v = types.Int(n)
		case litNull:
			v = types.NullValue
		case litString:
			v = types.String(d.name())
		case litUint:
			v = types.Uint(d.uint())
		default:
			d.bad = true
			return nil
		}
		return d.fac.NewLiteral(id, v)
	case nodeMap:
		entries := make([]ast.EntryExpr, d.count())
		for i := range entries {
			eid := int64(d.uint())
			optional := d.byte() == 1
			k, v := d.expr(depth+1), d.expr(depth+1)
			if d.bad {
				return nil
			}
			entries[i] = d.fac.NewMapEntry(eid, k, v, optional)
		}
		if d.bad {
			return nil
		}
		return d.fac.NewMap(id, entries)
	case nodeSelect, nodePresence:
		field := d.name()
		operand := d.expr(depth + 1)
		if d.bad {
			return nil
		}
		if kind == nodePresence {
			return d.fac.NewPresenceTest(id, operand, field)
		}
		return d.fac.NewSelect(id, operand, field)
	}
	d.bad = true
	return nil
}

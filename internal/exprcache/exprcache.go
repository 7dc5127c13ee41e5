// Package exprcache keeps CEL expressions parsed and type-checked in an
// earlier run, so that compiling them again skips cel-go's parser and type
// checker: most of the time a program spends starting up when it compiles
// many rules. The embedded rulesets ship a Set each (see
// rulesets.CheckedFile, which go generate in rulesets/ rewrites); package
// cel asks it for an expression before it checks one (cel.Config.Checked).
//
// Each entry is keyed by a hash of the expression and of what its checking
// depends on: the environment's functions and their overloads, its
// variables and their types, the library version and cel-go's version
// (the one go.mod requires). An entry recorded under other declarations
// is therefore never used: the expression is compiled as usual. Only
// entries a program made itself, with the cel-go it is built with, should
// be read; they are not checked again.
package exprcache

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"

	"github.com/celint/celint/internal/keyed"
)

// Set is a set of checked expressions, read from what Marshal wrote or
// recording the expressions compiled with it. It is safe for concurrent
// use.
type Set struct {
	mu      sync.Mutex
	entries map[Key][]byte
	record  bool
	hits    int // expressions compiled from the set
	misses  int // expressions compiled that were not in the set

	// The types of the entries' expressions, each distinct type once:
	// most of a checked expression is the type of each of its nodes, and
	// a few types (bool, string, dyn, ...) are nearly all of them.
	typeData []string      // serialised exprpb.Type
	types    []*types.Type // decoded on first use
	names    []string      // the names and strings the entries use
	recorded map[Key]recordedExpr
}

// recordedExpr is an expression recorded for Marshal, which numbers the
// types in the order of the sorted keys, whatever order the expressions
// were compiled in.
type recordedExpr struct {
	ast   *celast.AST
	ids   []int64  // the typed nodes, in increasing order
	types []string // each node's serialised exprpb.Type
}

// Key is the hash an entry is kept under, and the hashes of what checking
// depends on that it is made from (Declarations, Scope).
type Key = keyed.Key

// checkedMagic starts the serialised form; its version changes with the
// format or with what a key covers.
//
// Format 3: the magic; the number of types, then each type as its length
// and an exprpb.Type; the number of names, then each name as its length and
// its bytes; then the entries, each a key, its length and its bytes, in the
// form of astcodec.go. Numbers are unsigned varints.
const checkedMagic = "celint checked expressions 3\n"

// Record returns an empty set that records every expression added to it
// (Add), as an environment configured with it adds each expression it
// compiles successfully.
func Record() *Set {
	return &Set{entries: map[Key][]byte{}, record: true, recorded: map[Key]recordedExpr{}}
}

// Read reads what Marshal wrote.
func Read(data []byte) (*Set, error) {
	rest, ok := bytes.CutPrefix(data, []byte(checkedMagic))
	if !ok {
		return nil, errors.New("celint: not a set of checked expressions (or of another format version)")
	}
	c := &Set{}
	if c.typeData, rest, ok = keyed.ReadTable(rest); !ok {
		return nil, errors.New("celint: checked expressions: bad table of types")
	}
	c.types = make([]*types.Type, len(c.typeData))
	if c.names, rest, ok = keyed.ReadTable(rest); !ok {
		return nil, errors.New("celint: checked expressions: bad table of names")
	}
	entries, err := keyed.Read(rest, "checked expressions")
	if err != nil {
		return nil, err
	}
	c.entries = entries
	return c, nil
}

// Marshal returns the recorded set's serialised form, entries in key
// order and types and names in order of first use, so that the same
// expressions give the same bytes. An expression the form cannot hold is
// left out (it compiles as usual).
func (c *Set) Marshal() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := slices.SortedFunc(maps.Keys(c.recorded), func(a, b Key) int { return bytes.Compare(a[:], b[:]) })
	var enc astEncoder
	entries := make(map[keyed.Key][]byte, len(keys))
	for _, k := range keys {
		if e, err := enc.encode(nil, c.recorded[k]); err == nil {
			entries[k] = e
		}
	}
	out := []byte(checkedMagic)
	out = keyed.AppendTable(out, enc.types.Items())
	out = keyed.AppendTable(out, enc.names.Items())
	return keyed.Append(out, entries)
}

// Len returns the number of expressions in the set.
func (c *Set) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries) + len(c.recorded)
}

// Find returns expr checked in an environment of the scope (see Scope),
// with expr as its source text (as a freshly parsed one has); nil when the
// set does not have it.
func (c *Set) Find(scope Key, expr string) *gocel.Ast {
	return c.find(exprKey(scope, expr), expr)
}

// find returns the checked expression under key, with expr as its source
// text, or nil.
func (c *Set) find(key Key, expr string) *gocel.Ast {
	c.mu.Lock()
	data, ok := c.entries[key]
	c.mu.Unlock()
	if !ok {
		return nil
	}
	d := astDecoder{in: data, names: c.names, fac: celast.NewExprFactory()}
	root := d.expr(0)
	src := common.NewTextSource(expr)
	info := celast.NewSourceInfo(src)
	var id int64
	for range d.count() {
		id += int64(d.uint())
		off := d.uint()
		if off > math.MaxInt32 {
			d.bad = true
		}
		info.SetOffsetRange(id, celast.OffsetRange{Start: int32(off), Stop: int32(off)})
	}
	n := d.count()
	refs := make(map[int64]*celast.ReferenceInfo, n)
	id = 0
	for range n {
		id += int64(d.uint())
		r := &celast.ReferenceInfo{Name: d.name()}
		if k := d.count(); k > 0 {
			r.OverloadIDs = make([]string, k)
			for i := range r.OverloadIDs {
				r.OverloadIDs[i] = d.name()
			}
		}
		refs[id] = r
	}
	n = d.count()
	typeMap := make(map[int64]*types.Type, n)
	id = 0
	for range n {
		id += int64(d.uint())
		t := c.typeAt(d.uint())
		if t == nil {
			return nil
		}
		typeMap[id] = t
	}
	if d.bad || len(d.in) != 0 || len(typeMap) == 0 {
		return nil
	}
	// A *cel.Ast is made only from protos: an empty one gets the decoded
	// AST in place.
	out := gocel.ParsedExprToAstWithSource(&exprpb.ParsedExpr{}, src)
	*out.NativeRep() = *celast.NewCheckedAST(celast.NewAST(root, info), typeMap, refs)
	c.mu.Lock()
	c.hits++
	c.mu.Unlock()
	return out
}

// typeAt returns the type of index i, decoding it on first use; nil when
// there is none.
func (c *Set) typeAt(i uint64) *types.Type {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i >= uint64(len(c.types)) {
		return nil
	}
	if t := c.types[i]; t != nil {
		return t
	}
	var pb exprpb.Type
	if err := proto.Unmarshal([]byte(c.typeData[i]), &pb); err != nil {
		return nil
	}
	t, err := types.ExprTypeToType(&pb)
	if err != nil {
		return nil
	}
	c.types[i] = t
	return t
}

// Hits returns how many expressions Find found.
func (c *Set) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// Misses returns how many expressions were added, not found and so parsed
// and checked.
func (c *Set) Misses() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.misses
}

// Add notes that expr, checked in an environment of the scope as ast, was
// not in the set: it counts a miss, and records ast when the set records.
func (c *Set) Add(scope Key, expr string, ast *gocel.Ast) {
	c.put(exprKey(scope, expr), ast)
}

func (c *Set) put(key Key, ast *gocel.Ast) {
	c.mu.Lock()
	c.misses++
	c.mu.Unlock()
	if !c.record {
		return
	}
	pb, err := gocel.AstToCheckedExpr(ast)
	if err != nil {
		return
	}
	det := proto.MarshalOptions{Deterministic: true}
	r := recordedExpr{ast: ast.NativeRep(), ids: slices.Sorted(maps.Keys(pb.TypeMap))}
	for _, id := range r.ids {
		t, err := det.Marshal(pb.TypeMap[id])
		if err != nil {
			return
		}
		r.types = append(r.types, string(t))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recorded[key] = r
}

// celGoVersion is the version of github.com/google/cel-go that celint is
// built with, as go.mod requires it (TestCELGoVersion keeps the two the
// same). A checked expression is cel-go's work, so its key covers it.
const celGoVersion = "v0.31.0"

// Declarations returns the hash of what checking an expression in env
// depends on besides the variables: the functions with their overloads,
// the version of the celint library, cel-go's version and the version of
// this format.
func Declarations(env *gocel.Env, library int) Key {
	return declarationsWith(env, library, celGoVersion)
}

// declarationsWith is Declarations with cel-go at version celGo.
func declarationsWith(env *gocel.Env, library int, celGo string) Key {
	var names []string
	for name, fn := range env.Functions() {
		for _, o := range fn.OverloadDecls() {
			names = append(names, name+"/"+o.ID())
		}
	}
	slices.Sort(names)
	h := sha256.New()
	fmt.Fprintf(h, "%slibrary %d\x00cel-go %s\x00", checkedMagic, library, celGo)
	for _, n := range names {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// Scope returns the hash of decl (see Declarations) and an environment's
// variables, each given as its name, a colon and its type's String, in
// any order: the scope an expression is checked in.
func Scope(decl Key, vars []string) Key {
	parts := slices.Clone(vars)
	slices.Sort(parts)
	h := sha256.New()
	h.Write(decl[:])
	for _, p := range parts {
		h.Write([]byte(strconv.Quote(p)))
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// exprKey is the key of expr checked in the scope.
func exprKey(scope Key, expr string) Key {
	h := sha256.New()
	h.Write(scope[:])
	h.Write([]byte(expr))
	var k Key
	h.Sum(k[:0])
	return k
}

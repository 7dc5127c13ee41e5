package cel

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"
)

// CheckedExprs are expressions parsed and type-checked in an earlier run,
// kept as cel-go's checked-expression protos, so that compiling them again
// skips cel-go's parser and type checker: most of the time a program
// spends starting up when it compiles many rules. A program builds them
// once for rules it ships (RecordCheckedExprs, Marshal) and reads them at
// start (ReadCheckedExprs, Config.Checked).
//
// Each entry is keyed by a hash of the expression and of what its checking
// depends on: the environment's functions and their overloads, its
// variables and their types, and the library version. An entry recorded
// under other declarations is therefore never used: the expression is
// compiled as usual. Only entries a program made itself, with the cel-go
// it is built with, should be read; they are not checked again.
//
// CheckedExprs are safe for concurrent use.
type CheckedExprs struct {
	mu      sync.Mutex
	entries map[checkedKey][]byte
	record  bool
	hits    int // expressions compiled from the set
	misses  int // expressions compiled that were not in the set
}

type checkedKey [sha256.Size]byte

// checkedMagic starts the serialised form; its version changes with the
// format or with what a key covers.
const checkedMagic = "celint checked expressions 1\n"

// RecordCheckedExprs returns an empty set that records every expression
// compiled successfully in an environment configured with it.
func RecordCheckedExprs() *CheckedExprs {
	return &CheckedExprs{entries: map[checkedKey][]byte{}, record: true}
}

// ReadCheckedExprs reads what Marshal wrote.
func ReadCheckedExprs(data []byte) (*CheckedExprs, error) {
	rest, ok := bytes.CutPrefix(data, []byte(checkedMagic))
	if !ok {
		return nil, errors.New("celint: not a set of checked expressions (or of another format version)")
	}
	c := &CheckedExprs{entries: map[checkedKey][]byte{}}
	for len(rest) > 0 {
		if len(rest) < len(checkedKey{}) {
			return nil, errors.New("celint: checked expressions: truncated key")
		}
		var k checkedKey
		copy(k[:], rest)
		rest = rest[len(k):]
		n, w := binary.Uvarint(rest)
		if w <= 0 || n > uint64(len(rest)-w) {
			return nil, errors.New("celint: checked expressions: bad length")
		}
		c.entries[k] = rest[w : w+int(n)]
		rest = rest[w+int(n):]
	}
	return c, nil
}

// Marshal returns the set's serialised form, entries in key order, so
// that the same expressions give the same bytes.
func (c *CheckedExprs) Marshal() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]checkedKey, 0, len(c.entries))
	for k := range c.entries {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b checkedKey) int { return bytes.Compare(a[:], b[:]) })
	out := []byte(checkedMagic)
	for _, k := range keys {
		out = append(out, k[:]...)
		out = binary.AppendUvarint(out, uint64(len(c.entries[k])))
		out = append(out, c.entries[k]...)
	}
	return out
}

// Len returns the number of expressions in the set.
func (c *CheckedExprs) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// ast returns the checked expression under key, with expr as its source
// text (as a freshly parsed one has), or nil.
func (c *CheckedExprs) ast(key checkedKey, expr string) *gocel.Ast {
	c.mu.Lock()
	data, ok := c.entries[key]
	c.mu.Unlock()
	if !ok {
		return nil
	}
	var pb exprpb.CheckedExpr
	if err := proto.Unmarshal(data, &pb); err != nil {
		return nil
	}
	ast, err := gocel.CheckedExprToAstWithSource(&pb, common.NewTextSource(expr))
	if err != nil {
		return nil
	}
	c.mu.Lock()
	c.hits++
	c.mu.Unlock()
	return ast
}

// Hits returns how many expressions compiled in environments using the set
// were found in it.
func (c *CheckedExprs) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// Misses returns how many expressions compiled in environments using the
// set were not in it, and so were parsed and checked.
func (c *CheckedExprs) Misses() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.misses
}

// put records a checked expression, when the set records, and counts it
// as a miss.
func (c *CheckedExprs) put(key checkedKey, ast *gocel.Ast) {
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
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(pb)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = data
}

// declarations returns the hash of what checking an expression in env
// depends on besides the variables: the functions with their overloads,
// the library version and the version of this format. (Not cel-go's
// version, which a test binary does not know: a program that ships
// CheckedExprs should check, as celint's tests do, that they are what its
// cel-go checks today.)
func declarations(env *gocel.Env, library int) checkedKey {
	var names []string
	for name, fn := range env.Functions() {
		for _, o := range fn.OverloadDecls() {
			names = append(names, name+"/"+o.ID())
		}
	}
	slices.Sort(names)
	h := sha256.New()
	fmt.Fprintf(h, "%slibrary %d\x00", checkedMagic, library)
	for _, n := range names {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	var k checkedKey
	h.Sum(k[:0])
	return k
}

// withVars returns the hash of decl and the variables, in a canonical
// order.
func withVars(decl checkedKey, vars []Var) checkedKey {
	parts := make([]string, len(vars))
	for i, v := range vars {
		parts[i] = v.Name + ":" + v.Type.String()
	}
	slices.Sort(parts)
	h := sha256.New()
	h.Write(decl[:])
	for _, p := range parts {
		h.Write([]byte(strconv.Quote(p)))
	}
	var k checkedKey
	h.Sum(k[:0])
	return k
}

// exprKey is the key of expr checked under the declarations sig.
func exprKey(sig checkedKey, expr string) checkedKey {
	h := sha256.New()
	h.Write(sig[:])
	h.Write([]byte(expr))
	var k checkedKey
	h.Sum(k[:0])
	return k
}

package cel

import (
	"strings"
	"testing"

	gocel "github.com/google/cel-go/cel"
	"google.golang.org/protobuf/proto"
)

// TestCheckedExprs: expressions recorded in one environment compile from
// the set in another with the same declarations, without being parsed or
// checked, and evaluate alike; under other declarations (a variable of
// another type, another library version) the set is not used; the
// serialised form reads back, and anything else is refused.
func TestCheckedExprs(t *testing.T) {
	exprs := []string{`self.a + 1`, `[1, 2, 3].map(x, x * n).filter(y, y > 2)`, `has(self.b) ? self.b : 'none'`, `hasNestedKey(self, 'k')`,
		// every kind of node and literal the form holds
		`[b"\x00ab", 1.5, -7, null, 'é', 3u, true, false].size() + n`,
		`{"x": 1, ?"y": optional.none(), "z": [?optional.of(2), 3]}.size()`,
		`self.c.k || self.?b.orValue("") == "x"`,
		`{"a": 1}.transformMap(k, v, v + 1).size() == 1`,
		`cel.bind(m, {"a": [1, 2]}, m.exists(k, m[k].all(x, x > 0)))`,
		"self.b\n  .startsWith('x')\n  && n > 0"}
	env := func(t *testing.T, c *CheckedExprs, lib int, nType *gocel.Type) *Env {
		t.Helper()
		e, err := NewEnv(Config{Checked: c, Library: lib})
		if err != nil {
			t.Fatal(err)
		}
		if e, err = e.Extend(Var{Name: "n", Type: nType}); err != nil {
			t.Fatal(err)
		}
		return e
	}
	rec := RecordCheckedExprs()
	first := env(t, rec, 0, gocel.IntType)
	want := map[string]any{}
	self := map[string]any{"a": int64(2), "b": "x", "c": map[string]any{"k": true}}
	for _, x := range exprs {
		p, err := first.Compile(x, Origin{})
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := p.Eval(nil, map[string]any{"self": self, "n": int64(2)})
		if err != nil {
			t.Fatal(err)
		}
		want[x] = v.Value()
	}
	if rec.Len() != len(exprs) || rec.Misses() != len(exprs) {
		t.Fatalf("recorded %d, %d misses", rec.Len(), rec.Misses())
	}
	data := rec.Marshal()
	if string(RecordCheckedExprs().Marshal()) != checkedMagic+"\x00\x00" || string(data) != string(rec.Marshal()) {
		t.Error("Marshal is not deterministic")
	}
	stored, err := ReadCheckedExprs(data)
	if err != nil {
		t.Fatal(err)
	}
	second := env(t, stored, 0, gocel.IntType)
	// What the set gives back is what the checker gave: the expression,
	// its source positions, references and the type of every node.
	for _, x := range exprs {
		fresh, err := first.check(x, Origin{})
		if err != nil {
			t.Fatal(err)
		}
		got := stored.ast(exprKey(second.sig, x), x)
		if got == nil {
			t.Fatalf("%s: not in the set", x)
		}
		a, err1 := gocel.AstToCheckedExpr(fresh)
		b, err2 := gocel.AstToCheckedExpr(got)
		if err1 != nil || err2 != nil || !proto.Equal(a, b) || len(b.TypeMap) == 0 {
			t.Errorf("%s: the set's checked expression differs from the checker's:\n%v\n%v", x, a, b)
		}
	}
	for _, x := range exprs {
		p, err := second.Compile(x, Origin{})
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := p.Eval(nil, map[string]any{"self": self, "n": int64(2)})
		if err != nil || toJSON(v.Value()) != toJSON(want[x]) {
			t.Errorf("%s from the set: %v, %v; want %v", x, v, err, want[x])
		}
	}
	if stored.Misses() != 0 {
		t.Errorf("%d expressions checked again", stored.Misses())
	}
	// Other declarations: compiled as usual (so checked: a miss, or an
	// error).
	if _, err := env(t, stored, 0, gocel.DoubleType).Compile(exprs[0], Origin{}); err != nil {
		t.Fatal(err)
	}
	if _, err := env(t, stored, 0, gocel.DoubleType).Compile(exprs[1], Origin{}); err == nil {
		t.Error("an int-typed expression compiled for a double n")
	}
	if _, err := env(t, stored, 3, gocel.IntType).Compile(exprs[3], Origin{}); err == nil || !strings.Contains(err.Error(), "hasNestedKey") {
		t.Errorf("a library-4 function from the set under library 3: %v", err)
	}
	if stored.Misses() != 1 {
		t.Errorf("%d misses, want the one expression compiled under other declarations", stored.Misses())
	}
	for _, bad := range [][]byte{nil, []byte("nope"), append([]byte(checkedMagic), 1, 2, 3), append(append([]byte(checkedMagic), make([]byte, 32)...), 0xff)} {
		if _, err := ReadCheckedExprs(bad); err == nil {
			t.Errorf("ReadCheckedExprs(%q) accepted", bad)
		}
	}
}

// FuzzCheckedEntry: whatever the bytes of an entry, decoding it gives an
// AST or nothing; it never panics or runs away.
func FuzzCheckedEntry(f *testing.F) {
	rec := RecordCheckedExprs()
	e, err := NewEnv(Config{Checked: rec})
	if err != nil {
		f.Fatal(err)
	}
	for _, x := range []string{`self.a + 1`, `[1, 2.5, 'x', b"y", 3u, null].size()`, `{"a": 1}.exists(k, k == "a")`, `has(self.b)`} {
		if _, err := e.Compile(x, Origin{}); err != nil {
			f.Fatal(err)
		}
	}
	set, err := ReadCheckedExprs(rec.Marshal())
	if err != nil {
		f.Fatal(err)
	}
	for _, entry := range set.entries {
		f.Add(entry)
	}
	f.Fuzz(func(t *testing.T, entry []byte) {
		c := &CheckedExprs{entries: map[checkedKey][]byte{{}: entry}, names: set.names, typeData: set.typeData, types: make([]*gocel.Type, len(set.typeData))}
		c.ast(checkedKey{}, "self.a + 1")
	})
}

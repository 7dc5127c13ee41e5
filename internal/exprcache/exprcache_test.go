package exprcache

import (
	"testing"

	gocel "github.com/google/cel-go/cel"
	"google.golang.org/protobuf/proto"
)

// checkedEnv is a cel-go environment with the variables self (dyn) and n
// (int), and its scope.
func checkedEnv(t testing.TB) (*gocel.Env, Key) {
	t.Helper()
	env, err := gocel.NewEnv(gocel.Variable("self", gocel.DynType), gocel.Variable("n", gocel.IntType))
	if err != nil {
		t.Fatal(err)
	}
	return env, Scope(Declarations(env, 1), []string{"self:dyn", "n:int"})
}

// TestSetRoundTrip: what a recording set is given reads back from its
// serialised form as the checker made it, in the same scope only; the
// form is deterministic; anything else is refused.
func TestSetRoundTrip(t *testing.T) {
	env, scope := checkedEnv(t)
	exprs := []string{`self.a + 1`, `[b"\x00ab", 1.5, -7, null, 'é', 3u, true, false].size() + n`,
		`{"x": 1, "z": [2, 3]}.size()`, `{"a": [1, 2]}.exists(k, k == "a")`, "has(self.b)\n  && n > 0"}
	rec := Record()
	checked := map[string]*gocel.Ast{}
	for _, x := range exprs {
		ast, iss := env.Compile(x)
		if iss.Err() != nil {
			t.Fatal(iss.Err())
		}
		checked[x] = ast
		if rec.Find(scope, x) != nil {
			t.Errorf("%s found before it was added", x)
		}
		rec.Add(scope, x, ast)
	}
	if rec.Len() != len(exprs) || rec.Misses() != len(exprs) {
		t.Fatalf("recorded %d, %d misses", rec.Len(), rec.Misses())
	}
	data := rec.Marshal()
	if string(Record().Marshal()) != checkedMagic+"\x00\x00" || string(data) != string(rec.Marshal()) {
		t.Error("Marshal is not deterministic")
	}
	stored, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range exprs {
		got := stored.Find(scope, x)
		if got == nil {
			t.Fatalf("%s: not in the set", x)
		}
		a, err1 := gocel.AstToCheckedExpr(checked[x])
		b, err2 := gocel.AstToCheckedExpr(got)
		if err1 != nil || err2 != nil || !proto.Equal(a, b) || len(b.TypeMap) == 0 {
			t.Errorf("%s: the set's checked expression differs from the checker's:\n%v\n%v", x, a, b)
		}
		if got.Source().Content() != x {
			t.Errorf("%s: source %q", x, got.Source().Content())
		}
	}
	if stored.Hits() != len(exprs) || stored.Misses() != 0 {
		t.Errorf("%d hits, %d misses", stored.Hits(), stored.Misses())
	}
	other := Scope(Declarations(env, 1), []string{"self:dyn", "n:double"})
	if stored.Find(other, exprs[0]) != nil || stored.Find(Scope(Declarations(env, 2), []string{"n:int", "self:dyn"}), exprs[0]) != nil {
		t.Error("found under other declarations")
	}
	if Scope(Declarations(env, 1), []string{"n:int", "self:dyn"}) != scope {
		t.Error("the scope depends on the order of the variables")
	}
	for _, bad := range [][]byte{nil, []byte("nope"), append([]byte(checkedMagic), 1, 2, 3), append(append([]byte(checkedMagic), make([]byte, 32)...), 0xff)} {
		if _, err := Read(bad); err == nil {
			t.Errorf("Read(%q) accepted", bad)
		}
	}
}

// FuzzCheckedEntry: whatever the bytes of an entry, decoding it gives an
// AST or nothing; it never panics or runs away.
func FuzzCheckedEntry(f *testing.F) {
	env, scope := checkedEnv(f)
	rec := Record()
	for _, x := range []string{`self.a + 1`, `[1, 2.5, 'x', b"y", 3u, null].size()`, `{"a": 1}.exists(k, k == "a")`, `has(self.b)`} {
		ast, iss := env.Compile(x)
		if iss.Err() != nil {
			f.Fatal(iss.Err())
		}
		rec.Add(scope, x, ast)
	}
	set, err := Read(rec.Marshal())
	if err != nil {
		f.Fatal(err)
	}
	for _, entry := range set.entries {
		f.Add(entry)
	}
	f.Fuzz(func(t *testing.T, entry []byte) {
		c := &Set{entries: map[Key][]byte{{}: entry}, names: set.names, typeData: set.typeData, types: make([]*gocel.Type, len(set.typeData))}
		c.find(Key{}, "self.a + 1")
	})
}

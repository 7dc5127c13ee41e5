package rulesets_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// fuzzBases are the descriptions FuzzFixes mutates: the shipped example,
// the 0.7.0 test descriptions and the migrate golden files.
func fuzzBases(t testing.TB) [][]byte {
	var out [][]byte
	for _, pattern := range []string{"../examples/*.yaml", "../testdata/mcpdesc-0.7.0/*", "../cmd/celint/testdata/migrate/*.golden"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, data)
		}
	}
	if len(out) < 5 {
		t.Fatalf("only %d fuzz bases", len(out))
	}
	return out
}

// mutate makes the mutations ops asks for, two bytes each (which node,
// what), into a description: each is one of the mistakes the fixes mend,
// or another, and is skipped where it cannot be made.
func mutate(name string, src []byte, ops []byte) []byte {
	for i := 0; i+1 < len(ops) && i < 16; i += 2 {
		doc, err := loader.Parse(name, src, loader.DefaultOptions())
		if err != nil {
			return src
		}
		var nodes []*loader.Node
		var walk func(n *loader.Node)
		walk = func(n *loader.Node) {
			nodes = append(nodes, n)
			for _, c := range n.Children() {
				walk(c)
			}
		}
		walk(doc.Root)
		n := nodes[int(ops[i])%len(nodes)]
		var e loader.Edit
		switch ops[i+1] % 8 {
		case 0: // an unknown member
			if n.Kind != loader.Object {
				continue
			}
			e = loader.Edit{Op: loader.Add, Pointer: n.Pointer() + "/colour", Value: "blue"}
		case 1: // an empty collection
			if n.Kind != loader.Object {
				continue
			}
			e = loader.Edit{Op: loader.Add, Pointer: n.Pointer() + "/tags", Value: []any{}}
		case 2: // an item repeated
			if n.Kind != loader.Array || n.Len() == 0 {
				continue
			}
			e = loader.Edit{Op: loader.Add, Pointer: n.Pointer() + "/-", Value: n.Children()[0].Value()}
		case 3: // a boolean written as a string
			if b, ok := n.Value().(bool); !ok || n.Parent == nil {
				continue
			} else {
				e = loader.Edit{Op: loader.Replace, Pointer: n.Pointer(), Value: fmt.Sprint(b)}
			}
		case 4: // a string in upper case
			s, ok := n.Value().(string)
			if !ok || n.Parent == nil {
				continue
			}
			e = loader.Edit{Op: loader.Replace, Pointer: n.Pointer(), Value: strings.ToUpper(s)}
		case 5: // a member removed
			if n.Parent == nil {
				continue
			}
			e = loader.Edit{Op: loader.Remove, Pointer: n.Pointer()}
		case 6: // a type taken away
			if n.Kind != loader.Object || n.Member("type") == nil {
				continue
			}
			e = loader.Edit{Op: loader.Remove, Pointer: n.Pointer() + "/type"}
		case 7: // an empty object
			if n.Kind != loader.Object {
				continue
			}
			e = loader.Edit{Op: loader.Add, Pointer: n.Pointer() + "/capabilities", Value: map[string]any{}}
		}
		out, err := loader.Edits(name, src, loader.DefaultOptions(), []loader.Edit{e})
		if err == nil {
			src = out
		}
	}
	return src
}

// FuzzFixes mutates descriptions and makes their fixes: the result reads,
// a second round of fixes changes nothing, and no rule whose fixes were
// made has more findings than before.
func FuzzFixes(f *testing.F) {
	bases := fuzzBases(f)
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		f.Fatal(err)
	}
	for i := range bases {
		f.Add(uint8(i), []byte{})
		f.Add(uint8(i), []byte{3, 0, 9, 1, 14, 2, 20, 3, 30, 4, 40, 6})
		f.Add(uint8(i), []byte{1, 0, 2, 7, 5, 2, 8, 1, 11, 0})
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, which uint8, ops []byte) {
		name := "d.yaml"
		src := mutate(name, bases[int(which)%len(bases)], ops)
		doc, rs, err := cat.Load(name, src, nil)
		if err != nil {
			return // a mutation that makes it no description
		}
		before, err := rs.Lint(ctx, doc, engine.LintOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := engine.ApplyFixes(ctx, rs, doc, engine.FixOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Stable {
			t.Fatalf("still fixable after %d rounds:\n%s", res.Rounds, res.Source)
		}
		fixed, err := loader.Parse(name, res.Source, rs.LoadOptions)
		if err != nil {
			t.Fatalf("the fixed source does not read: %v\n%s", err, res.Source)
		}
		again, err := engine.ApplyFixes(ctx, rs, fixed, engine.FixOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if string(again.Source) != string(res.Source) {
			t.Fatalf("a second fix changed the document:\n%s\nto\n%s", res.Source, again.Source)
		}
		after, err := rs.Lint(ctx, fixed, engine.LintOptions{})
		if err != nil {
			t.Fatal(err)
		}
		count := func(ds []engine.Diagnostic) map[string]int {
			m := map[string]int{}
			for _, d := range ds {
				m[d.RuleID]++
			}
			return m
		}
		was, now := count(before), count(after)
		for _, d := range res.Fixed {
			if now[d.RuleID] > was[d.RuleID] {
				t.Fatalf("%s: %d findings after its fixes, %d before:\n%s", d.RuleID, now[d.RuleID], was[d.RuleID], res.Source)
			}
		}
	})
}

// TestFuzzFixesMutationsAreFixed: the mutations FuzzFixes makes are ones
// the fixes mend, so that the fuzzer checks fixes being made: each base
// given an unknown member, an empty list, a repeated item and a boolean
// written as a string gets fixes in at least one round.
func TestFuzzFixesMutationsAreFixed(t *testing.T) {
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	bases := fuzzBases(t)
	for _, b := range bases {
		src := mutate("d.yaml", b, []byte{0, 0, 0, 1, 3, 0, 9, 1, 14, 2, 20, 3})
		doc, rs, err := cat.Load("d.yaml", src, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := engine.ApplyFixes(context.Background(), rs, doc, engine.FixOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rounds > 0 {
			made++
		}
	}
	t.Logf("fixes made on %d of %d mutated bases", made, len(bases))
	if made < len(bases)/2 {
		t.Errorf("fixes were made on %d of %d mutated bases", made, len(bases))
	}
}

package cel

import (
	"context"
	"slices"
	"strings"
	"testing"

	gocel "github.com/google/cel-go/cel"
)

// TestLibraryRecordsComplete: every function the library adds to an
// environment has a record, and every record says everything: its
// version, a cost rule that is one thing, a native form, its overloads'
// implementations, a summary, a doc text and at least one example (one
// that reaches the native form, when it has one of its own). A
// function added to the library without its record fails here.
func TestLibraryRecordsComplete(t *testing.T) {
	seen := map[string]bool{}
	for i := range libraryFunctionRecords {
		f := &libraryFunctionRecords[i]
		if f.name == "" || seen[f.name] {
			t.Errorf("record %d: name %q is empty or repeated", i, f.name)
		}
		seen[f.name] = true
		if f.since < 1 || f.since > LatestLibrary {
			t.Errorf("%s: since %d is not a library version (1 to %d)", f.name, f.since, LatestLibrary)
		}
		if !f.cost.complete() && f.cost.byLibrary == nil {
			t.Errorf("%s: the cost rule must be measured or charged afterwards, one of them", f.name)
		}
		if f.native == 0 {
			t.Errorf("%s: no native form", f.name)
		}
		if strings.TrimSpace(f.summary) == "" || strings.TrimSpace(f.doc) == "" {
			t.Errorf("%s: a record needs a summary and a doc text", f.name)
		}
		if len(f.examples) == 0 {
			t.Errorf("%s: a record needs an example", f.name)
		}
		if f.native == nativeUnwrapsOptional && !slices.ContainsFunc(f.examples, func(ex example) bool { return strings.Contains(ex.expr, f.name+"(self.?") }) {
			t.Errorf("%s: the native form %s needs an example that passes an optional selection (%s(self.?a))", f.name, f.native, f.name)
		}
		if len(f.overloads) == 0 {
			t.Errorf("%s: no overloads", f.name)
		}
		for _, o := range f.overloads {
			if o.id == "" || o.impl == nil || o.result == nil {
				t.Errorf("%s: overload %q lacks an id, an implementation or a result type", f.name, o.id)
			} else if n := implArity(o.impl); n >= 0 && n != len(o.params) {
				t.Errorf("%s: overload %s takes %d arguments, its record names %d parameters", f.name, o.id, n, len(o.params))
			}
			if libraryOverloadFunction(o.id) != f {
				t.Errorf("%s: overload id %s is not found back", f.name, o.id)
			}
		}
	}

	// The functions the library adds: those of the full environment that
	// an environment with everything but the library lacks.
	for version := 1; version <= LatestLibrary; version++ {
		e, err := NewEnv(Config{Library: version})
		if err != nil {
			t.Fatal(err)
		}
		bare, err := gocel.NewEnv(bareOptions()...)
		if err != nil {
			t.Fatal(err)
		}
		for name := range e.env.Functions() {
			if _, ok := bare.Functions()[name]; ok {
				continue
			}
			f := libraryFunction(name)
			if f == nil {
				t.Errorf("library %d declares %s, which has no record", version, name)
			} else if f.since > version {
				t.Errorf("library %d declares %s, whose record says it came in library %d", version, name, f.since)
			}
		}
	}
}

// bareOptions are NewEnv's options without the celint library.
func bareOptions() []gocel.EnvOption {
	return append(extensions(),
		gocel.Variable("self", gocel.DynType), gocel.Variable("root", gocel.DynType), gocel.Variable("path", gocel.StringType))
}

// TestLibraryRecordExamples runs every record's examples, each under the
// native evaluator and cel-go at once: a difference of value, error or
// cost between them fails the example (an example that wants an error
// too), as does a result other than its want.
func TestLibraryRecordExamples(t *testing.T) {
	for i := range libraryFunctionRecords {
		f := &libraryFunctionRecords[i]
		for _, ex := range f.examples {
			t.Run(f.name+"/"+ex.expr, func(t *testing.T) {
				version := ex.version
				if version == 0 {
					version = LatestLibrary
				}
				var mismatch string
				e, err := NewEnv(Config{Library: version, ReferenceKey: "$ref", VerifyNative: func(m string) { mismatch = m }})
				if err != nil {
					t.Fatal(err)
				}
				act := map[string]any{"self": nil, "root": nil, "path": ""}
				if f.exampleSelf != "" {
					act["self"] = evalExample(t, e, f.exampleSelf, nil)
					act["root"] = act["self"]
				}
				if f.exampleRoot != "" {
					act["root"] = evalExample(t, e, f.exampleRoot, nil)
				}
				want, isErr := strings.CutPrefix(ex.want, "error: ")
				compileWant, isCompileErr := strings.CutPrefix(ex.want, "compile error: ")
				p, err := e.Compile(ex.expr, Origin{})
				switch {
				case isCompileErr:
					if err == nil || !strings.Contains(err.Error(), compileWant) {
						t.Fatalf("compile %s: error %v, want one containing %q", ex.expr, err, compileWant)
					}
					return
				case err != nil:
					t.Fatalf("compile %s: %v", ex.expr, err)
				}
				got, _, err := p.Eval(context.Background(), act)
				if mismatch != "" {
					t.Errorf("%s: the native evaluator and cel-go differ: %s", ex.expr, mismatch)
				}
				if isErr {
					if err == nil || !strings.Contains(err.Error(), want) {
						t.Fatalf("%s: error %v, want one containing %q", ex.expr, err, want)
					}
					return
				}
				if err != nil {
					t.Fatalf("%s: %v", ex.expr, err)
				}
				wantVal := evalExample(t, e, ex.want, act)
				gotNative, err := ToNative(got)
				if err != nil {
					t.Fatal(err)
				}
				eq := evalExample(t, e, "self == root", map[string]any{"self": gotNative, "root": wantVal, "path": ""})
				if eq != true {
					t.Errorf("%s = %v, want %s (%v)", ex.expr, gotNative, ex.want, wantVal)
				}
			})
		}
	}
}

// evalExample evaluates expr in e with act (nil: self, root and path
// unset) as a Go value.
func evalExample(t *testing.T, e *Env, expr string, act map[string]any) any {
	t.Helper()
	if act == nil {
		act = map[string]any{"self": nil, "root": nil, "path": ""}
	}
	p, err := e.Compile(expr, Origin{})
	if err != nil {
		t.Fatalf("compile %s: %v", expr, err)
	}
	v, _, err := p.Eval(context.Background(), act)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	out, err := ToNative(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

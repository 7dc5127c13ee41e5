package cel

import (
	"fmt"
	"math"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/internal/jsonpointer"
	"github.com/celint/celint/internal/libcache"
)

// Library returns the celint function library as a cel-go library
// ("celint.lib"). Each call makes a new library instance with its own
// compiled-schema cache. NewEnv includes it; use Library directly only to
// add the functions to an environment of your own.
//
// All functions are global (called as f(x), not x.f()). Functions that can
// fail return a CEL error value, which makes the whole expression fail
// unless it is absorbed by || or &&. An argument written as a constant
// that could never work (a JSON Schema that does not compile, say) is a
// compile error at the argument.
//
// Config.Library picks the version of the library (see LatestLibrary): an
// environment of an older version does not declare what later versions
// added. The package documentation describes every function, with the
// version that added it and examples.
func Library(cfg Config) gocel.EnvOption {
	lib, err := newLibrary(cfg)
	if err != nil {
		return func(*gocel.Env) (*gocel.Env, error) { return nil, err }
	}
	return gocel.Lib(lib)
}

// library is one instance of the celint library: its configuration and its
// compiled-schema cache.
type library struct {
	refKey  string
	version int // 1 to LatestLibrary
	// walkBound bounds the nodes one descendants call visits.
	walkBound int
	// The empty values of the total helpers, made once so that asList and
	// asMap never allocate.
	emptyList traits.Lister
	emptyMap  traits.Mapper
	caches    *caches // compiled schemas and parsed URI templates
}

func newLibrary(cfg Config) (*library, error) {
	version := cfg.Library
	if version == 0 {
		version = LatestLibrary
	}
	if version < 1 || version > LatestLibrary {
		return nil, fmt.Errorf("celint: unknown celint library version %d (Config.Library): the newest known is %d, and 0 means the newest", cfg.Library, LatestLibrary)
	}
	c := new(caches)
	if cfg.Caches != nil {
		c = cfg.Caches.Contents(func() libcache.Contents { return c }).(*caches)
	}
	return &library{
		caches:    c,
		refKey:    cfg.ReferenceKey,
		version:   version,
		walkBound: maxDescendantsNodes,
		emptyList: types.NewRefValList(types.DefaultTypeAdapter, []ref.Val{}),
		emptyMap:  types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{}),
	}, nil
}

// LibraryName implements gocel.SingletonLibrary.
func (*library) LibraryName() string { return "celint.lib" }

// CompileOptions implements gocel.Library: the functions of the library's
// version and earlier ones (see libfuncs.go), and the compile-time check
// of constant arguments.
func (l *library) CompileOptions() []gocel.EnvOption {
	opts, err := l.declarations(l.version)
	if err != nil {
		return []gocel.EnvOption{func(*gocel.Env) (*gocel.Env, error) { return nil, err }}
	}
	return append(opts, gocel.ASTValidators(constantArguments{l}))
}

// ProgramOptions implements gocel.Library. The library's functions are
// charged by the guard (guard.go), not by cel-go's cost tracker.
func (l *library) ProgramOptions() []gocel.ProgramOption { return nil }

// stringFunction makes a binding of a string-to-string function.
func stringFunction(f func(string) string) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		s, ok := v.(types.String)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return types.String(f(string(s)))
	}
}

func stringPredicate(f func(string) bool) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		s, ok := v.(types.String)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return types.Bool(f(string(s)))
	}
}

func jsonPointerBinding(v, p ref.Val) ref.Val {
	s, ok := p.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(p)
	}
	tokens, err := jsonpointer.ParseFragment(string(s))
	if err != nil {
		return types.WrapErr(err)
	}
	got, found := lookupPointer(v, tokens)
	if !found {
		return types.OptionalNone
	}
	return types.OptionalOf(got)
}

func jsonPointerTokensBinding(p ref.Val) ref.Val {
	s, ok := p.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(p)
	}
	tokens, err := jsonpointer.ParseFragment(string(s))
	if err != nil {
		return types.WrapErr(err)
	}
	if tokens == nil {
		tokens = []string{}
	}
	return types.NewStringList(types.DefaultTypeAdapter, tokens)
}

func jsonPointerEscapeBinding(p ref.Val) ref.Val {
	s, ok := p.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(p)
	}
	return types.String(jsonpointer.Escape(string(s)))
}

func (l *library) isReferenceBinding(v ref.Val) ref.Val {
	_, ok := l.referenceOf(v)
	return types.Bool(ok)
}

func (l *library) resolveBinding(root, v ref.Val) ref.Val {
	got, err := l.resolve(root, v)
	if err != nil {
		return types.WrapErr(err)
	}
	return got
}

func (l *library) resolveAllBinding(root, v ref.Val) ref.Val {
	if l.refKey == "" {
		return v
	}
	got, err := l.resolveAll(root, v)
	if err != nil {
		return types.WrapErr(err)
	}
	return types.DefaultTypeAdapter.NativeToValue(got)
}

// From version 2, matchesSchema and schemaErrors report a schema that does
// not compile as a result (false; one entry saying why) instead of an
// error. validate compiles first, so a failure is a compile failure exactly
// when schemaProblem, which asks the (cached) compiler again, says so; the
// common path compiles once.

func (l *library) matchesSchemaBinding(v, schema ref.Val) ref.Val {
	issues, err := l.validate(v, schema)
	if err != nil {
		if l.version >= 2 && l.schemaProblem(schema) != "" {
			return types.False
		}
		return types.WrapErr(err)
	}
	return types.Bool(len(issues) == 0)
}

func (l *library) schemaErrorsBinding(v, schema ref.Val) ref.Val {
	issues, err := l.validate(v, schema)
	if err != nil {
		if l.version >= 2 {
			if problem := l.schemaProblem(schema); problem != "" {
				return types.DefaultTypeAdapter.NativeToValue([]any{map[string]any{
					"pointer": "",
					"keyword": "",
					"message": "schema " + problem,
				}})
			}
		}
		return types.WrapErr(err)
	}
	if issues == nil {
		issues = []any{}
	}
	return types.DefaultTypeAdapter.NativeToValue(issues)
}

func duplicatesBinding(v ref.Val) ref.Val {
	list, ok := v.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	dups, _ := findDuplicates(list)
	if dups == nil {
		dups = []ref.Val{}
	}
	return types.NewRefValList(types.DefaultTypeAdapter, dups)
}

func duplicateIndexesBinding(v ref.Val) ref.Val {
	list, ok := v.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	_, idx := findDuplicates(list)
	out := make([]ref.Val, len(idx))
	for i, n := range idx {
		out[i] = types.Int(n)
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

func jsonTypeBinding(v ref.Val) ref.Val {
	if t := jsonTypeOf(v); t != "" {
		return types.String(t)
	}
	return types.NewErr("jsonType: a %s value has no JSON type", v.Type().TypeName())
}

func (l *library) schemaErrorBinding(schema ref.Val) ref.Val {
	return types.String(l.schemaProblem(schema))
}

func (l *library) descendantsBinding(v ref.Val) ref.Val {
	out, err := descendants(v, l.walkBound)
	if err != nil {
		return types.WrapErr(err)
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

// hasNestedKeyBinding reports whether v, or a map nested anywhere inside
// it, has a member named key: a cheap test of whether a rule has anything
// to look at, before it builds lists of what it looks at.
func (l *library) hasNestedKeyBinding(v, key ref.Val) ref.Val {
	k, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key)
	}
	visited := 0
	var found bool
	var err error
	if tv, ok := v.(celtree.TreeValue); ok {
		// A document value is walked in place, in document order, without
		// building its native value.
		found, err = hasNestedKeyTree(tv.Tree(), string(k), &visited, l.walkBound)
	} else {
		native, nerr := ToNative(v)
		if nerr != nil {
			return types.NewErr("hasNestedKey: %v", nerr)
		}
		found, err = hasNestedKey(native, string(k), &visited, l.walkBound)
	}
	if err != nil {
		return types.WrapErr(err)
	}
	return types.Bool(found)
}

// hasNestedKeyTree is hasNestedKey on a document value: a map's own
// members first, then its values and a list's elements in order.
func hasNestedKeyTree(t celtree.Tree, key string, visited *int, bound int) (bool, error) {
	*visited++
	if *visited > bound {
		return false, fmt.Errorf("hasNestedKey: more than %d nodes", bound)
	}
	switch t.JSONType() {
	case celtree.TreeObject:
		if _, ok := t.Member(key); ok {
			return true, nil
		}
		fallthrough
	case celtree.TreeArray:
		for i, n := 0, t.Len(); i < n; i++ {
			_, e := t.At(i)
			if found, err := hasNestedKeyTree(e, key, visited, bound); found || err != nil {
				return found, err
			}
		}
	}
	return false, nil
}

func hasNestedKey(v any, key string, visited *int, bound int) (bool, error) {
	*visited++
	if *visited > bound {
		return false, fmt.Errorf("hasNestedKey: more than %d nodes", bound)
	}
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x[key]; ok {
			return true, nil
		}
		for _, e := range x {
			if found, err := hasNestedKey(e, key, visited, bound); found || err != nil {
				return found, err
			}
		}
	case []any:
		for _, e := range x {
			if found, err := hasNestedKey(e, key, visited, bound); found || err != nil {
				return found, err
			}
		}
	}
	return false, nil
}

func isIntegerBinding(v ref.Val) ref.Val {
	switch t := v.(type) {
	case types.Int, types.Uint:
		return types.True
	case types.Double:
		f := float64(t)
		return types.Bool(!math.IsInf(f, 0) && !math.IsNaN(f) && f == math.Trunc(f))
	}
	return types.False
}

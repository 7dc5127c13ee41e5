package cel

import (
	"fmt"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
)

// libFunction is everything the package knows about one function of the
// celint library, in one value: its declaration (name, version,
// overloads and their implementations), what the guard charges for a
// call (guard.go), what the native evaluator does for it beyond calling
// its implementation (internal/celnative), the checks of its arguments written
// as constants (constargs.go), and its documentation and examples. The
// environment declares the functions from these records, the guard and
// the native evaluator read their cost rules and native forms from them,
// cel/doc.go and the function tables of docs/rule-format.md are generated
// from them, and a test runs every example.
type libFunction struct {
	// name is the function's name; every function is global (f(x), not
	// x.f()).
	name string
	// since is the library version that declared the function first.
	since int
	// overloads are the function's overloads, each with the version that
	// declared it.
	overloads []libOverload
	// cost is what a call costs.
	cost costRule
	// native is what the native evaluator does for a call, beyond calling
	// the overload's implementation.
	native nativeForm
	// constArgs check arguments written as constants when an expression
	// compiles: a problem is a compile error at the argument.
	constArgs []constArgCheck
	// summary says what the function gives in one line of Markdown: the
	// function's row in the tables of docs/rule-format.md.
	summary string
	// doc describes the function in the package documentation: doc
	// comment text, paragraphs separated by blank lines.
	doc string
	// exampleSelf and exampleRoot, when not empty, are CEL expressions
	// whose values the examples see as self and root; root is self when
	// exampleRoot is empty.
	exampleSelf, exampleRoot string
	// examples are calls and what they give, run by a test.
	examples []example
}

// libOverload is one overload of a library function.
type libOverload struct {
	// id is the overload id.
	id string
	// since is the library version that declared the overload; 0 means
	// the function's.
	since int
	// params are the parameters, named for the documentation.
	params []param
	// result is the result type.
	result *gocel.Type
	// summary, when not empty, is the overload's row in the table of its
	// version, when that is not the function's (an overload added later).
	summary string
	// impl implements the overload: a func(ref.Val) ref.Val, func(ref.Val,
	// ref.Val) ref.Val or func(...ref.Val) ref.Val, or the same with a
	// leading *library (a method expression such as
	// (*library).resolveBinding), called with the environment's library.
	impl any
}

// param is a named parameter of an overload.
type param struct {
	name string
	typ  *gocel.Type
}

// version is the library version that declared o, an overload of f.
func (o *libOverload) version(f *libFunction) int {
	if o.since == 0 {
		return f.since
	}
	return o.since
}

// costRule is what a call of a library function costs. A measured call
// costs what its measure says, charged before it runs, and is refused
// when that alone passes the cost limit (guard.go); any other call costs a
// unit plus the length of what it returns, charged after it returns.
type costRule struct {
	// measure measures a call's arguments; nil for a call that is not
	// measured.
	measure callCost
	// byLibrary, when not nil, is the measure of an environment's own
	// library instance, in place of measure wherever the guard has one.
	byLibrary func(*library) callCost
	// afterwards is true for a call that is not measured before it runs.
	afterwards bool
}

// chargedAfterwards is the cost rule of a call whose work is bounded by
// what it returns, or by values already paid for.
var chargedAfterwards = costRule{afterwards: true}

// measured is the cost rule of a call measured by m before it runs.
func measured(m callCost) costRule { return costRule{measure: m} }

// complete reports whether the rule says one thing: measured, or charged
// afterwards.
func (r costRule) complete() bool { return (r.measure != nil) != r.afterwards }

// nativeForm is what the native evaluator does for a call of a library
// function.
type nativeForm int

const (
	// nativeCall: the native evaluator calls the overload's implementation
	// with its arguments' values, as cel-go's dispatcher would, after the
	// guard's measure when the cost rule has one. Nothing of its own.
	nativeCall nativeForm = iota + 1
	// nativeUnwrapsOptional: as nativeCall, but a first argument that is an
	// optional selection (self.?a) is read without building the optional
	// (nchain.execUnwrapped): the implementation takes an optional as the
	// value it holds, so passing the value gives the same result.
	nativeUnwrapsOptional
)

// String names the form, for test messages.
func (n nativeForm) String() string {
	switch n {
	case nativeCall:
		return "the implementation, called directly"
	case nativeUnwrapsOptional:
		return "the implementation, given an optional selection's value"
	}
	return fmt.Sprintf("nativeForm(%d)", int(n))
}

// example is a call of a library function and what it gives.
type example struct {
	// expr is a CEL expression.
	expr string
	// want is the result, a CEL expression whose value the call's equals;
	// or "error: " and part of the text of the error the evaluation
	// gives; or "compile error: " and part of the text of the compile
	// error.
	want string
	// note, when not empty, follows the result in the documentation.
	note string
	// version, when not 0, is the library version the example is for; 0
	// is every version that declares what it calls (it runs at the
	// newest).
	version int
}

// libraryFunctionIndex finds library functions by name and by overload
// id.
type libraryFunctionIndex struct {
	byName     map[string]*libFunction
	byOverload map[string]*libFunction
}

func newLibraryFunctionIndex(fns []libFunction) libraryFunctionIndex {
	ix := libraryFunctionIndex{byName: map[string]*libFunction{}, byOverload: map[string]*libFunction{}}
	for i := range fns {
		f := &fns[i]
		ix.byName[f.name] = f
		for _, o := range f.overloads {
			ix.byOverload[o.id] = f
		}
	}
	return ix
}

// libraryFunctions indexes the records of libfuncs.go; nothing changes
// them.
var libraryFunctions = newLibraryFunctionIndex(libraryFunctionRecords)

// libraryFunction returns the record of the library function named name,
// or nil.
func libraryFunction(name string) *libFunction { return libraryFunctions.byName[name] }

// libraryOverloadFunction returns the record of the library function with
// the overload id, or nil.
func libraryOverloadFunction(id string) *libFunction { return libraryFunctions.byOverload[id] }

// unwrapsOptional reports whether the overload's implementation treats an
// optional argument as its value, or as null when it has none
// (unwrapOptional), so that passing the value itself gives the same
// result: the overloads of library functions whose native form is
// nativeUnwrapsOptional.
func unwrapsOptional(overload string) bool {
	f := libraryOverloadFunction(overload)
	return f != nil && f.native == nativeUnwrapsOptional
}

// declarations returns the environment options that declare the library
// functions of version and earlier ones, bound to l.
func (l *library) declarations(version int) ([]gocel.EnvOption, error) {
	var opts []gocel.EnvOption
	for i := range libraryFunctionRecords {
		f := &libraryFunctionRecords[i]
		if f.since > version {
			continue
		}
		var overloads []gocel.FunctionOpt
		for j := range f.overloads {
			o := &f.overloads[j]
			if o.version(f) > version {
				continue
			}
			binding, err := o.binding(l)
			if err != nil {
				return nil, fmt.Errorf("celint: library function %s: %w", f.name, err)
			}
			args := make([]*gocel.Type, len(o.params))
			for k, p := range o.params {
				args[k] = p.typ
			}
			overloads = append(overloads, gocel.Overload(o.id, args, o.result, binding))
		}
		opts = append(opts, gocel.Function(f.name, overloads...))
	}
	return opts, nil
}

// binding binds the overload's implementation to l.
func (o *libOverload) binding(l *library) (gocel.OverloadOpt, error) {
	if n := implArity(o.impl); n >= 0 && n != len(o.params) {
		return nil, fmt.Errorf("overload %s: %d parameters, an implementation of %d", o.id, len(o.params), n)
	}
	switch f := o.impl.(type) {
	case func(ref.Val) ref.Val:
		return gocel.UnaryBinding(f), nil
	case func(ref.Val, ref.Val) ref.Val:
		return gocel.BinaryBinding(f), nil
	case func(...ref.Val) ref.Val:
		return gocel.FunctionBinding(f), nil
	case func(*library, ref.Val) ref.Val:
		return gocel.UnaryBinding(func(v ref.Val) ref.Val { return f(l, v) }), nil
	case func(*library, ref.Val, ref.Val) ref.Val:
		return gocel.BinaryBinding(func(a, b ref.Val) ref.Val { return f(l, a, b) }), nil
	case func(*library, ...ref.Val) ref.Val:
		return gocel.FunctionBinding(func(args ...ref.Val) ref.Val { return f(l, args...) }), nil
	}
	return nil, fmt.Errorf("overload %s: implementation of type %T", o.id, o.impl)
}

// implArity is the number of arguments impl takes, -1 for any.
func implArity(impl any) int {
	switch impl.(type) {
	case func(ref.Val) ref.Val, func(*library, ref.Val) ref.Val:
		return 1
	case func(ref.Val, ref.Val) ref.Val, func(*library, ref.Val, ref.Val) ref.Val:
		return 2
	}
	return -1
}

// costFor returns the measure of a call of the function in an environment
// whose library is lib (nil when the guard has none); ok is false when a
// call is charged afterwards.
func (f *libFunction) costFor(lib *library) (callCost, bool) {
	r := f.cost
	if r.measure == nil {
		return nil, false
	}
	if r.byLibrary != nil && lib != nil {
		return r.byLibrary(lib), true
	}
	return r.measure, true
}

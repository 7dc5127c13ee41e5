package cel

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/internal/exprcache"
	"github.com/celint/celint/internal/libcache"
	gocel "github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/ext"
)

// DefaultCostLimit is the per-evaluation CEL cost limit used when
// Config.CostLimit is zero.
const DefaultCostLimit = 1_000_000

// LatestLibrary is the newest version of the celint function library.
// Version 1 is the library as first released; version 2 adds asList,
// asMap, asString, asInt, descendants, indexesBy, indexOf,
// tryBase64Decode, quote and schemaError, and makes matchesSchema and
// schemaErrors report a schema that does not compile as a result instead
// of an error; version 3 adds schema options to matchesSchema,
// schemaErrors and schemaError, and schemaExternalRefs, isURITemplate,
// uriTemplateVariables, uriTemplateMatches, isMediaType, mediaTypeEssence
// and isCanonicalBase64; version 4 adds hasNestedKey. See Config.Library.
const LatestLibrary = 4

// interruptCheckFrequency is how many comprehension iterations run between
// checks of the evaluation context for cancellation.
const interruptCheckFrequency = 100

// Config configures an environment.
type Config struct {
	// ReferenceKey is the member name that marks a reference object, e.g.
	// {"<key>": "#/a/b"}. When it is empty no value is a reference: resolve()
	// and resolveAll() return their argument unchanged and isReference() is
	// always false.
	ReferenceKey string
	// Variables are extra top-level variables (besides self, root and path).
	Variables []Var
	// CostLimit is the per-evaluation CEL cost limit; 0 means
	// DefaultCostLimit.
	CostLimit uint64
	// Library is the version of the celint function library the
	// expressions are written for, 1 to LatestLibrary; 0 means
	// LatestLibrary. An environment declares only the functions of its
	// version and earlier ones, so an expression calling a newer function
	// does not compile, and the functions behave as they did in that
	// version. Any other value is an error from NewEnv.
	Library int
	// Extra are further cel-go options, applied last: for example the
	// functions of a program that embeds celint. A panic inside such a
	// function is recovered and returned as an error wrapping ErrPanic.
	Extra []gocel.EnvOption
	// Caches, when not nil, holds the compiled schemas and parsed URI
	// templates of the library's functions, shared by every environment
	// built with the same Caches (package engine's environments of one
	// ruleset and those extending it), so that a schema they all read is
	// compiled once, and forgotten for a document once. Nil gives the
	// environment caches of its own.
	Caches *libcache.Caches
	// VerifyNative, when not nil, makes every evaluation that the native
	// evaluator completes run in cel-go as well, and is called with a
	// description of each difference of value or cost between the two.
	// It is for tests: it doubles the work. When it is nil and the
	// environment variable CELINT_VERIFY_NATIVE is set, a difference is
	// printed on stderr and ends the process with exit code 3.
	VerifyNative func(mismatch string)
	// Checked, when not nil, holds expressions checked in an earlier run:
	// an expression found there is not parsed and type-checked again; one
	// compiled anew is added when the set records. The embedded rulesets
	// carry their own; package cel reads what a program recorded itself.
	Checked *exprcache.Set
}

// caches holds what the library's functions compile from values: JSON
// Schemas and URI templates, each cache bounded. It is safe for concurrent
// use; the zero value is ready to use.
type caches struct {
	schemas   schema3Cache
	templates templateCache
}

// ForgetOwner implements libcache.Contents. While the caches hold the
// values of that document alone, it does not visit the values themselves:
// a document's thousands of schemas are scattered over its tree, and
// reading each would cost more than the rest of a small rule's lint.
func (c *caches) ForgetOwner(owner any) {
	s := &c.schemas
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, only := s.owners[owner]; only && len(s.owners) == 1 {
		s.forgetLocked(func(celtree.Tree) bool { return true })
	} else {
		s.forgetLocked(func(t celtree.Tree) bool {
			o, ok := t.(celtree.Owned)
			return ok && o.Owner() == owner
		})
	}
	delete(s.owners, owner)
}

// Var declares a variable of an environment.
type Var struct {
	Name string
	Type *gocel.Type
}

// Env is a CEL environment with the celint library. It is safe for
// concurrent use.
type Env struct {
	env   *gocel.Env
	lib   *library
	limit uint64
	vars  []Var // every declared variable, base ones included
	cache *programCache
	guard *guard // measures the calls charged before they run
	// verify receives the differences between native and cel-go
	// evaluations (Config.VerifyNative); nil: no second evaluation.
	verify func(string)

	checked *exprcache.Set // nil: every expression is parsed and checked
	decl    exprcache.Key  // what checking depends on besides the variables
	sig     exprcache.Key  // decl and the variables: the scope of this environment's entries
}

// programCache holds the compiled programs of a family of environments
// (an Env and everything Extend'ed from it), keyed by the declared
// variables and the expression text.
type programCache struct {
	mu       sync.Mutex
	programs map[string]*Program
}

func newProgramCache() *programCache {
	return &programCache{programs: map[string]*Program{}}
}

// NewEnv returns an environment declaring the variables `self` (dyn: the
// selected node), `root` (dyn: the whole document) and `path` (string: the
// JSON Pointer of self), plus cfg.Variables; the cel-go extension libraries
// strings, lists, sets, math, bindings (cel.bind), encoders (base64),
// two-variable comprehensions, regex and optional types; cross-type numeric
// comparisons (1 < 2.5); and Library(cfg), at version cfg.Library.
func NewEnv(cfg Config) (*Env, error) {
	limit := cfg.CostLimit
	if limit == 0 {
		limit = DefaultCostLimit
	}
	lib, err := newLibrary(cfg)
	if err != nil {
		return nil, err
	}
	// A descendants walk longer than the cost limit would exceed it anyway
	// (it costs a unit per node), so it may stop there.
	if limit < uint64(lib.walkBound) {
		lib.walkBound = int(limit)
	}
	base := []Var{
		{Name: "self", Type: gocel.DynType},
		{Name: "root", Type: gocel.DynType},
		{Name: "path", Type: gocel.StringType},
	}
	vars := append(base, cfg.Variables...)
	opts := append(extensions(), gocel.Lib(lib))
	for _, v := range vars {
		if err := checkVar(v); err != nil {
			return nil, err
		}
		opts = append(opts, gocel.Variable(v.Name, v.Type))
	}
	opts = append(opts, cfg.Extra...)
	env, err := gocel.NewEnv(opts...)
	if err != nil {
		return nil, fmt.Errorf("celint: building the CEL environment: %w", err)
	}
	g, err := newGuard(env, lib, limit)
	if err != nil {
		return nil, fmt.Errorf("celint: building the CEL environment: %w", err)
	}
	e := &Env{env: env, lib: lib, limit: limit, vars: vars, cache: newProgramCache(), guard: g, checked: cfg.Checked, verify: cfg.VerifyNative}
	if e.verify == nil && os.Getenv("CELINT_VERIFY_NATIVE") != "" {
		e.verify = exitOnMismatch
	}
	if e.checked != nil {
		e.decl = exprcache.Declarations(env, lib.version)
		e.sig = exprcache.Scope(e.decl, varScopes(vars))
	}
	return e, nil
}

// extensions are the cel-go libraries and options every environment has
// besides the celint library.
func extensions() []gocel.EnvOption {
	return []gocel.EnvOption{
		ext.Strings(),
		ext.Lists(),
		ext.Sets(),
		ext.Math(),
		ext.Bindings(),
		ext.Encoders(),
		gocel.OptionalTypes(), // before ext.Regex, which requires it
		ext.TwoVarComprehensions(),
		ext.Regex(),
		gocel.CrossTypeNumericComparisons(true),
	}
}

// exitOnMismatch is VerifyNative under CELINT_VERIFY_NATIVE: a difference
// between the evaluators ends the process, so that no test run can miss it.
func exitOnMismatch(mismatch string) {
	fmt.Fprintf(os.Stderr, "celint: native and cel-go evaluations differ: %s\n", mismatch)
	os.Exit(3)
}

func checkVar(v Var) error {
	if v.Name == "" {
		return fmt.Errorf("celint: a variable has no name")
	}
	if v.Type == nil {
		return fmt.Errorf("celint: variable %q has no type", v.Name)
	}
	return nil
}

// CostLimit returns the per-evaluation cost limit of programs compiled in e.
func (e *Env) CostLimit() uint64 { return e.limit }

// LibraryVersion returns the version of the celint library declared in e,
// 1 to LatestLibrary (Config.Library, with 0 made LatestLibrary).
func (e *Env) LibraryVersion() int { return e.lib.version }

// Extend returns an environment with the same library instance (and so the
// same schema cache and program cache) that also declares vars. Use it for
// rule-level variables and loop variables (item, key, index).
func (e *Env) Extend(vars ...Var) (*Env, error) {
	opts := make([]gocel.EnvOption, 0, len(vars))
	for _, v := range vars {
		if err := checkVar(v); err != nil {
			return nil, err
		}
		opts = append(opts, gocel.Variable(v.Name, v.Type))
	}
	env, err := e.env.Extend(opts...)
	if err != nil {
		return nil, fmt.Errorf("celint: extending the CEL environment: %w", err)
	}
	all := append(append([]Var(nil), e.vars...), vars...)
	ext := &Env{env: env, lib: e.lib, limit: e.limit, vars: all, cache: e.cache, guard: e.guard, checked: e.checked, decl: e.decl, verify: e.verify}
	if ext.checked != nil {
		ext.sig = exprcache.Scope(e.decl, varScopes(all))
	}
	return ext, nil
}

// cacheKey is the program cache key of expr: the library version, the
// declared variables and the text. (Environments of one cache share a
// library instance, and so a version, but the key does not rely on it.)
func (e *Env) cacheKey(expr string) string {
	parts := make([]string, len(e.vars))
	for i, v := range e.vars {
		parts[i] = v.Name + ":" + v.Type.String()
	}
	sort.Strings(parts)
	return "lib" + strconv.Itoa(e.lib.version) + "\x00" + strconv.FormatUint(e.limit, 10) + "\x00" + strings.Join(parts, ",") + "\x00" + expr
}

// WithCostLimit returns an environment like e whose programs have limit as
// their per-evaluation cost limit (0 means DefaultCostLimit): for
// expressions evaluated once per document, whose work grows with it.
func (e *Env) WithCostLimit(limit uint64) *Env {
	if limit == 0 {
		limit = DefaultCostLimit
	}
	cp := *e
	cp.limit = limit
	cp.guard = &guard{limit: limit, impls: e.guard.impls}
	return &cp
}

// Origin says where an expression's text sits in a source file, so that
// compile errors point into the YAML file holding it.
type Origin struct {
	File string
	// Line and Col are the 1-based position of the expression's first
	// character.
	Line, Col int
	// Block is true when the text came from a YAML block scalar (| or >):
	// its line k (0-based) sits on source line Line+k, and column c
	// (1-based) of that line sits at source column Indent+c.
	Block  bool
	Indent int
}

// position maps a 1-based line and column within the expression text to a
// position in the source file.
func (o Origin) position(line, col int) (int, int) {
	if line < 1 {
		line, col = 1, 1
	}
	if col < 1 {
		col = 1
	}
	if o.Line < 1 {
		// No known origin: positions within the expression itself.
		return line, col
	}
	if o.Block {
		return o.Line + line - 1, o.Indent + col
	}
	if line == 1 {
		c := o.Col
		if c < 1 {
			c = 1
		}
		return o.Line, c + col - 1
	}
	// Later lines of a multi-line quoted or plain scalar: YAML folds and
	// re-indents them, so only the line is a good guess.
	return o.Line + line - 1, col
}

// Issue is one compile problem at a source position.
type Issue struct {
	File      string
	Line, Col int
	Msg       string
}

func (i Issue) String() string {
	file := i.File
	if file == "" {
		file = "<expression>"
	}
	return fmt.Sprintf("%s:%d:%d: %s", file, i.Line, i.Col, i.Msg)
}

// CompileError lists every problem found while compiling an expression.
type CompileError struct {
	Issues []Issue
}

// Error joins the issues, one "file:line:col: message" per line.
func (e *CompileError) Error() string {
	parts := make([]string, len(e.Issues))
	for i, is := range e.Issues {
		parts[i] = is.String()
	}
	return strings.Join(parts, "\n")
}

// Compile parses and type-checks expr. On failure the error is a
// *CompileError whose issues are positioned through o. Successful
// compilations are cached by expression text, declared variables and
// library version, so compiling the same text twice in an environment (or
// one Extend'ed with the same variables) returns the same *Program. The
// cache is not bounded: it holds one entry per distinct expression of the
// loaded rules.
func (e *Env) Compile(expr string, o Origin) (*Program, error) {
	key := e.cacheKey(expr)
	e.cache.mu.Lock()
	p, ok := e.cache.programs[key]
	e.cache.mu.Unlock()
	if ok {
		return p, nil
	}
	var ast *gocel.Ast
	if e.checked != nil {
		ast = e.checked.Find(e.sig, expr)
	}
	if ast == nil {
		var err error
		if ast, err = e.check(expr, o); err != nil {
			return nil, err
		}
		if e.checked != nil {
			e.checked.Add(e.sig, expr, ast)
		}
	}
	loops := len(celast.MatchDescendants(celast.NavigateAST(ast.NativeRep()), celast.KindMatcher(celast.ComprehensionKind))) > 0
	free := e.declared(freeVariables(ast.NativeRep().Expr()))
	p = &Program{interp: &interpreted{ast: ast, env: e}, out: ast.OutputType(), limit: e.limit, loops: loops, free: free,
		nat: &nativeSlot{ast: ast.NativeRep(), env: e}, verify: e.verify, text: expr}
	p.direct = p.verify == nil && !p.Interruptible()
	e.cache.mu.Lock()
	defer e.cache.mu.Unlock()
	if prev, ok := e.cache.programs[key]; ok {
		return prev, nil
	}
	e.cache.programs[key] = p
	return p, nil
}

// interpreted is an expression's cel-go program, made when first needed.
type interpreted struct {
	ast  *gocel.Ast
	env  *Env
	once sync.Once
	prg  gocel.Program
	err  error
}

// program returns the cel-go program, making it on the first call. Cost
// is counted by the guard's meter, not by cel-go's cost tracker (see
// guard.go): no cost option is set, so the trackers libraries declare stay
// unused. Planning a checked expression of the environment does not fail
// (TestProgramsPlan plans every embedded one); an error would be the
// evaluation's.
func (i *interpreted) program() (gocel.Program, error) {
	i.once.Do(func() {
		i.prg, i.err = i.env.env.Program(i.ast,
			gocel.InterruptCheckFrequency(interruptCheckFrequency),
			gocel.CustomDecoratorV2(i.env.guard.decorate),
		)
		if i.err != nil {
			i.err = fmt.Errorf("celint: cannot plan the expression: %w", i.err)
		}
	})
	return i.prg, i.err
}

// declared returns the names that are variables of e (an identifier may
// also name a type, such as string or map).
func (e *Env) declared(names []string) []string {
	out := names[:0]
	for _, n := range names {
		if slices.ContainsFunc(e.vars, func(v Var) bool { return v.Name == n }) {
			out = append(out, n)
		}
	}
	return out
}

// check parses and type-checks expr; errors are positioned through o.
func (e *Env) check(expr string, o Origin) (*gocel.Ast, error) {
	ast, iss := e.env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		ce := &CompileError{}
		for _, err := range iss.Errors() {
			line, col := err.Location.Line(), err.Location.Column()+1
			l, c := o.position(line, col)
			ce.Issues = append(ce.Issues, Issue{File: o.File, Line: l, Col: c, Msg: err.Message})
		}
		if len(ce.Issues) == 0 {
			l, c := o.position(1, 1)
			ce.Issues = append(ce.Issues, Issue{File: o.File, Line: l, Col: c, Msg: iss.Err().Error()})
		}
		return nil, ce
	}
	return ast, nil
}

// varScopes gives each variable as the checked-expression cache scopes
// it: its name, a colon and its type.
func varScopes(vars []Var) []string {
	out := make([]string, len(vars))
	for i, v := range vars {
		out[i] = v.Name + ":" + v.Type.String()
	}
	return out
}

// Package engine compiles rulesets written as data and evaluates them on
// located documents, producing diagnostics. It knows nothing of any one
// document format's domain: what a format needs (an inherited scope, a
// reference key, document-level variables) is declared by its ruleset.
package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	gocel "github.com/google/cel-go/cel"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/loader"
)

// HeaderFile is the name of a ruleset's header file inside its folder.
const HeaderFile = "ruleset.yaml"

// Ruleset is a compiled, immutable set of rules pinned at one spec tag. It is
// safe for concurrent use.
type Ruleset struct {
	Name       string
	Tag        string
	Title      string
	SourceBase string // URL prefix of the rule files at the pinned tag, if published
	// Accepts says which documents the ruleset is for; nil accepts any.
	Accepts *Accepts
	// LoadOptions are the serialization restrictions and limits documents
	// are read with.
	LoadOptions loader.Options
	// FS and Dir locate the ruleset folder; Fixtures is the fixture folder
	// inside FS ("" when there is none).
	FS       fs.FS
	Dir      string
	Fixtures string
	// Rules are sorted by id.
	Rules []*Rule
	// Sources holds each rule file's text by file name, for documentation.
	Sources map[string][]byte

	env         *cel.Env
	docVars     []*variable
	scopeMember string
	refKey      string
	refNeedle   []byte   // the reference key as a member name in compact JSON: "key":
	resolver    *program // resolveAll(root, self), when references are configured
	costLimit   uint64
}

// Accepts names the member that declares a document's version, and the
// versions a ruleset accepts.
type Accepts struct {
	Path     string
	Versions []string
	sel      *selector
}

// Version returns the version doc declares, and whether it declares one.
func (a *Accepts) Version(doc *loader.Document) (string, bool) {
	n := a.versionNode(doc)
	if n == nil {
		return "", false
	}
	return n.Value.(string), true
}

// versionNode returns the first string node the accepts path selects.
func (a *Accepts) versionNode(doc *loader.Document) *loader.Node {
	var found *loader.Node
	_ = a.sel.match(doc, func(n *loader.Node) {
		if _, ok := n.Value.(string); ok && found == nil {
			found = n
		}
	})
	return found
}

// AcceptsDocument reports whether the ruleset is for doc.
func (rs *Ruleset) AcceptsDocument(doc *loader.Document) bool {
	if rs.Accepts == nil {
		return true
	}
	v, ok := rs.Accepts.Version(doc)
	return ok && slices.Contains(rs.Accepts.Versions, v)
}

// ScopeKey returns the member that carries a node's inherited scope, and
// that rules use to limit themselves to some scope values; "" when the
// ruleset declares no scope.
func (rs *Ruleset) ScopeKey() string { return rs.scopeMember }

// Rule returns the rule with the given id, or nil.
func (rs *Ruleset) Rule(id string) *Rule {
	i, ok := slices.BinarySearchFunc(rs.Rules, id, func(r *Rule, id string) int { return strings.Compare(r.ID, id) })
	if !ok {
		return nil
	}
	return rs.Rules[i]
}

// String returns "name@tag".
func (rs *Ruleset) String() string { return rs.Name + "@" + rs.Tag }

// Rule is one compiled rule. Its metadata is the spec as written.
type Rule struct {
	loader.RuleSpec
	ID       string
	Severity Severity
	// FileName is the rule file's base name; Tag is the spec tag the rule is
	// pinned at; SourceURL is the rule file at that tag, when published.
	FileName  string
	Tag       string
	SourceURL string

	given       []*selector
	when        *program
	docVars     []*variable
	vars        []*variable
	schema      *cel.Schema
	checks      []*check
	scopeValues []string // nil: independent of the scope
}

type variable struct {
	name string
	prg  *program
}

// program is a compiled expression and where it is written, so that a rule
// error names the rule file, line and column of the expression that failed.
type program struct {
	*cel.Program
	at string
}

func compileExpr(env *cel.Env, file string, e loader.Expr) (*program, error) {
	return compileAt(env, e.Text, origin(file, e))
}

func compileAt(env *cel.Env, text string, o cel.Origin) (*program, error) {
	p, err := env.Compile(text, o)
	if err != nil {
		return nil, err
	}
	return &program{Program: p, at: fmt.Sprintf("%s:%d:%d", o.File, o.Line, o.Col)}, nil
}

// Options tune loading.
type Options struct {
	// CostLimit bounds one CEL evaluation; 0 means cel.DefaultCostLimit.
	CostLimit uint64
	// Functions are extra cel-go options for every rule's environment, such
	// as custom functions of a program that embeds the engine.
	Functions []gocel.EnvOption
}

// LoadRuleset reads and compiles the ruleset in folder dir of fsys: its
// header (ruleset.yaml) and every other *.yaml file as a rule file. Every
// problem is reported with its file:line:col.
func LoadRuleset(fsys fs.FS, dir string, opts Options) (*Ruleset, error) {
	hdrName := path.Join(dir, HeaderFile)
	data, err := fs.ReadFile(fsys, hdrName)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hdrName, err)
	}
	spec, err := loader.ReadRulesetSpec(hdrName, data)
	if err != nil {
		return nil, err
	}
	rs, err := newRuleset(spec, fsys, dir, opts)
	if err != nil {
		return nil, err
	}
	rules, err := rs.readRules(fsys, dir)
	if err != nil {
		return nil, err
	}
	if err := rs.setRules(rules); err != nil {
		return nil, err
	}
	return rs, nil
}

// WithRules returns a copy of rs in which the rules of every *.yaml file in
// folder dir of fsys are added, replacing rules of the same id. The folder
// needs no header: its rules are compiled in rs's context.
func (rs *Ruleset) WithRules(fsys fs.FS, dir string) (*Ruleset, error) {
	extra, err := rs.readRules(fsys, dir)
	if err != nil {
		return nil, err
	}
	if len(extra) == 0 {
		return nil, fmt.Errorf("%s: no rule files (*.yaml) found", dir)
	}
	cp := *rs
	cp.Sources = make(map[string][]byte, len(rs.Sources))
	for k, v := range rs.Sources {
		cp.Sources[k] = v
	}
	byID := map[string]*Rule{}
	for _, r := range rs.Rules {
		byID[r.ID] = r
	}
	for _, r := range extra {
		byID[r.ID] = r
	}
	var rules []*Rule
	for _, r := range byID {
		rules = append(rules, r)
	}
	if err := cp.setRules(rules); err != nil {
		return nil, err
	}
	return &cp, nil
}

func newRuleset(spec *loader.RulesetSpec, fsys fs.FS, dir string, opts Options) (*Ruleset, error) {
	rs := &Ruleset{
		Name: spec.Name, Tag: spec.Tag, Title: spec.Title, SourceBase: spec.SourceBase,
		FS: fsys, Dir: dir, Sources: map[string][]byte{}, costLimit: opts.CostLimit,
	}
	var issues loader.Issues
	fail := func(p loader.Pos, format string, args ...any) {
		issues = append(issues, &loader.Error{File: spec.File, Pos: p, Msg: fmt.Sprintf(format, args...)})
	}
	if spec.Accepts != nil {
		sel, err := parseSelector(spec.Accepts.Path.Value)
		if err != nil {
			fail(spec.Accepts.Path.Pos, "accepts.path: %v", err)
		}
		rs.Accepts = &Accepts{Path: spec.Accepts.Path.Value, Versions: spec.Accepts.Versions, sel: sel}
	}
	lo := loader.DefaultOptions()
	lo.Reject = 0
	for _, r := range spec.Loader.Reject {
		f, _ := loader.ParseFeature(r.Value) // checked by ReadRulesetSpec
		lo.Reject |= f
	}
	if len(spec.Loader.Reject) == 0 {
		lo.Reject = loader.DefaultOptions().Reject
	}
	if l := spec.Loader.Limits; l.Bytes > 0 {
		lo.Limits.Bytes = l.Bytes
	}
	if l := spec.Loader.Limits; l.Depth > 0 {
		lo.Limits.Depth = l.Depth
	}
	if l := spec.Loader.Limits; l.Values > 0 {
		lo.Limits.Values = l.Values
	}
	if l := spec.Loader.Limits; l.ScalarBytes > 0 {
		lo.Limits.ScalarBytes = l.ScalarBytes
	}
	rs.LoadOptions = lo
	if spec.Fixtures != "" {
		rs.Fixtures = path.Join(dir, spec.Fixtures)
	}
	cfg := cel.Config{CostLimit: opts.CostLimit, Extra: opts.Functions}
	if spec.Context.Scope != nil {
		if spec.Context.Scope.Member == "" {
			fail(spec.Pos, "context.scope needs a 'member'")
		}
		rs.scopeMember = spec.Context.Scope.Member
	}
	cfg.Variables = append(cfg.Variables, cel.Var{Name: "scope", Type: gocel.DynType})
	if spec.Context.References != nil {
		cfg.ReferenceKey = spec.Context.References.Key
		rs.refKey = cfg.ReferenceKey
		quoted, _ := json.Marshal(rs.refKey) // a string always marshals
		rs.refNeedle = append(quoted, ':')
	}
	if len(issues) > 0 {
		return nil, issues
	}
	env, err := cel.NewEnv(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.File, err)
	}
	env, rs.docVars, err = compileVars(env, spec.File, spec.Variables)
	if err != nil {
		return nil, err
	}
	rs.env = env
	if cfg.ReferenceKey != "" {
		rs.resolver, err = compileAt(env, "resolveAll(root, self)", cel.Origin{File: spec.File, Line: spec.Pos.Line, Col: spec.Pos.Col})
		if err != nil {
			return nil, fmt.Errorf("internal error: %w", err)
		}
	}
	return rs, nil
}

func compileVars(env *cel.Env, file string, vars loader.Vars) (*cel.Env, []*variable, error) {
	var out []*variable
	for _, v := range vars {
		prg, err := compileExpr(env, file, v.Expr)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, &variable{name: v.Name, prg: prg})
		env, err = env.Extend(cel.Var{Name: v.Name, Type: prg.OutputType()})
		if err != nil {
			return nil, nil, &loader.Error{File: file, Pos: v.NamePos, Msg: err.Error()}
		}
	}
	return env, out, nil
}

func origin(file string, e loader.Expr) cel.Origin {
	return cel.Origin{File: file, Line: e.Pos.Line, Col: e.Pos.Col, Block: e.Block, Indent: e.Indent}
}

// readRules reads and compiles every rule file in dir except the header.
func (rs *Ruleset) readRules(fsys fs.FS, dir string) ([]*Rule, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var rules []*Rule
	var errs []error
	seen := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || name == HeaderFile || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			continue
		}
		file := path.Join(dir, name)
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rf, err := loader.ReadRuleFile(file, data, loader.RuleFileOptions{ScopeKey: rs.scopeMember})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rs.Sources[name] = data
		for i := range rf.Rules {
			spec := rf.Rules[i]
			if prev, dup := seen[spec.ID.Value]; dup {
				errs = append(errs, &loader.Error{File: file, Pos: spec.ID.Pos, Msg: fmt.Sprintf("duplicate rule id %q (first declared at %s)", spec.ID.Value, prev)})
				continue
			}
			seen[spec.ID.Value] = fmt.Sprintf("%s:%s", file, spec.ID.Pos)
			r, err := rs.compileRule(spec, name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			rules = append(rules, r)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return rules, nil
}

func (rs *Ruleset) setRules(rules []*Rule) error {
	slices.SortFunc(rules, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	rs.Rules = rules
	var errs []error
	for _, r := range rules {
		if err := rs.checkExampleSources(r); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// checkExampleSources reports an example naming a fixture that is absent.
func (rs *Ruleset) checkExampleSources(r *Rule) error {
	var errs []error
	for _, ex := range append(slices.Clone(r.Examples.Valid), r.Examples.Invalid...) {
		if ex.Source.Value == "" {
			continue
		}
		if rs.Fixtures == "" {
			errs = append(errs, &loader.Error{File: r.File, Pos: ex.Source.Pos, Msg: fmt.Sprintf("example source %q: the ruleset declares no 'fixtures' folder", ex.Source.Value)})
			continue
		}
		if !fs.ValidPath(ex.Source.Value) {
			errs = append(errs, &loader.Error{File: r.File, Pos: ex.Source.Pos, Msg: fmt.Sprintf("example source %q must be a relative path inside the fixtures folder", ex.Source.Value)})
			continue
		}
		if _, err := fs.Stat(rs.FS, path.Join(rs.Fixtures, ex.Source.Value)); err != nil {
			errs = append(errs, &loader.Error{File: r.File, Pos: ex.Source.Pos, Msg: fmt.Sprintf("example source %q not found in %s", ex.Source.Value, rs.Fixtures)})
		}
	}
	return errors.Join(errs...)
}

func (rs *Ruleset) compileRule(spec loader.RuleSpec, fileName string) (*Rule, error) {
	file := spec.File
	r := &Rule{
		RuleSpec: spec,
		ID:       spec.ID.Value,
		Severity: SeverityOfLevel(spec.Level.Value),
		FileName: fileName,
		Tag:      rs.Tag,
	}
	if rs.SourceBase != "" {
		r.SourceURL = rs.SourceBase + fileName
	}
	var errs []error
	for _, g := range spec.Given {
		sel, err := parseSelector(g.Value)
		if err != nil {
			errs = append(errs, &loader.Error{File: file, Pos: g.Pos, Msg: err.Error()})
			continue
		}
		r.given = append(r.given, sel)
	}
	if spec.Resolve && rs.resolver == nil {
		errs = append(errs, &loader.Error{File: file, Pos: spec.Pos, Msg: "resolve: true needs the ruleset to declare context.references"})
	}
	if !spec.Scope.Independent && len(spec.Scope.List) > 0 {
		r.scopeValues = spec.Scope.List
	}
	if spec.Schema != nil {
		s, err := cel.CompileSchema(spec.Schema.Value)
		if err != nil {
			errs = append(errs, &loader.Error{File: file, Pos: spec.Schema.Pos, Msg: "schema: " + err.Error()})
		}
		r.schema = s
	}
	env, docVars, err := compileVars(rs.env, file, spec.DocVariables)
	if err != nil {
		return nil, errors.Join(append(errs, err)...)
	}
	r.docVars = docVars
	if spec.When != nil {
		if r.when, err = compileExpr(env, file, *spec.When); err != nil {
			errs = append(errs, err)
		}
	}
	env, vars, err := compileVars(env, file, spec.Variables)
	if err != nil {
		return nil, errors.Join(append(errs, err)...)
	}
	r.vars = vars
	for i := range spec.Checks {
		c, err := compileCheck(env, file, &spec.Checks[i])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		r.checks = append(r.checks, c)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return r, nil
}

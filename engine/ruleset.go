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
	"maps"
	"path"
	"slices"
	"strings"

	gocel "github.com/google/cel-go/cel"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/loader"
)

// HeaderFile is the name of a ruleset's header file inside its folder.
const HeaderFile = "ruleset.yaml"

// Ruleset is a compiled set of rules pinned at one spec tag. It is a value:
// nothing changes it once it is built, methods that add rules return a new
// Ruleset, and it is safe for concurrent use.
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

	env         *cel.Env
	docVars     []*variable
	scopeMember string
	refKey      string
	refNeedle   []byte   // the reference key as a member name in compact JSON: "key":
	resolver    *program // resolveAll(root, self), when references are configured
	fixturesAt  string   // the fixture folder as it is reported
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

// Rule is one compiled rule.
type Rule struct {
	ID string
	// Doc is what the rule says about itself: the one value its page,
	// `celint explain` and SARIF rule metadata are made from.
	Doc      loader.RuleDoc
	Severity Severity // from Doc.Level
	// File is the rule file as the user would open it, Pos where the rule
	// starts in it, and Text the file's text.
	File string
	Pos  loader.Pos
	Text []byte
	// Examples are the rule's examples, as written.
	Examples loader.ExamplesSpec
	// Tag is the spec tag the rule is pinned at; SourceURL is its rule file
	// at that tag, when published.
	Tag       string
	SourceURL string

	given       []*selector
	when        *program
	resolve     bool
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
	file string
	pos  loader.Pos
}

func compileExpr(env *cel.Env, file string, e loader.Expr) (*program, error) {
	return compileAt(env, e.Text, cel.Origin{File: file, Line: e.Pos.Line, Col: e.Pos.Col, Block: e.Block, Indent: e.Indent})
}

func compileAt(env *cel.Env, text string, o cel.Origin) (*program, error) {
	p, err := env.Compile(text, o)
	if err != nil {
		return nil, err
	}
	return &program{Program: p, file: o.File, pos: loader.Pos{Line: o.Line, Col: o.Col}}, nil
}

// Options tune loading.
type Options struct {
	// CostLimit bounds one CEL evaluation; 0 means cel.DefaultCostLimit.
	CostLimit uint64
	// Functions are extra cel-go options for every rule's environment, such
	// as custom functions of a program that embeds the engine.
	Functions []gocel.EnvOption
	// Limits override, field by field, the document limits the ruleset
	// declares; zero fields keep them.
	Limits loader.Limits
	// DisplayDir is the name the root of the ruleset's file system is
	// reported under, such as the folder the user named: a file is named
	// path.Join(DisplayDir, its path) in errors and in Rule.File.
	DisplayDir string
}

// RuleFile is the text of one rule file and its name, as the user would
// open it.
type RuleFile struct {
	Name string
	Data []byte
}

// ReadRuleFiles reads every rule file (*.yaml, *.yml) of folder dir of
// fsys except a ruleset header, in name order, naming each
// path.Join(displayDir, its path).
func ReadRuleFiles(fsys fs.FS, dir, displayDir string) ([]RuleFile, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, &loader.Error{File: path.Join(displayDir, dir), Msg: "cannot read the folder: " + unwrapPathError(err), Err: err}
	}
	var out []RuleFile
	var issues loader.Issues
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || name == HeaderFile || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			continue
		}
		file := path.Join(dir, name)
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			issues.Append(&loader.Error{File: path.Join(displayDir, file), Msg: "cannot read: " + unwrapPathError(err), Err: err})
			continue
		}
		out = append(out, RuleFile{Name: path.Join(displayDir, file), Data: data})
	}
	return out, issues.Err()
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// LoadRuleset reads and compiles the ruleset in folder dir of fsys: its
// header (ruleset.yaml) and every other *.yaml file as a rule file. Every
// problem of every file is reported together, as loader.Issues, each with
// its file:line:col.
func LoadRuleset(fsys fs.FS, dir string, opts Options) (*Ruleset, error) {
	hdrName := path.Join(dir, HeaderFile)
	data, err := fs.ReadFile(fsys, hdrName)
	if err != nil {
		return nil, &loader.Error{File: path.Join(opts.DisplayDir, hdrName), Msg: "cannot read the ruleset header: " + unwrapPathError(err), Err: err}
	}
	spec, err := loader.ReadRulesetSpec(path.Join(opts.DisplayDir, hdrName), data)
	if err != nil {
		return nil, err
	}
	rs, err := newRuleset(spec, fsys, dir, opts)
	if err != nil {
		return nil, err
	}
	var issues loader.Issues
	files, err := ReadRuleFiles(fsys, dir, opts.DisplayDir)
	issues.Append(err)
	rules, err := rs.compileFiles(files)
	issues.Append(err)
	if err := issues.Err(); err != nil {
		return nil, err
	}
	return rs.withRules(rules), nil
}

// WithRules returns a new ruleset: rs with the rules of every rule file in
// folder dir of fsys added, each replacing a rule of the same id. The folder
// needs no header: its rules are compiled in rs's context. rs is unchanged.
func (rs *Ruleset) WithRules(fsys fs.FS, dir string) (*Ruleset, error) {
	files, err := ReadRuleFiles(fsys, dir, dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, &loader.Error{File: dir, Msg: "no rule files (*.yaml) found"}
	}
	return rs.WithRuleFiles(files...)
}

// WithRuleFiles returns a new ruleset: rs with the rules of files added,
// each replacing a rule of the same id. rs is unchanged.
func (rs *Ruleset) WithRuleFiles(files ...RuleFile) (*Ruleset, error) {
	rules, err := rs.compileFiles(files)
	if err != nil {
		return nil, err
	}
	byID := map[string]*Rule{}
	for _, r := range rs.Rules {
		byID[r.ID] = r
	}
	for _, r := range rules {
		byID[r.ID] = r
	}
	return rs.withRules(slices.Collect(maps.Values(byID))), nil
}

// withRules returns a copy of rs with these rules, sorted by id.
func (rs *Ruleset) withRules(rules []*Rule) *Ruleset {
	cp := *rs
	slices.SortFunc(rules, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	cp.Rules = rules
	return &cp
}

func overrideLimits(base, l loader.Limits) loader.Limits {
	if l.Bytes > 0 {
		base.Bytes = l.Bytes
	}
	if l.Depth > 0 {
		base.Depth = l.Depth
	}
	if l.Values > 0 {
		base.Values = l.Values
	}
	if l.ScalarBytes > 0 {
		base.ScalarBytes = l.ScalarBytes
	}
	return base
}

func newRuleset(spec *loader.RulesetSpec, fsys fs.FS, dir string, opts Options) (*Ruleset, error) {
	rs := &Ruleset{
		Name: spec.Name, Tag: spec.Tag, Title: spec.Title, SourceBase: spec.SourceBase,
		FS: fsys, Dir: dir,
	}
	var issues loader.Issues
	if spec.Accepts != nil {
		sel, err := parseSelector(spec.Accepts.Path.Value)
		if err != nil {
			issues.Append(&loader.Error{File: spec.File, Pos: spec.Accepts.Path.Pos, Msg: "accepts.path: " + err.Error()})
		}
		rs.Accepts = &Accepts{Path: spec.Accepts.Path.Value, Versions: spec.Accepts.Versions, sel: sel}
	}
	lo := loader.DefaultOptions()
	if len(spec.Loader.Reject) > 0 {
		lo.Reject = 0
		for _, r := range spec.Loader.Reject {
			f, _ := loader.ParseFeature(r.Value) // checked by ReadRulesetSpec
			lo.Reject |= f
		}
	}
	lo.Limits = overrideLimits(overrideLimits(lo.Limits, spec.Loader.Limits), opts.Limits)
	rs.LoadOptions = lo
	if spec.Fixtures != "" {
		rs.Fixtures = path.Join(dir, spec.Fixtures)
		rs.fixturesAt = path.Join(opts.DisplayDir, rs.Fixtures)
	}
	cfg := cel.Config{CostLimit: opts.CostLimit, Extra: opts.Functions}
	if spec.Context.Scope != nil {
		rs.scopeMember = spec.Context.Scope.Member
	}
	cfg.Variables = append(cfg.Variables, cel.Var{Name: "scope", Type: gocel.DynType})
	if spec.Context.References != nil {
		cfg.ReferenceKey = spec.Context.References.Key
		rs.refKey = cfg.ReferenceKey
		quoted, _ := json.Marshal(rs.refKey) // a string always marshals
		rs.refNeedle = append(quoted, ':')
	}
	if err := issues.Err(); err != nil {
		return nil, err
	}
	env, err := cel.NewEnv(cfg)
	if err != nil {
		return nil, &loader.Error{File: spec.File, Msg: err.Error(), Err: err}
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

// compileVars compiles variables in order, each seeing those before it. A
// variable that does not compile is reported, and the ones after it are
// still compiled (without it), so that every problem is reported at once.
func compileVars(env *cel.Env, file string, vars loader.Vars) (*cel.Env, []*variable, error) {
	var out []*variable
	var issues loader.Issues
	for _, v := range vars {
		prg, err := compileExpr(env, file, v.Expr)
		if err != nil {
			issues.Append(err)
			// Declare it all the same, so that what uses it is still checked.
			if next, err := env.Extend(cel.Var{Name: v.Name, Type: gocel.DynType}); err == nil {
				env = next
			}
			continue
		}
		next, err := env.Extend(cel.Var{Name: v.Name, Type: prg.OutputType()})
		if err != nil {
			issues.Append(&loader.Error{File: file, Pos: v.NamePos, Msg: err.Error()})
			continue
		}
		env = next
		out = append(out, &variable{name: v.Name, prg: prg})
	}
	return env, out, issues.Err()
}

// compileFiles reads and compiles the rules of files. Every problem of
// every file is reported, and a rule id declared twice is an error.
func (rs *Ruleset) compileFiles(files []RuleFile) ([]*Rule, error) {
	var rules []*Rule
	var issues loader.Issues
	seen := map[string]string{}
	for _, f := range files {
		rf, err := loader.ReadRuleFile(f.Name, f.Data, loader.RuleFileOptions{ScopeKey: rs.scopeMember})
		if err != nil {
			issues.Append(err)
			continue
		}
		for _, spec := range rf.Rules {
			if prev, dup := seen[spec.ID.Value]; dup {
				issues.Append(&loader.Error{File: f.Name, Pos: spec.ID.Pos, Msg: fmt.Sprintf("duplicate rule id %q (first declared at %s)", spec.ID.Value, prev)})
				continue
			}
			seen[spec.ID.Value] = fmt.Sprintf("%s:%s", f.Name, spec.ID.Pos)
			r, err := rs.compileRule(spec, f.Data)
			issues.Append(err)
			if r != nil {
				rules = append(rules, r)
			}
		}
	}
	return rules, issues.Err()
}

// checkExampleSources reports an example naming a fixture that is absent.
func (rs *Ruleset) checkExampleSources(r *Rule) error {
	var issues loader.Issues
	for _, ex := range r.examples() {
		if ex.Source.Value == "" {
			continue
		}
		if _, _, err := rs.exampleFile(r, ex); err != nil {
			issues.Append(err)
		} else if _, err := fs.Stat(rs.FS, path.Join(rs.Fixtures, ex.Source.Value)); err != nil {
			issues.Append(&loader.Error{File: r.File, Pos: ex.Source.Pos, Msg: fmt.Sprintf("example source %q not found in %s", ex.Source.Value, rs.fixturesAt)})
		}
	}
	return issues.Err()
}

// examples returns the rule's examples, valid ones first.
func (r *Rule) examples() []*loader.ExampleSpec {
	var out []*loader.ExampleSpec
	for i := range r.Examples.Valid {
		out = append(out, &r.Examples.Valid[i])
	}
	for i := range r.Examples.Invalid {
		out = append(out, &r.Examples.Invalid[i])
	}
	return out
}

// compileRule compiles one rule. It returns every problem of the rule, and
// no rule when there is one.
func (rs *Ruleset) compileRule(spec *loader.RuleSpec, text []byte) (*Rule, error) {
	file := spec.File
	r := &Rule{
		ID:       spec.ID.Value,
		Doc:      spec.Doc,
		Severity: SeverityOfLevel(spec.Doc.Level),
		File:     file,
		Pos:      spec.Pos,
		Text:     text,
		Examples: spec.Examples,
		Tag:      rs.Tag,
		resolve:  spec.Resolve,
	}
	if rs.SourceBase != "" {
		r.SourceURL = rs.SourceBase + path.Base(file)
	}
	var issues loader.Issues
	for _, g := range spec.Given {
		sel, err := parseSelector(g.Value)
		if err != nil {
			issues.Append(&loader.Error{File: file, Pos: g.Pos, Msg: err.Error()})
			continue
		}
		r.given = append(r.given, sel)
	}
	if spec.Resolve && rs.resolver == nil {
		issues.Append(&loader.Error{File: file, Pos: spec.Pos, Msg: "resolve: true needs the ruleset to declare context.references"})
	}
	if sc := spec.Doc.Scope; !sc.Independent && len(sc.Values) > 0 {
		r.scopeValues = sc.Values
	}
	if spec.Schema != nil {
		s, err := cel.CompileSchema(spec.Schema.Value)
		if err != nil {
			issues.Append(&loader.Error{File: file, Pos: spec.Schema.Pos, Msg: "schema: " + err.Error(), Err: err})
		}
		r.schema = s
	}
	env, docVars, err := compileVars(rs.env, file, spec.DocVariables)
	issues.Append(err)
	r.docVars = docVars
	if spec.When != nil {
		if r.when, err = compileExpr(env, file, *spec.When); err != nil {
			issues.Append(err)
		}
	}
	env, vars, err := compileVars(env, file, spec.Variables)
	issues.Append(err)
	r.vars = vars
	for i := range spec.Checks {
		c, err := compileCheck(env, file, &spec.Checks[i])
		if err != nil {
			issues.Append(err)
			continue
		}
		r.checks = append(r.checks, c)
	}
	issues.Append(rs.checkExampleSources(r))
	if err := issues.Err(); err != nil {
		return nil, err
	}
	return r, nil
}

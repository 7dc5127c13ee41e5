// Package engine compiles rulesets written as data and evaluates them on
// located documents, producing diagnostics. It knows nothing of any one
// document format's domain: what a format needs (an inherited scope, a
// reference key, document-level variables) is declared by its ruleset.
package engine

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/internal/exprcache"
	"github.com/celint/celint/internal/jsonpointer"
	"github.com/celint/celint/internal/libcache"
	"github.com/celint/celint/loader"
)

// HeaderFile is the name of a ruleset's header file inside its folder.
const HeaderFile = "ruleset.yaml"

// MaxRuleFileBytes is the size limit of a rule file and of a ruleset header.
// Rule files, headers and fixtures are read only when they are regular files
// (after symbolic links); fixtures have the ruleset's document size limit.
const MaxRuleFileBytes = 4 << 20

// Ruleset is a compiled set of rules pinned at one spec tag. It is a value:
// nothing changes it once it is built, methods that add rules return a new
// Ruleset, and it is safe for concurrent use.
type Ruleset struct {
	Name       string
	Tag        string
	Title      string
	SourceBase string // URL prefix of the rule files at the pinned tag, if published
	// Docs are the URL bases of the ruleset's published pages,
	// specification and fixtures (the header's docs block); empty for a
	// ruleset that publishes none. Only its section map (Sections) is
	// inherited through extends, when the header gives none.
	Docs loader.DocsSpec
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

	// Extends is the ruleset this one builds on (name@tag), or "".
	Extends string
	// Migrations upgrade documents of earlier versions to this ruleset's
	// (the header's migrations; not inherited).
	Migrations []Migration

	env        *cel.Env
	opts       Options // as loaded, for rulesets built on this one
	library    int
	caches     *libcache.Caches // shared by the environments of every rule file
	docVars    []*variable
	selections map[string][]string // named selections, expanded to plain paths
	scope      *scopeConfig
	refs       *refConfig
	identities []identity              // array items named by a member (identity.go)
	fixturesAt string                  // the fixture folder as it is reported
	params     map[string]*loader.Node // the header's params, by name
}

// scopeConfig is the ruleset's inherited scope.
type scopeConfig struct {
	member string
	values []string       // closed and ordered, oldest first; nil when not declared
	index  map[string]int // position of each value
	at     []*selector    // where the member counts; nil: everywhere
}

// refConfig is the ruleset's reference objects.
type refConfig struct {
	key     string
	needle  []byte      // the key as a member name appears in Document.JSON: "key"
	at      []*selector // where references are recognised; nil: everywhere
	rule    string      // the rule that reports unresolvable references, or ""
	targets []refTargets
}

// refTargets limits what the references at some places may name: a
// reference object that at selects resolves only to a node that to
// selects.
type refTargets struct {
	at, to []*selector
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
	return n.Value().(string), true
}

// versionNode returns the first string node the accepts path selects.
func (a *Accepts) versionNode(doc *loader.Document) *loader.Node {
	var found *loader.Node
	_ = a.sel.match(doc, func(n *loader.Node) {
		if _, ok := n.Value().(string); ok && found == nil {
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
	// Fixable is true when a check of the rule, or its schemaFixes,
	// declare a fix.
	Fixable bool
	// Fixes describe the rule's fixes, in the order it declares them: its
	// checks' first, then its schemaFixes.
	Fixes []FixDoc
	// Tag is the spec tag the rule is pinned at; SourceURL is its rule file
	// at that tag, when published.
	Tag       string
	SourceURL string

	// Published is set for a rule of its ruleset's own folder, when the
	// ruleset publishes its files or pages: only such a rule's page and
	// diagnostics link upstream (a rule added by a --rules folder gets no
	// invented link).
	Published bool
	// Added is set for a rule that WithFolder or WithRuleFiles added to
	// the ruleset: it comes from its own folder and File, not from the
	// ruleset's files at Tag.
	Added bool

	// Codes are the distinct findings the rule reports: its own (code "")
	// and those of its checks that name one, each with its severity and
	// aliases.
	Codes []Code

	given       []*selector
	assume      *assumption
	when        *program
	resolve     bool
	docVars     []*variable
	vars        []*variable
	schema      *cel.Schema
	schemaPos   loader.Pos                // where the rule's schema fragment is written
	schemaFixes map[string][]*fix         // by keyword, in order; nil: none
	schemaMsgs  map[string]*schemaMsgExpr // messageExpressions by keyword; nil: none
	checks      []*check
	scopeValues []string     // nil: independent of the scope
	fixtures    fixtureDir   // where the examples' sources are
	pending     *pendingBody // loaded lazily: what ready compiles; nil when compiled
	// sched is what the scheduler knows of the rule (schedule.go); no
	// verdict depends on it.
	sched ruleSched
}

// FixDoc describes one fix of a rule, for its documentation.
type FixDoc struct {
	// Code is the code of the check whose findings the fix mends ("" for
	// the rule's own findings); Keyword, for a schema fix, the schema
	// keyword whose findings it mends.
	Code    string
	Keyword string
	// Description is what the fix does, as the rule says it; "" when it
	// says nothing.
	Description string
	// Conditional is true when the fix has a when: it is made only where
	// that holds.
	Conditional bool
}

// Code is one distinct finding of a rule: "" for the rule's own.
type Code struct {
	Name     string
	Severity Severity
	Level    string
	Aliases  []string
	// Inherited is true when the code sets no level of its own: it has
	// the rule's, and a ruleset's levels entry for the rule changes it too.
	Inherited bool
	// OptIn is true for a code reported only on request: its findings are
	// marked Diagnostic.OptIn, and a ruleset's levels entry for id/code
	// (or a config file's, see engine/lint) turns it on.
	OptIn bool
	// Message is the message template of the check that reports the code,
	// or its messageExpression's text; "" for the rule's own code. Pos is
	// where that check starts in the rule's file.
	Message string
	Pos     loader.Pos
}

// assumption is a compiled precondition: a shape, or a CEL condition.
type assumption struct {
	shape *shape
	expr  *program
}

type variable struct {
	name  string
	text  string // the expression
	prg   *program
	reuse // where its value may be reused (markShared); zero: nowhere
}

// program is a compiled expression and where it is written, so that a rule
// error names the rule file, line and column of the expression that failed.
type program struct {
	*cel.Program
	file string
	pos  loader.Pos
}

func compileExpr(env *cel.Env, file string, e loader.Expr) (*program, error) {
	return compileAt(env, e.Text, cel.Origin{File: file, Line: int(e.Pos.Line), Col: int(e.Pos.Col), Block: e.Block, Indent: e.Indent})
}

func compileAt(env *cel.Env, text string, o cel.Origin) (*program, error) {
	p, err := env.Compile(text, o)
	if err != nil {
		return nil, err
	}
	return &program{Program: p, file: o.File, pos: loader.Pos{Line: int32(o.Line), Col: int32(o.Col)}}, nil
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
	// Bases finds the ruleset a header's 'extends' names (name@tag); nil
	// when rulesets cannot extend others.
	Bases func(nameTag string) (*Ruleset, error)
	// Lazy compiles each rule's expressions and schema when a document
	// first selects something for it, not when the ruleset loads: loading
	// then costs little more than reading the files, which is most of a
	// command's start on a small document. It is for rulesets whose rules
	// are known to compile, such as the embedded ones, which their tests
	// compile: a mistake in a rule is then a rule error, at its
	// file:line:col, on the first document the rule applies to, instead
	// of a load error. Rule files added with WithFolder or WithRuleFiles
	// are always compiled when they load.
	Lazy bool
	// Checked, when not nil, holds the rules' expressions as checked in an
	// earlier run, so that they compile without being parsed and
	// type-checked again (see exprcache.Set): for a program's own
	// rulesets, never for rules it is given.
	Checked *exprcache.Set
	// Trees, when not nil, holds rule files parsed in an earlier run, so
	// that they are not parsed again (see loader.Trees); a file is found
	// there by its bytes.
	Trees *loader.Trees
	// Cache, when not nil, keeps what loading one ruleset read and
	// compiled that others loaded with the same Cache can take as it is:
	// a folder several versions include is read once, and a schema
	// fragment they write alike is compiled once.
	Cache *LoadCache
}

// LoadCache keeps, for rulesets loaded together, the rule files as the
// loader read them (by name, bytes and the ruleset's scope key) and the
// compiled schema fragments (by their value and messages). It is safe for
// concurrent use; what it holds is only ever read.
type LoadCache struct {
	mu      sync.Mutex
	files   map[ruleFileKey]*loader.RuleFile
	schemas map[string]*cel.Schema
}

type ruleFileKey struct {
	name, scope string
	sum         [sha256.Size]byte
}

// NewLoadCache returns an empty cache.
func NewLoadCache() *LoadCache {
	return &LoadCache{files: map[ruleFileKey]*loader.RuleFile{}, schemas: map[string]*cel.Schema{}}
}

// compileSchema compiles a rule's schema fragment, through the cache of
// the ruleset's options when it has one.
func (rs *Ruleset) compileSchema(value any, opts cel.SchemaOptions) (*cel.Schema, error) {
	c := rs.opts.Cache
	if c == nil {
		return cel.CompileSchemaWith(value, opts)
	}
	text, err := json.Marshal(value)
	if err != nil {
		return cel.CompileSchemaWith(value, opts)
	}
	key := string(text)
	for _, k := range slices.Sorted(maps.Keys(opts.Messages)) {
		key += "\x00" + k + "\x00" + opts.Messages[k]
	}
	c.mu.Lock()
	s := c.schemas[key]
	c.mu.Unlock()
	if s != nil {
		return s, nil
	}
	s, err = cel.CompileSchemaWith(value, opts)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.schemas[key] = s
	c.mu.Unlock()
	return s, nil
}

// readRuleFile reads f as rs's rule file, through the cache of its
// options when it has one. A file that does not read is not kept; it is
// returned with its error as loader.ReadRuleFile returns it.
func (rs *Ruleset) readRuleFile(f RuleFile) (*loader.RuleFile, error) {
	opts := loader.RuleFileOptions{ScopeKey: rs.scopeKey(), Trees: rs.opts.Trees}
	c := rs.opts.Cache
	if c == nil {
		return loader.ReadRuleFile(f.Name, f.Data, opts)
	}
	key := ruleFileKey{name: f.Name, scope: opts.ScopeKey, sum: sha256.Sum256(f.Data)}
	c.mu.Lock()
	read := c.files[key]
	c.mu.Unlock()
	if read != nil {
		return read, nil
	}
	read, err := loader.ReadRuleFile(f.Name, f.Data, opts)
	if err != nil {
		return read, err
	}
	c.mu.Lock()
	c.files[key] = read
	c.mu.Unlock()
	return read, nil
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
		data, err := loader.ReadFS(fsys, file, path.Join(displayDir, file), MaxRuleFileBytes)
		if err != nil {
			issues.Append(err)
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
	data, err := loader.ReadFS(fsys, hdrName, path.Join(opts.DisplayDir, hdrName), MaxRuleFileBytes)
	if err != nil {
		var le *loader.Error
		if errors.As(err, &le) && le.Limit == "" {
			le.Msg = strings.Replace(le.Msg, "cannot read:", "cannot read the ruleset header:", 1)
		}
		return nil, err
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
	rules, err := rs.compileFiles(files, rs.ownFixtures(), opts.Lazy)
	// Only the rules of the ruleset's own folder are published where its
	// header says: a rule added later (WithFolder, WithRuleFiles) links
	// nowhere upstream.
	for _, r := range rules {
		r.Published = rs.SourceBase != "" || rs.Docs.Pages != ""
		if rs.SourceBase != "" {
			r.SourceURL = rs.SourceBase + path.Base(r.File)
		}
	}
	issues.Append(err)
	rules = mergeRules(rs.inherited(spec, rs.includedRules(spec, &issues), &issues), rules)
	if ref := spec.Context.References; ref != nil && ref.Rule.Value != "" && !slices.ContainsFunc(rules, func(r *Rule) bool { return r.ID == ref.Rule.Value }) {
		issues.Append(&loader.Error{File: spec.File, Pos: ref.Rule.Pos, Msg: fmt.Sprintf("context.references.rule: no rule %q in the ruleset", ref.Rule.Value)})
	}
	if err := issues.Err(); err != nil {
		return nil, err
	}
	return rs.withRules(rules), nil
}

// ownFixtures is where the examples of the ruleset's own rules live.
func (rs *Ruleset) ownFixtures() fixtureDir {
	return fixtureDir{fs: rs.FS, dir: rs.Fixtures, at: rs.fixturesAt}
}

// inherited returns the rules of the ruleset this one extends and those
// of the folders it includes (an included rule replacing an inherited one
// of the same id), without the disabled ones and with the header's level
// changes.
func (rs *Ruleset) inherited(spec *loader.RulesetSpec, included []*Rule, issues *loader.Issues) []*Rule {
	if rs.Extends == "" && len(spec.Include) == 0 {
		return nil
	}
	var from []string
	if rs.Extends != "" {
		from = append(from, rs.Extends)
	}
	for _, inc := range spec.Include {
		from = append(from, inc.Value)
	}
	source := strings.Join(from, " and ")
	byID := map[string]*Rule{}
	if rs.Extends != "" {
		for _, r := range rs.Rules {
			byID[r.ID] = r
		}
	}
	for _, r := range included {
		byID[r.ID] = r
	}
	for _, d := range spec.Disable {
		if _, ok := byID[d.Value]; !ok {
			issues.Append(&loader.Error{File: spec.File, Pos: d.Pos, Msg: fmt.Sprintf("disable: %s has no rule %q", source, d.Value)})
		}
		delete(byID, d.Value)
	}
	for _, l := range spec.Levels {
		id, code, _ := strings.Cut(l.ID.Value, "/")
		r, ok := byID[id]
		if !ok || !slices.ContainsFunc(r.Codes, func(c Code) bool { return c.Name == code }) {
			issues.Append(&loader.Error{File: spec.File, Pos: l.ID.Pos, Msg: fmt.Sprintf("levels: %s has no rule or code %q", source, l.ID.Value)})
			continue
		}
		byID[id] = r.withLevel(code, l.Level.Value)
	}
	return slices.Collect(maps.Values(byID))
}

// LevelLabel is the code's level as rule listings show it: the level, and
// for an opt-in code ", opt-in".
func (c Code) LevelLabel() string {
	if c.OptIn {
		return c.Level + ", opt-in"
	}
	return c.Level
}

// withLevel returns a copy of r in which code ("" for the rule's own
// findings) has the level.
func (r *Rule) withLevel(code, level string) *Rule {
	cp := *r
	sev := SeverityOfLevel(level)
	cp.Codes = slices.Clone(r.Codes)
	for i := range cp.Codes {
		if c := cp.Codes[i]; c.Name == code || code == "" && c.Inherited {
			cp.Codes[i].Severity, cp.Codes[i].Level = sev, level
			if c.Name == code {
				cp.Codes[i].Inherited, cp.Codes[i].OptIn = false, false
			}
		}
	}
	if code == "" {
		cp.Severity, cp.Doc.Level = sev, level
	}
	if p := r.pending; p != nil {
		// Not compiled yet: the copy compiles on its own, then takes the
		// levels given so far, this one last.
		cp.pending = &pendingBody{rs: p.rs, spec: p.spec, levels: append(slices.Clip(p.levels), [2]string{code, level})}
		return &cp
	}
	cp.checks = checksWithLevel(r.checks, code, sev)
	return &cp
}

// checksWithLevel returns copies of checks in which code ("" for the
// rule's own findings, and every check without a level of its own) has
// the severity.
func checksWithLevel(checks []*check, code string, sev Severity) []*check {
	out := make([]*check, len(checks))
	for i, c := range checks {
		cc := *c
		if cc.code == code || code == "" && cc.inheritsLevel {
			cc.severity = sev
		}
		if cc.code == code && code != "" {
			cc.inheritsLevel, cc.optIn = false, false
		}
		out[i] = &cc
	}
	return out
}

// mergeRules returns base with rules added, each replacing a rule of base
// with the same id.
func mergeRules(base, rules []*Rule) []*Rule {
	byID := map[string]*Rule{}
	for _, r := range base {
		byID[r.ID] = r
	}
	for _, r := range rules {
		byID[r.ID] = r
	}
	return slices.Collect(maps.Values(byID))
}

// WithRules returns a new ruleset: rs with the rules of every rule file in
// folder dir of fsys added, each replacing a rule of the same id. The folder
// needs no header: its rules are compiled in rs's context. rs is unchanged.
func (rs *Ruleset) WithRules(fsys fs.FS, dir string) (*Ruleset, error) {
	return rs.WithFolder(Folder{FS: fsys, Dir: dir, Name: dir})
}

// Folder is a folder of rule files to add to a ruleset: folder Dir of FS,
// reported as Name (such as the path the user gave). Its rules' example
// sources are looked up in its own fixtures/ folder when it has one, else
// in the ruleset's. For a folder on disk, use loader.DirFS: only then does
// nothing the folder names leave it through a symbolic link.
type Folder struct {
	FS   fs.FS
	Dir  string
	Name string
}

// FixturesFolder is the folder of fixtures inside a rule folder.
const FixturesFolder = "fixtures"

// WithFolder returns a new ruleset: rs with the rules of every rule file
// of f added, each replacing a rule of the same id. rs is unchanged.
func (rs *Ruleset) WithFolder(f Folder) (*Ruleset, error) {
	files, err := ReadRuleFiles(f.FS, f.Dir, f.Name)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, &loader.Error{File: f.Name, Msg: "no rule files (*.yaml) found"}
	}
	fix := rs.ownFixtures()
	fixDir, fixAt := path.Join(f.Dir, FixturesFolder), path.Join(f.Name, f.Dir, FixturesFolder)
	switch st, err := fs.Stat(f.FS, fixDir); {
	case err == nil && st.IsDir():
		fix = fixtureDir{fs: f.FS, dir: fixDir, at: fixAt}
	case err == nil:
		return nil, &loader.Error{File: fixAt, Msg: "not a folder: a rule folder's fixtures/ must be a folder"}
	case !errors.Is(err, fs.ErrNotExist):
		// Never fall back to the ruleset's fixtures for a folder that is
		// there but cannot be read (one that leads outside, say).
		return nil, &loader.Error{File: fixAt, Msg: "cannot read the fixtures folder: " + unwrapPathError(err), Err: err}
	}
	return rs.withFiles(files, fix)
}

// WithRuleFiles returns a new ruleset: rs with the rules of files added,
// each replacing a rule of the same id. rs is unchanged.
func (rs *Ruleset) WithRuleFiles(files ...RuleFile) (*Ruleset, error) {
	return rs.withFiles(files, rs.ownFixtures())
}

func (rs *Ruleset) withFiles(files []RuleFile, fix fixtureDir) (*Ruleset, error) {
	rules, err := rs.compileFiles(files, fix, false)
	if err != nil {
		return nil, err
	}
	for _, r := range rules {
		r.Added = true
	}
	return rs.withRules(mergeRules(rs.Rules, rules)), nil
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
	var issues loader.Issues
	fail := func(p loader.Pos, format string, args ...any) {
		issues.Append(&loader.Error{File: spec.File, Pos: p, Msg: fmt.Sprintf(format, args...)})
	}
	rs := &Ruleset{opts: opts, caches: new(libcache.Caches)}
	var base *Ruleset
	if spec.Extends.Value != "" {
		if opts.Bases == nil {
			return nil, &loader.Error{File: spec.File, Pos: spec.Extends.Pos, Msg: fmt.Sprintf("extends %s: no rulesets to extend are available here", spec.Extends.Value)}
		}
		b, err := opts.Bases(spec.Extends.Value)
		if err != nil {
			return nil, &loader.Error{File: spec.File, Pos: spec.Extends.Pos, Msg: fmt.Sprintf("extends %s: %v", spec.Extends.Value, err), Err: err}
		}
		base = b
		*rs = *b
		rs.opts = opts
		rs.Extends = b.String()
		if spec.Context.Scope != nil || spec.Context.References != nil || spec.Context.Identity != nil {
			fail(spec.Pos, "a ruleset that extends another inherits its context; leave 'context' out")
		}
	}
	rs.Name, rs.Tag, rs.Title, rs.SourceBase, rs.Docs = spec.Name, spec.Tag, spec.Title, spec.SourceBase, spec.Docs
	if base != nil && rs.Docs.Sections == nil {
		rs.Docs.Sections = base.Docs.Sections // the chapters' pages, which versions usually keep
	}
	rs.FS, rs.Dir, rs.Fixtures, rs.fixturesAt = fsys, dir, "", ""
	rs.Migrations = nil
	for _, m := range spec.Migrations {
		rs.Migrations = append(rs.Migrations, Migration{From: m.From, Dir: path.Join(dir, m.Rules.Value), File: spec.File, Pos: m.Pos})
	}
	if spec.Accepts != nil {
		sel, err := parseSelector(spec.Accepts.Path.Value)
		if err != nil {
			fail(spec.Accepts.Path.Pos, "accepts.path: %v", err)
		}
		rs.Accepts = &Accepts{Path: spec.Accepts.Path.Value, Versions: spec.Accepts.Versions, sel: sel}
	}
	if base == nil || len(spec.Loader.Reject) > 0 || spec.Loader.Limits != (loader.Limits{}) || spec.Loader.Scalars.Value != "" {
		lo := loader.DefaultOptions()
		if base != nil {
			lo = base.LoadOptions
		}
		if len(spec.Loader.Reject) > 0 {
			lo.Reject = 0
			for _, r := range spec.Loader.Reject {
				f, _ := loader.ParseFeature(r.Value) // checked by ReadRulesetSpec
				lo.Reject |= f
			}
		}
		if spec.Loader.Scalars.Value != "" {
			lo.Scalars, _ = loader.ParseScalarSchema(spec.Loader.Scalars.Value) // checked by ReadRulesetSpec
		}
		lo.Limits = overrideLimits(overrideLimits(lo.Limits, spec.Loader.Limits), opts.Limits)
		rs.LoadOptions = lo
	}
	if spec.Fixtures != "" {
		rs.Fixtures = path.Join(dir, spec.Fixtures)
		rs.fixturesAt = path.Join(opts.DisplayDir, rs.Fixtures)
	}
	if base == nil {
		rs.scope = newScopeConfig(spec.Context.Scope)
		rs.refs = newRefConfig(spec.Context.References)
	}
	rs.library = spec.Library
	if base != nil && spec.Library == 0 {
		rs.library = base.library
	}
	if spec.Library > cel.LatestLibrary {
		fail(spec.LibraryPos, "library %d is newer than this celint knows (%d); update celint", spec.Library, cel.LatestLibrary)
	}
	rs.selections = maps.Clone(rs.selections)
	rs.addSelections(spec, fail)
	if rs.scope != nil {
		rs.scope.at = rs.selectors(spec.File, scopeAt(spec), fail, rs.scope.at)
	}
	if rs.refs != nil && spec.Context.References != nil {
		rs.refs.at = rs.selectors(spec.File, spec.Context.References.At, fail, nil)
		rs.refs.targets = nil
		for _, t := range spec.Context.References.Targets {
			rs.refs.targets = append(rs.refs.targets, refTargets{at: rs.selectors(spec.File, t.At, fail, nil), to: rs.selectors(spec.File, t.To, fail, nil)})
		}
	}
	for _, id := range spec.Context.Identity {
		rs.identities = append(rs.identities, identity{at: rs.selectors(spec.File, id.At, fail, nil), member: id.Member.Value})
	}
	if err := issues.Err(); err != nil {
		return nil, err
	}
	env, err := rs.newEnv(spec.File, base, len(spec.Params) > 0)
	if err != nil {
		return nil, err
	}
	headerVars := spec.Variables
	params, err := headerParams(spec)
	if err != nil {
		return nil, err
	}
	if params != nil {
		// An extending ruleset's params replace those of the same name
		// it inherits; CEL reads them all as one new params variable.
		merged := maps.Clone(rs.params)
		if merged == nil {
			merged = map[string]*loader.Node{}
		}
		maps.Copy(merged, params)
		rs.params = merged
		rs.docVars = slices.DeleteFunc(slices.Clone(rs.docVars), func(v *variable) bool { return v.name == ParamsVariable })
		headerVars = append(loader.Vars{paramsVariable(merged, spec.Params[0].Pos)}, headerVars...)
	}
	env, vars, err := compileVars(env, spec.File, headerVars, DocumentCostLimit)
	if err != nil {
		return nil, err
	}
	rs.env = env
	rs.docVars = append(slices.Clip(rs.docVars), vars...)
	return rs, nil
}

func scopeAt(spec *loader.RulesetSpec) []loader.Scalar {
	if spec.Context.Scope == nil {
		return nil
	}
	return spec.Context.Scope.At
}

func newScopeConfig(spec *loader.ScopeSpec) *scopeConfig {
	if spec == nil {
		return nil
	}
	sc := &scopeConfig{member: spec.Member}
	if len(spec.Values) > 0 {
		sc.index = map[string]int{}
		for i, v := range spec.Values {
			sc.values = append(sc.values, v.Value)
			sc.index[v.Value] = i
		}
	}
	return sc
}

func newRefConfig(spec *loader.ReferenceSpec) *refConfig {
	if spec == nil {
		return nil
	}
	return &refConfig{key: spec.Key, needle: loader.AppendJSONString(nil, spec.Key), rule: spec.Rule.Value}
}

// addSelections adds the header's named selections, each expanded to plain
// paths; a selection may use the ones before it and the inherited ones.
func (rs *Ruleset) addSelections(spec *loader.RulesetSpec, fail func(loader.Pos, string, ...any)) {
	if rs.selections == nil {
		rs.selections = map[string][]string{}
	}
	for _, sel := range spec.Selections {
		if _, dup := rs.selections[sel.Name]; dup {
			fail(sel.Pos, "selection %q is already defined", sel.Name)
			continue
		}
		var paths []string
		for _, p := range sel.Paths {
			exp, err := rs.expand(p.Value)
			if err != nil {
				fail(p.Pos, "selection %s: %v", sel.Name, err)
				continue
			}
			for _, e := range exp {
				if _, err := parseSelector(e); err != nil {
					fail(p.Pos, "selection %s: %v", sel.Name, err)
				}
			}
			paths = append(paths, exp...)
		}
		rs.selections[sel.Name] = paths
	}
}

// expand replaces a leading $name in a selection path by the paths of the
// named selection; other paths are returned as they are. "$" alone is the
// root, as in gjson.
func (rs *Ruleset) expand(p string) ([]string, error) {
	if !strings.HasPrefix(p, "$") || p == "$" {
		return []string{p}, nil
	}
	name, rest, _ := strings.Cut(p[1:], ".")
	paths, ok := rs.selections[name]
	if !ok {
		known := slices.Sorted(maps.Keys(rs.selections))
		if len(known) == 0 {
			return nil, fmt.Errorf("no selection named %q: the ruleset declares no selections", name)
		}
		return nil, fmt.Errorf("no selection named %q; declared: %s", name, strings.Join(known, ", "))
	}
	if rest == "" {
		return paths, nil
	}
	out := make([]string, len(paths))
	for i, base := range paths {
		if base == "$" || base == "@this" {
			out[i] = rest
		} else {
			out[i] = base + "." + rest
		}
	}
	return out, nil
}

// selectors compiles selection paths (which may name selections).
func (rs *Ruleset) selectors(file string, paths []loader.Scalar, fail func(loader.Pos, string, ...any), keep []*selector) []*selector {
	if len(paths) == 0 {
		return keep
	}
	var out []*selector
	for _, p := range paths {
		exp, err := rs.expand(p.Value)
		if err != nil {
			fail(p.Pos, "%v", err)
			continue
		}
		for _, e := range exp {
			sel, err := parseSelector(e)
			if err != nil {
				fail(p.Pos, "%v", err)
				continue
			}
			out = append(out, sel)
		}
	}
	return out
}

// newEnv builds the CEL environment of the ruleset's rules: the celint
// library at the ruleset's version, the engine's variables, the scope
// functions, and the inherited document variables.
func (rs *Ruleset) newEnv(file string, base *Ruleset, ownParams bool) (*cel.Env, error) {
	cfg := cel.Config{CostLimit: rs.opts.CostLimit, Extra: slices.Clone(rs.opts.Functions), Library: rs.library, Caches: rs.caches, Checked: rs.opts.Checked}
	if rs.refs != nil {
		cfg.ReferenceKey = rs.refs.key
	}
	cfg.Variables = append(cfg.Variables, engineVars...)
	cfg.Extra = append(cfg.Extra, rs.scope.functions()...)
	env, err := cel.NewEnv(cfg)
	if err != nil {
		return nil, &loader.Error{File: file, Msg: err.Error(), Err: err}
	}
	if base != nil {
		for _, v := range base.docVars {
			if ownParams && v.name == ParamsVariable {
				continue // declared again with the header's own
			}
			if env, err = env.Extend(cel.Var{Name: v.name, Type: v.prg.OutputType()}); err != nil {
				return nil, &loader.Error{File: file, Msg: err.Error(), Err: err}
			}
		}
	}
	return env, nil
}

// compileVars compiles variables in order, each seeing those before it. A
// variable that does not compile is reported, and the ones after it are
// still compiled (without it), so that every problem is reported at once.
//
// limit is the variables' per-evaluation cost limit: the environment's for
// a node's variables, DocumentCostLimit for a document's.
func compileVars(env *cel.Env, file string, vars loader.Vars, limit uint64) (*cel.Env, []*variable, error) {
	var out []*variable
	var issues loader.Issues
	for _, v := range vars {
		prg, err := compileExpr(env.WithCostLimit(limit), file, v.Expr)
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
		out = append(out, &variable{name: v.Name, text: v.Expr.Text, prg: prg})
	}
	return env, out, issues.Err()
}

// shareKey names a rule document variable's value within one document:
// its expression, compiled in the ruleset's environment.
type shareKey struct {
	env  *cel.Env
	text string
}

// markShared gives a share key to each of a rule's document variables that
// reads nothing but root and the ruleset's document variables (none of
// them hidden by a variable of the rule's own of the same name): its value
// and cost are the same in every rule that declares it.
func markShared(env *cel.Env, docVars, ruleDocVars []*variable) {
	outer := map[string]bool{"root": true}
	for _, v := range docVars {
		outer[v.name] = true
	}
	for _, v := range ruleDocVars {
		delete(outer, v.name)
	}
next:
	for _, v := range ruleDocVars {
		for _, name := range v.prg.FreeVariables() {
			if !outer[name] {
				continue next
			}
		}
		v.share = shareKey{env: env, text: v.text}
	}
}

// markPerScope marks the rule variables whose value is the same for every
// node of one scope: they read only scope, root, document variables and
// variables so marked before them.
func markPerScope(docVars, ruleDocVars, vars []*variable) {
	same := map[string]bool{"scope": true, "root": true}
	for _, v := range slices.Concat(docVars, ruleDocVars) {
		same[v.name] = true
	}
	for _, v := range vars {
		v.perScope = true
		for _, name := range v.prg.FreeVariables() {
			if !same[name] {
				v.perScope = false
				break
			}
		}
		if v.perScope {
			same[v.name] = true
		}
	}
}

// compileFiles reads and compiles the rules of files. Every problem of
// every file is reported, and a rule id declared twice is an error. When
// lazy, only what loading needs is compiled (see Options.Lazy).
func (rs *Ruleset) compileFiles(files []RuleFile, fix fixtureDir, lazy bool) ([]*Rule, error) {
	// Reading and compiling run on every core (compiling CEL is most of
	// loading a ruleset); problems and rules are gathered in file and rule
	// order, so that the result does not depend on the number of cores.
	read := make([]*loader.RuleFile, len(files))
	readErr := make([]error, len(files))
	parallel(len(files), func(i int) {
		read[i], readErr[i] = rs.readRuleFile(files[i])
	})
	type job struct {
		spec *loader.RuleSpec
		data []byte
		dup  error
		// only says that the rule is compiled for its problems only: its
		// file has problems of its own, and the rule is not kept.
		only bool
	}
	var jobs []job
	seen := map[string]string{}
	for i, f := range files {
		if readErr[i] != nil {
			jobs = append(jobs, job{dup: readErr[i]})
			// The rules as far as they read are compiled too, so that a
			// problem of the file does not hide those of its expressions
			// and templates.
			if read[i] != nil {
				for _, spec := range read[i].Rules {
					jobs = append(jobs, job{spec: spec, data: f.Data, only: true})
				}
			}
			continue
		}
		for _, spec := range read[i].Rules {
			if prev, dup := seen[spec.ID.Value]; dup {
				jobs = append(jobs, job{dup: &loader.Error{File: f.Name, Pos: spec.ID.Pos, Msg: fmt.Sprintf("duplicate rule id %q (first declared at %s)", spec.ID.Value, prev)}})
				continue
			}
			seen[spec.ID.Value] = fmt.Sprintf("%s:%s", f.Name, spec.ID.Pos)
			jobs = append(jobs, job{spec: spec, data: f.Data})
		}
	}
	compiled := make([]*Rule, len(jobs))
	errs := make([]error, len(jobs))
	parallel(len(jobs), func(i int) {
		if jobs[i].spec == nil {
			return
		}
		if jobs[i].only {
			errs[i] = rs.compileForProblems(jobs[i].spec, jobs[i].data, fix)
			return
		}
		compiled[i], errs[i] = rs.compileRule(jobs[i].spec, jobs[i].data, fix, lazy)
	})
	var rules []*Rule
	var issues loader.Issues
	reported := map[string]bool{}
	for i, j := range jobs {
		if j.dup != nil {
			var read loader.Issues
			read.Append(j.dup)
			for _, e := range read {
				reported[e.Error()] = true
			}
			issues.Append(j.dup)
		}
		if j.only {
			// Only what the file's reading did not report already.
			var more loader.Issues
			more.Append(errs[i])
			for _, e := range more {
				if !reported[e.Error()] {
					reported[e.Error()] = true
					issues.Append(e)
				}
			}
			continue
		}
		issues.Append(errs[i])
		if compiled[i] != nil {
			rules = append(rules, compiled[i])
		}
	}
	return rules, issues.Err()
}

// compileForProblems compiles a rule of a file that has problems of its
// own, for the problems of its expressions and templates; the rule is not
// kept. A rule that read only in part may make the compiler fail in ways
// the file's problems explain: a panic is taken for that, and not
// reported.
func (rs *Ruleset) compileForProblems(spec *loader.RuleSpec, data []byte, fix fixtureDir) (err error) {
	defer func() {
		if recover() != nil {
			err = nil
		}
	}()
	_, err = rs.compileRule(spec, data, fix, false)
	return err
}

// parallel calls f(0) … f(n-1) on as many goroutines as there are cores.
func parallel(n int, f func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// checkExampleSources reports an example naming a fixture that is absent.
func (rs *Ruleset) checkExampleSources(r *Rule) error {
	var issues loader.Issues
	for _, ex := range r.examples() {
		if ex.Source.Value == "" {
			continue
		}
		fix := rs.fixturesOf(r)
		if file, _, err := fix.file(r, ex); err != nil {
			issues.Append(err)
		} else if st, err := fs.Stat(fix.fs, file); errors.Is(err, fs.ErrNotExist) {
			issues.Append(&loader.Error{File: r.File, Pos: ex.Source.Pos, Msg: fmt.Sprintf("example source %q not found in %s", ex.Source.Value, fix.at)})
		} else if err != nil {
			issues.Append(sourceError(r, ex, fmt.Sprintf(" in %s cannot be read: %s", fix.at, unwrapPathError(err))))
		} else if !st.Mode().IsRegular() {
			issues.Append(sourceError(r, ex, fmt.Sprintf(" in %s is not a regular file; fixtures must be", fix.at)))
		}
	}
	return issues.Err()
}

// Selects reports whether the rule's selection matches anything in doc.
func (r *Rule) Selects(doc *loader.Document) bool {
	for _, sel := range r.given {
		found := false
		_ = sel.match(doc, func(*loader.Node) { found = true })
		if found {
			return true
		}
	}
	return false
}

// SelectsNode reports whether the rule's given paths select n, a node of
// doc: whether the rule looks at that value (its checks and conditions
// decide what it says of it).
func (r *Rule) SelectsNode(doc *loader.Document, n *loader.Node) bool {
	for _, sel := range r.given {
		found := false
		_ = sel.match(doc, func(m *loader.Node) { found = found || m == n })
		if found {
			return true
		}
	}
	return false
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
// no rule when there is one. When lazy, it compiles what loading needs,
// the selection, scopes and codes, and leaves the rest to Rule.ready.
func (rs *Ruleset) compileRule(spec *loader.RuleSpec, text []byte, fix fixtureDir, lazy bool) (*Rule, error) {
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
		fixtures: fix,
		sched:    ruleSched{weight: 1 + len(spec.Checks) + len(spec.Variables), logic: logicKey(spec, rs.env)},
	}

	var issues loader.Issues
	fail := func(p loader.Pos, format string, args ...any) {
		issues.Append(&loader.Error{File: file, Pos: p, Msg: fmt.Sprintf(format, args...)})
	}
	r.Examples = rs.applicableExamples(spec.Examples, fail)
	for _, c := range spec.Checks {
		if c.Fix != nil && !rs.fixOff(c.Fix) {
			r.Fixes = append(r.Fixes, FixDoc{Code: c.Code.Value, Description: c.Fix.Description, Conditional: c.Fix.When != nil})
		}
	}
	for _, f := range rs.schemaFixesOn(spec) {
		r.Fixes = append(r.Fixes, FixDoc{Keyword: f.Name, Description: f.Fix.Description, Conditional: f.Fix.When != nil})
	}
	r.Fixable = len(r.Fixes) > 0
	for _, g := range spec.Given {
		r.given = append(r.given, rs.selectors(file, []loader.Scalar{g}, fail, nil)...)
	}
	if spec.Resolve && rs.refs == nil {
		fail(spec.Pos, "resolve: true needs the ruleset to declare context.references")
	}
	var err error
	if r.scopeValues, err = rs.scopeSet(file, spec.Doc.Scope); err != nil {
		issues.Append(err)
	}
	r.Codes = []Code{{Severity: r.Severity, Level: spec.Doc.Level, Aliases: spec.Doc.Aliases, Inherited: true}}
	for i := range spec.Checks {
		if cs := &spec.Checks[i]; cs.Code.Value != "" {
			level := cmp.Or(cs.Level.Value, spec.Doc.Level)
			msg := cs.Message.Value
			if cs.MessageExpression != nil {
				msg = cs.MessageExpression.Text
			}
			r.Codes = append(r.Codes, Code{Name: cs.Code.Value, Severity: SeverityOfLevel(level), Level: level, Aliases: cs.Aliases, Inherited: cs.Level.Value == "", OptIn: cs.OptIn, Message: msg, Pos: cs.Pos})
		}
	}
	if lazy {
		if err := issues.Err(); err != nil {
			return nil, err
		}
		r.pending = &pendingBody{rs: rs, spec: spec}
		return r, nil
	}
	issues.Append(rs.compileBody(r, spec))
	if err := issues.Err(); err != nil {
		return nil, err
	}
	return r, nil
}

// schemaFixesOn returns the rule's schemaFixes that the ruleset's params
// do not rule out (see fixOff).
func (rs *Ruleset) schemaFixesOn(spec *loader.RuleSpec) []loader.NamedFix {
	var out []loader.NamedFix
	for _, f := range spec.SchemaFixes {
		if !rs.fixOff(f.Fix) {
			out = append(out, f)
		}
	}
	return out
}

// pendingBody is what Rule.ready compiles for a rule loaded lazily: its
// spec, and the levels given to its codes since (see Rule.withLevel).
type pendingBody struct {
	rs     *Ruleset
	spec   *loader.RuleSpec
	levels [][2]string // code, level; in the order given
	once   sync.Once
	err    error
}

// ready compiles the rule's expressions and schema if it was loaded
// lazily and they are not compiled yet. It is safe to call at once from
// several goroutines; the error is the rule's compile problems.
func (r *Rule) ready() error {
	p := r.pending
	if p == nil {
		return nil
	}
	p.once.Do(func() {
		if p.err = p.rs.compileBody(r, p.spec); p.err != nil {
			return
		}
		for _, l := range p.levels {
			r.checks = checksWithLevel(r.checks, l[0], SeverityOfLevel(l[1]))
		}
	})
	return p.err
}

// compileBody compiles what evaluating the rule needs: its schema,
// variables, preconditions and checks. It returns every problem.
func (rs *Ruleset) compileBody(r *Rule, spec *loader.RuleSpec) error {
	file := spec.File
	var issues loader.Issues
	fail := func(p loader.Pos, format string, args ...any) {
		issues.Append(&loader.Error{File: file, Pos: p, Msg: fmt.Sprintf(format, args...)})
	}
	if spec.Schema != nil {
		msgs := cel.SchemaMessages{}
		for _, m := range spec.SchemaMessages {
			if m.Text.Value != "" {
				msgs[m.Name] = rs.paramsInTemplate(m.Text, fail)
			}
		}
		value := any(nil)
		if hasParamRef(spec.Schema) {
			value = rs.withParams(spec.Schema, fail)
		} else {
			value = spec.Schema.Value()
		}
		s, err := rs.compileSchema(value, cel.SchemaOptions{Messages: msgs})
		if err != nil {
			// Placed at the offending part of the fragment when known.
			at, msg := spec.Schema.Pos, err.Error()
			var ce *cel.SchemaCompileError
			if errors.As(err, &ce) {
				msg = ce.Msg
				if n := nodeAt(spec.Schema, ce.Pointer); n != nil {
					at = n.Pos
				}
			}
			fail(at, "schema: %s", msg)
		}
		r.schema, r.schemaPos = s, spec.Schema.Pos
	}
	env, docVars, err := compileVars(rs.env, file, spec.DocVariables, DocumentCostLimit)
	issues.Append(err)
	r.docVars = docVars
	markShared(rs.env, rs.docVars, r.docVars)
	if r.assume, err = compileAssume(env, file, spec.Assume); err != nil {
		issues.Append(err)
	}
	if spec.When != nil {
		if r.when, err = compileExpr(env, file, *spec.When); err != nil {
			issues.Append(err)
		}
	}
	env, vars, err := compileVars(env, file, spec.Variables, env.CostLimit())
	issues.Append(err)
	r.vars = vars
	if len(spec.SchemaFixes) > 0 && spec.Schema == nil {
		fail(spec.SchemaFixes[0].Fix.Pos, "schemaFixes: the rule has no schema fragment whose findings they could fix")
	}
	if r.schemaFixes, err = compileSchemaFixes(env, file, rs.schemaFixesOn(spec)); err != nil {
		issues.Append(err)
	}
	if r.schemaMsgs, err = compileSchemaMessageExprs(env, file, spec.SchemaMessages); err != nil {
		issues.Append(err)
	}
	markPerScope(rs.docVars, r.docVars, r.vars)
	for i := range spec.Checks {
		cs := &spec.Checks[i]
		c, err := compileCheck(env, file, cs)
		if err != nil {
			issues.Append(err)
			continue
		}
		if rs.fixOff(cs.Fix) {
			c.fix = nil
		}
		c.severity, c.aliases, c.inheritsLevel = r.Severity, spec.Doc.Aliases, true
		if cs.Code.Value != "" {
			level := cmp.Or(cs.Level.Value, spec.Doc.Level)
			c.code, c.severity, c.aliases, c.optIn = cs.Code.Value, SeverityOfLevel(level), cs.Aliases, cs.OptIn
			c.inheritsLevel = cs.Level.Value == ""
		}
		if c.scopeValues, err = rs.scopeSet(file, cs.Scope); err != nil {
			issues.Append(err)
		}
		if c.assume, err = compileAssume(env, file, cs.Assume); err != nil {
			issues.Append(err)
		}
		r.checks = append(r.checks, c)
	}
	issues.Append(rs.checkExampleSources(r))
	err = issues.Err()
	r.sched.sharable = err == nil && r.sched.logic != "" && !unshareable(r)
	return err
}

// Checked returns the checked expressions the ruleset was loaded with
// (Options.Checked), or nil.
func (rs *Ruleset) Checked() *exprcache.Set { return rs.opts.Checked }

// nodeAt returns the node at pointer below n, or nil.
func nodeAt(n *loader.Node, pointer string) *loader.Node {
	tokens, err := jsonpointer.Parse(pointer)
	if err != nil || pointer == "" {
		return nil
	}
	for _, tok := range tokens {
		if n = n.Child(jsonpointer.Escape(tok)); n == nil {
			return nil
		}
	}
	return n
}

// compileAssume compiles a precondition, if there is one.
func compileAssume(env *cel.Env, file string, a *loader.Assume) (*assumption, error) {
	switch {
	case a == nil:
		return nil, nil
	case a.Expr != nil:
		prg, err := compileExpr(env, file, *a.Expr)
		if err != nil {
			return nil, err
		}
		return &assumption{expr: prg}, nil
	}
	sh, err := compileShape(file, a.Shape)
	if err != nil {
		return nil, err
	}
	return &assumption{shape: sh}, nil
}

// fixtureDir is where the examples of a rule find their fixtures.
type fixtureDir struct {
	fs  fs.FS
	dir string // inside fs; "" when there is none
	at  string // as it is reported
}

// engineVars are the variables the engine binds for every node, besides
// cel's self, root and path.
var engineVars = []cel.Var{
	{Name: "scope", Type: gocel.DynType},
	{Name: "parentScope", Type: gocel.DynType},
	{Name: "selfKey", Type: gocel.DynType},
	{Name: "selfKeys", Type: gocel.ListType(gocel.StringType)},
	{Name: "parent", Type: gocel.DynType},
	{Name: "resolveError", Type: gocel.StringType},
	{Name: "selfStyle", Type: gocel.StringType},
	{Name: "plainScalars", Type: gocel.ListType(gocel.MapType(gocel.StringType, gocel.StringType))},
}

// scopeKey is the rule member that limits a rule to scope values.
func (rs *Ruleset) scopeKey() string {
	if rs.scope == nil {
		return ""
	}
	return rs.scope.member
}

// functions declares scopeIndex and scopeCompare, which order scope values
// as the ruleset lists them; none without an ordered list.
func (sc *scopeConfig) functions() []gocel.EnvOption {
	if sc == nil || sc.values == nil {
		return nil
	}
	index := func(v ref.Val) int {
		if s, ok := v.(types.String); ok {
			if i, ok := sc.index[string(s)]; ok {
				return i
			}
		}
		return -1
	}
	return []gocel.EnvOption{
		gocel.Function("scopeIndex",
			gocel.Overload("scopeIndex_string", []*gocel.Type{gocel.StringType}, gocel.IntType,
				gocel.UnaryBinding(func(v ref.Val) ref.Val { return types.Int(index(v)) }))),
		gocel.Function("scopeCompare",
			gocel.Overload("scopeCompare_string_string", []*gocel.Type{gocel.StringType, gocel.StringType}, gocel.IntType,
				gocel.BinaryBinding(func(a, b ref.Val) ref.Val {
					i, j := index(a), index(b)
					if i < 0 || j < 0 {
						return types.NewErr("scopeCompare: %v is not a declared scope value", map[bool]ref.Val{true: a, false: b}[i < 0].Value())
					}
					return types.Int(cmp.Compare(i, j))
				}))),
	}
}

// scopeSet returns the scope values a rule or check written with sc applies
// to: nil for every node (independent, or not written), else the values.
func (rs *Ruleset) scopeSet(file string, sc loader.Scope) ([]string, error) {
	if sc.IsZero() || sc.Independent {
		return nil, nil
	}
	var known *scopeConfig = rs.scope
	fail := func(format string, args ...any) ([]string, error) {
		return nil, &loader.Error{File: file, Pos: sc.Pos, Msg: fmt.Sprintf(format, args...)}
	}
	check := func(v string) error {
		if known.values == nil {
			return nil
		}
		if _, ok := known.index[v]; !ok {
			return &loader.Error{File: file, Pos: sc.Pos, Msg: fmt.Sprintf("%s: %q is not one of the ruleset's values (%s)", sc.Key, v, strings.Join(known.values, ", "))}
		}
		return nil
	}
	if sc.From == "" && sc.Until == "" {
		var issues loader.Issues
		for _, v := range sc.Values {
			issues.Append(check(v))
		}
		if err := issues.Err(); err != nil {
			return nil, err
		}
		return sc.Values, nil
	}
	if known.values == nil {
		return fail("%s: 'from' and 'until' need the ruleset to list its scope values in order (context.scope.values)", sc.Key)
	}
	lo, hi := 0, len(known.values)-1
	if sc.From != "" {
		if err := check(sc.From); err != nil {
			return nil, err
		}
		lo = known.index[sc.From]
	}
	if sc.Until != "" {
		if err := check(sc.Until); err != nil {
			return nil, err
		}
		hi = known.index[sc.Until]
	}
	if lo > hi {
		return fail("%s: 'from' %s comes after 'until' %s", sc.Key, sc.From, sc.Until)
	}
	return known.values[lo : hi+1], nil
}

package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/config"
	"github.com/celint/celint/internal/ruledoc"
	"github.com/celint/celint/loader"
)

// Sources says where the rulesets of a run come from.
type Sources struct {
	// Embedded loads the built-in rulesets with the options it is given
	// (celint's own: rulesets.Load); nil loads none.
	Embedded func(engine.Options) ([]*engine.Ruleset, error)
	// Folders are rule folders (celint check --rules), applied in order.
	// A folder with a ruleset.yaml is a ruleset of its own, which runs
	// beside the document's ruleset or, when it extends one, takes its
	// place; the rules of any other folder are added to every ruleset, one
	// with the id of a rule replacing it. Errors name a folder's files by
	// the folder as given, then the file, and a problem with the folder
	// itself as one of the --rules flag.
	Folders []string
	// Spec pins one ruleset, by tag or name@tag; "" chooses one for each
	// document by the version it declares. SpecFile and SpecPos are where
	// a config file set it, for its error; SpecFile is "" otherwise.
	Spec     string
	SpecFile string
	SpecPos  loader.Pos
	// Options apply to every ruleset, except Lazy, which applies to the
	// embedded ones only: a rule folder compiles all its rules when it
	// loads.
	Options engine.Options
}

// LoadRulesets loads the rulesets src names.
func LoadRulesets(src Sources) (*Rulesets, error) {
	var all []*engine.Ruleset
	if src.Embedded != nil {
		var err error
		if all, err = src.Embedded(src.Options); err != nil {
			return nil, fmt.Errorf("embedded rulesets: %w", err)
		}
	}
	cat, err := engine.NewCatalog(all...)
	if err != nil {
		return nil, err
	}
	opts := src.Options
	opts.Lazy = false
	for _, dir := range src.Folders {
		if cat, err = withFolder(cat, dir, opts); err != nil {
			return nil, err
		}
	}
	if src.Spec == "" {
		return NewRulesets(cat, nil), nil
	}
	pinned, err := cat.Find(src.Spec)
	if err != nil {
		if src.SpecFile != "" {
			err = &loader.Error{File: src.SpecFile, Pos: src.SpecPos, Msg: "spec: " + err.Error(), Err: err}
		}
		return nil, err
	}
	return NewRulesets(cat, pinned), nil
}

// withFolder applies a rule folder: with a header, a ruleset of its own,
// which takes the place of the ruleset it extends if it extends one;
// otherwise extra rules for every ruleset of the catalog. Everything the
// folder's rules read stays inside it.
func withFolder(cat *engine.Catalog, dir string, opts engine.Options) (*engine.Catalog, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("--rules: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("--rules %s: not a directory", dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	// An os.Root resolves every name, symbolic links included.
	fsys, err := loader.DirFS(abs)
	if err != nil {
		return nil, fmt.Errorf("--rules: %w", err)
	}
	opts.DisplayDir = dir
	// A header that cannot be read (not only one that is absent) is
	// reported by LoadRuleset, never ignored.
	if _, err := fs.Stat(fsys, engine.HeaderFile); !errors.Is(err, fs.ErrNotExist) {
		opts.Bases = cat.Find
		rs, err := engine.LoadRuleset(fsys, ".", opts)
		if err != nil {
			return nil, err
		}
		if rs.Extends != "" {
			base, _ := cat.Find(rs.Extends) // found when it loaded
			return cat.Without(base).With(rs)
		}
		if _, err := cat.Find(rs.Name + "@" + rs.Tag); err == nil {
			return cat.Replace(rs), nil
		}
		return cat.With(rs)
	}
	return cat.WithFolder(engine.Folder{FS: fsys, Dir: ".", Name: dir})
}

// Rulesets are the rulesets of a run: a catalog to choose from, and
// possibly one ruleset pinned for every document. They are immutable and
// safe for concurrent use.
type Rulesets struct {
	catalog *engine.Catalog
	pinned  *engine.Ruleset
	// pages is the published page of each rule of each ruleset, "" for
	// none.
	pages map[*engine.Ruleset]map[*engine.Rule]string
}

// NewRulesets returns the rulesets of cat, with pinned (nil for none, else
// one of cat's) linting every document.
func NewRulesets(cat *engine.Catalog, pinned *engine.Ruleset) *Rulesets {
	r := &Rulesets{catalog: cat, pinned: pinned, pages: map[*engine.Ruleset]map[*engine.Rule]string{}}
	for _, rs := range cat.Rulesets() {
		pages := make(map[*engine.Rule]string, len(rs.Rules))
		for _, rule := range rs.Rules {
			pages[rule] = ruledoc.PageURL(rs, rule)
		}
		r.pages[rs] = pages
	}
	return r
}

// Catalog returns the catalog the rulesets are chosen from.
func (r *Rulesets) Catalog() *engine.Catalog { return r.catalog }

// Pinned returns the ruleset pinned for every document; nil when each
// document's is chosen by the version it declares.
func (r *Rulesets) Pinned() *engine.Ruleset { return r.pinned }

// List returns the rulesets that a run may use: the pinned one, or else
// every ruleset, newest first.
func (r *Rulesets) List() []*engine.Ruleset {
	if r.pinned != nil {
		return []*engine.Ruleset{r.pinned}
	}
	return r.catalog.Rulesets()
}

// page returns the published page of rule, of ruleset rs; "" for none.
func (r *Rulesets) page(rs *engine.Ruleset, rule *engine.Rule) string {
	if u, ok := r.pages[rs][rule]; ok {
		return u
	}
	return ruledoc.PageURL(rs, rule)
}

// Document is a parsed document and the rulesets chosen to lint it.
type Document struct {
	// Name is the document's name, as its diagnostics give it.
	Name string
	// Parsed is the document, read with the options of the first ruleset.
	Parsed *loader.Document
	// Rulesets lint the document: first the one chosen for the version it
	// declares (or the pinned one), then every other ruleset, one of each
	// name, that accepts it.
	Rulesets []*engine.Ruleset
}

// Choose parses data as the document name (whose extension tells JSON
// from YAML) and chooses the rulesets that lint it. Its error is a
// loader.Issues, in which errors.Is finds engine.ErrNoRuleset (a version no
// ruleset accepts), engine.ErrUndeclaredVersion and loader.ErrLimit.
func (r *Rulesets) Choose(name string, data []byte) (*Document, error) {
	doc, rs, err := r.catalog.Load(name, data, r.pinned)
	if err != nil {
		return nil, err
	}
	return r.document(name, doc, rs), nil
}

// ChooseFile reads the document at path and chooses its rulesets, as
// Choose does. A file larger than every candidate ruleset's size limit,
// or one that is not a regular file, is refused before it is read.
func (r *Rulesets) ChooseFile(path string) (*Document, error) {
	doc, rs, err := r.catalog.LoadFile(path, r.pinned)
	if err != nil {
		return nil, err
	}
	return r.document(path, doc, rs), nil
}

func (r *Rulesets) document(name string, doc *loader.Document, chosen *engine.Ruleset) *Document {
	return &Document{Name: name, Parsed: doc, Rulesets: append([]*engine.Ruleset{chosen}, r.catalog.Companions(doc, chosen)...)}
}

// CheckConfig reports, at its file:line:col, every rule or finding cfg sets
// a level of that none of the rulesets has. A nil cfg has none.
func (r *Rulesets) CheckConfig(cfg *config.Config) error {
	if cfg == nil {
		return nil
	}
	known := map[string]bool{SuppressionRuleID: true, SuppressionRuleID + "/unused": true, SuppressionRuleID + "/malformed": true}
	for _, rs := range r.catalog.Rulesets() {
		for _, rule := range rs.Rules {
			known[rule.ID] = true
			for _, c := range rule.Codes {
				if c.Name != "" {
					known[rule.ID+"/"+c.Name] = true
				}
			}
		}
	}
	var issues loader.Issues
	for _, l := range cfg.Rules() {
		if !known[l.Rule] {
			issues.Append(&loader.Error{File: l.File, Pos: l.Pos, Msg: fmt.Sprintf("rules: no rule or finding %q in the loaded rulesets; 'celint rules' lists them", l.Rule)})
		}
	}
	return issues.Err()
}

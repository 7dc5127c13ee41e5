package lint

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/report"
	"github.com/celint/celint/loader"
)

// Options are what a Checker does besides choosing rulesets.
type Options struct {
	// Filter is applied to every finding as it is found.
	Filter Filter
	// Lint are the engine's options: which rules run (Filter), their
	// budgets, the goroutines of one document (Workers), statistics
	// (Stats). MaxDiagnostics bounds the findings of a document that a
	// Result keeps, over all its rulesets. Adjust and Omitted are the
	// Checker's own: theirs are not called.
	Lint engine.LintOptions
}

// Checker lints documents with a set of rulesets, with the same options
// for each. It is safe for concurrent use, and keeps what its rulesets
// compile: make one and lint every document with it.
type Checker struct {
	rulesets *Rulesets
	filter   Filter
	lint     engine.LintOptions
}

// NewChecker returns a Checker of the rulesets rs.
func NewChecker(rs *Rulesets, opts Options) *Checker {
	lint := opts.Lint
	lint.Adjust, lint.Omitted = nil, nil
	return &Checker{rulesets: rs, filter: opts.Filter, lint: lint}
}

// Rulesets returns the rulesets of the Checker.
func (c *Checker) Rulesets() *Rulesets { return c.rulesets }

// Result is what linting one document found.
type Result struct {
	// Name is the document's name, as its diagnostics give it.
	Name string
	// Err is why the document was not linted in full, nil when it was: it
	// could not be read or parsed, no ruleset accepts it
	// (engine.ErrNoRuleset, engine.ErrUndeclaredVersion), or a ruleset
	// failed on it. Diagnostics then hold it as an input error.
	Err error
	// Rulesets are the rulesets that linted the document, the one chosen
	// for it first; none when it could not be read or parsed.
	Rulesets []*engine.Ruleset
	// Diagnostics are the findings kept, sorted (engine.SortDiagnostics),
	// each with the URL of its rule's published page when there is one.
	Diagnostics []engine.Diagnostic
	// Omitted counts the findings that Options.Lint.MaxDiagnostics left
	// out, Quieted those that Filter.Quiet did.
	Omitted, Quieted engine.Counts
	// Suppressed are the findings that suppression comments and the
	// baseline hid, when Filter.KeepSuppressed keeps them: sorted as
	// Diagnostics are, the first Options.Lint.MaxDiagnostics of them, and
	// in no count.
	Suppressed []report.Suppressed
	// Source is the document's text, for code frames and fixes, when there
	// are diagnostics; LoadOptions are the options it was read with (its
	// first ruleset's), with which its findings' fixes are made. For a
	// document that could not be read, Source is what was read, if
	// anything, and LoadOptions is nil.
	Source      []byte
	LoadOptions *loader.Options
}

// Lint lints data as the document name, whose extension tells JSON from
// YAML: it chooses the rulesets (Rulesets.Choose) and lints the document
// with them (LintDocument). The document need not be a file: an editor's
// unsaved buffer is linted as well.
func (c *Checker) Lint(ctx context.Context, name string, data []byte) *Result {
	return c.run(name, func(res *Result) {
		d, err := c.rulesets.Choose(name, data)
		if err != nil {
			c.failed(res, err, data)
			return
		}
		c.lintDocument(ctx, d, res)
	})
}

// LintFile lints the document at path, as Lint does; path is its name.
func (c *Checker) LintFile(ctx context.Context, path string) *Result {
	return c.run(path, func(res *Result) {
		d, err := c.rulesets.ChooseFile(path)
		if err != nil {
			c.failed(res, err, readSmall(path, maxFrameSource))
			return
		}
		c.lintDocument(ctx, d, res)
	})
}

// LintDocument lints a document whose rulesets are chosen: with each of
// them in turn, applying the Filter to each finding as it is found, then
// to the findings of the document's suppression comments; it keeps the
// first Options.Lint.MaxDiagnostics findings of all of them, besides rule
// errors.
func (c *Checker) LintDocument(ctx context.Context, d *Document) *Result {
	return c.run(d.Name, func(res *Result) { c.lintDocument(ctx, d, res) })
}

// maxFrameSource bounds the file read again for the code frame of an
// input error.
const maxFrameSource = 8 << 20

// InputResult is the result of a document that could not be read: err,
// as an input error, and source, what was read of it (nil for nothing).
func InputResult(name string, err error, source []byte) *Result {
	return &Result{Name: name, Err: err, Diagnostics: []engine.Diagnostic{InputDiagnostic(name, err)}, Source: source}
}

// run makes the result of the document name by lint, and links its
// findings to their rules' pages. A panic while linting is an input error
// of the document, not the end of the run.
func (c *Checker) run(name string, lint func(*Result)) *Result {
	res := &Result{Name: name}
	func() {
		defer func() {
			if p := recover(); p != nil {
				res.Diagnostics = append(res.Diagnostics, InputDiagnostic(name, fmt.Errorf("internal error while linting: %v", p)))
			}
		}()
		lint(res)
	}()
	c.link(res)
	return res
}

// failed makes res the result of a document that could not be chosen
// rulesets for.
func (c *Checker) failed(res *Result, err error, source []byte) {
	*res = *InputResult(res.Name, err, source)
}

func (c *Checker) lintDocument(ctx context.Context, d *Document, res *Result) {
	filter := c.filter.Document(d)
	opts := c.lint
	opts.Adjust = filter.Admit
	opts.Omitted = func(n engine.Counts) { res.Omitted = res.Omitted.Add(n) }
	res.Rulesets = d.Rulesets
	for _, rs := range d.Rulesets {
		ds, err := rs.Lint(ctx, d.Parsed, opts)
		if err != nil {
			res.Err = err
			res.Diagnostics = []engine.Diagnostic{InputDiagnostic(d.Name, fmt.Errorf("not checked: %w", err))}
			res.Omitted = engine.Counts{}
			return
		}
		res.Diagnostics = append(res.Diagnostics, ds...)
	}
	if c.filter.Hide != nil {
		c.filter.Hide.Checked(d.Name)
	}
	res.Diagnostics = append(res.Diagnostics, filter.Own()...)
	engine.SortDiagnostics(res.Diagnostics)
	// Each ruleset kept its first findings: the document keeps the first
	// of all of them.
	var more engine.Counts
	res.Diagnostics, more = limit(res.Diagnostics, c.lint.MaxDiagnostics)
	res.Omitted = res.Omitted.Add(more)
	res.Quieted = filter.Quieted()
	res.Suppressed = sortedSuppressed(filter.Suppressed(), c.lint.MaxDiagnostics)
	if len(res.Diagnostics) > 0 {
		res.Source = d.Parsed.Source // dropped for clean documents
		res.LoadOptions = &d.Rulesets[0].LoadOptions
	}
}

// link sets the URL of each finding that has none to its rule's published
// page; of rules of the same id, the first ruleset's.
func (c *Checker) link(res *Result) {
	page := map[string]string{}
	for i := len(res.Rulesets) - 1; i >= 0; i-- {
		rs := res.Rulesets[i]
		for _, rule := range rs.Rules {
			if c.lint.Filter != nil && !c.lint.Filter(rule) {
				continue
			}
			if u := c.rulesets.page(rs, rule); u != "" {
				page[rule.ID] = u
			}
		}
	}
	for i, d := range res.Diagnostics {
		if d.URL == "" && !d.InputError {
			res.Diagnostics[i].URL = page[d.RuleID]
		}
	}
}

// sortedSuppressed sorts ss as engine.SortDiagnostics sorts diagnostics,
// and keeps the first max of them (max 0: all).
func sortedSuppressed(ss []report.Suppressed, max int) []report.Suppressed {
	if len(ss) == 0 {
		return nil
	}
	slices.SortStableFunc(ss, func(a, b report.Suppressed) int {
		return cmp.Or(engine.CompareDiagnostics(a.Diagnostic, b.Diagnostic), cmp.Compare(a.Kind, b.Kind))
	})
	if max > 0 && len(ss) > max {
		clear(ss[max:])
		ss = ss[:max]
	}
	return ss
}

// limit keeps the first max diagnostics of ds, sorted, besides its rule
// errors and input errors, which are always kept; it returns them and the
// counts of those left out. max 0 keeps all.
func limit(ds []engine.Diagnostic, max int) ([]engine.Diagnostic, engine.Counts) {
	if max <= 0 || len(ds) <= max {
		return ds, engine.Counts{}
	}
	var out engine.Counts
	kept := ds[:0]
	n := 0
	for _, d := range ds {
		if d.RuleError || d.InputError || n < max {
			kept = append(kept, d)
			if !d.RuleError && !d.InputError {
				n++
			}
			continue
		}
		out = out.Add(engine.Count([]engine.Diagnostic{d}))
	}
	clear(ds[len(kept):])
	return kept, out
}

// readSmall returns the contents of a regular file of at most max bytes,
// for the code frame of an input error; nil otherwise.
func readSmall(file string, max int64) []byte {
	st, err := os.Stat(file)
	if err != nil || !st.Mode().IsRegular() || st.Size() > max {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	return data
}

// InputDiagnostic turns an error reading a document into a diagnostic at
// its position, an error of rule InputRuleID. Its message says how to get
// past a limit or an unknown version with celint check's flags.
func InputDiagnostic(name string, err error) engine.Diagnostic {
	// A problem with the file as a whole (it cannot be read, a pattern
	// matches nothing) has no line and column: none is invented.
	d := engine.Diagnostic{File: name, RuleID: InputRuleID, Severity: engine.Error, Message: err.Error(), InputError: true}
	var le *loader.Error
	if errors.As(err, &le) {
		d.Message = le.Msg
		if le.Pos.Line > 0 {
			d.Line, d.Column = int(le.Pos.Line), int(max(le.Pos.Col, 1))
		}
		if errors.Is(err, loader.ErrNotRegular) {
			d.Message += " (give a stream on standard input as '-')"
		}
		if flag := limitFlag(le.Limit); flag != "" {
			d.Message += " (raise it with " + flag + " or the ruleset's loader limits)"
		}
	}
	if errors.Is(err, engine.ErrNoRuleset) && strings.HasPrefix(d.Message, "version ") {
		d.Message += "; choose one with --spec" // an unknown version, not a malformed one
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		d.Message = pe.Err.Error()
	}
	return d
}

// limitFlag names the flag of celint check that raises a loader limit.
func limitFlag(limit string) string {
	switch limit {
	case "bytes":
		return "--max-bytes"
	case "depth":
		return "--max-depth"
	case "values":
		return "--max-values"
	case "scalarBytes":
		return "--max-scalar-bytes"
	}
	return ""
}

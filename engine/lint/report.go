package lint

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/report"
	"github.com/celint/celint/internal/ruledoc"
)

// Report hands the results of a run's documents, in the order of the
// report (by name, as engine.SortDiagnostics orders them), to a
// report.Stream, and keeps what the end of the run needs: the counts of
// every finding, shown or not, whether a rule or an input failed, and the
// rules and rulesets that ran. It is used by one goroutine.
type Report struct {
	out      report.Stream
	checker  *Checker
	err      error // the first error of out
	pending  []engine.Diagnostic
	used     map[*engine.Rule]*engine.Ruleset
	rulesets []*engine.Ruleset
	total    engine.Counts
	failed   bool
}

// NewReport starts the report of a run of c on out. inputErrors are the
// diagnostics of names that are no document (a pattern that matches no
// file): each comes in its place among the documents, by name.
func (c *Checker) NewReport(out report.Stream, inputErrors []engine.Diagnostic) *Report {
	pending := slices.Clone(inputErrors)
	engine.SortDiagnostics(pending)
	return &Report{out: out, checker: c, pending: pending, used: map[*engine.Rule]*engine.Ruleset{}}
}

// Add reports the result of one document, after those of every name
// before it. When some of its findings were left out (Result.Omitted),
// its diagnostics end with an entry of rule report.LimitRuleID that says
// how many.
func (r *Report) Add(res *Result) {
	r.paths(res.Name)
	for i := len(res.Rulesets) - 1; i >= 0; i-- { // the first ruleset wins
		rs := res.Rulesets[i]
		if !slices.Contains(r.rulesets, rs) {
			r.rulesets = append(r.rulesets, rs)
		}
		for _, rule := range rs.Rules {
			if f := r.checker.lint.Filter; f == nil || f(rule) {
				r.used[rule] = rs
			}
		}
	}
	ds := res.Diagnostics
	// An input error of a name that is the document's own (a pattern
	// that names itself) goes with the document's diagnostics.
	if len(r.pending) > 0 && r.pending[0].File == res.Name {
		for len(r.pending) > 0 && r.pending[0].File == res.Name {
			ds = append(ds, r.pending[0])
			r.pending = r.pending[1:]
		}
		engine.SortDiagnostics(ds)
	}
	names := make([]string, len(res.Rulesets))
	for i, rs := range res.Rulesets {
		names[i] = rs.String()
	}
	r.file(report.File{Name: res.Name, Checked: true, Diagnostics: ds, Quieted: res.Quieted, Suppressed: res.Suppressed, Source: res.Source, LoadOptions: res.LoadOptions, Rulesets: names}, res.Omitted)
}

// FlushBefore reports the input errors of the names before name. Add does
// so itself; a caller that says something of its own about the document
// name, such as that it is skipped, calls it first, so that what it says
// comes after what the report says of the names before.
func (r *Report) FlushBefore(name string) { r.paths(name) }

// Close reports the input errors not reported yet and ends the report
// with the rules that ran. It returns the first error of the stream.
func (r *Report) Close() error {
	r.paths("")
	if err := r.out.Close(r.rules()); r.err == nil {
		r.err = err
	}
	return r.err
}

// Counts returns the counts of the findings reported so far, those left
// out included.
func (r *Report) Counts() engine.Counts { return r.total }

// Worst returns the highest severity of the findings reported so far, -1
// when there are none.
func (r *Report) Worst() engine.Severity {
	switch {
	case r.total.Errors > 0:
		return engine.Error
	case r.total.Warnings > 0:
		return engine.Warning
	case r.total.Infos > 0:
		return engine.Info
	}
	return -1
}

// Failed reports whether a rule failed or a document could not be read.
func (r *Report) Failed() bool { return r.failed }

// Rulesets returns the rulesets that linted a document, in the order met.
func (r *Report) Rulesets() []*engine.Ruleset { return slices.Clone(r.rulesets) }

// paths reports the pending input errors of the names before upTo, all of
// them when upTo is "".
func (r *Report) paths(upTo string) {
	for len(r.pending) > 0 && (upTo == "" || r.pending[0].File < upTo) {
		name := r.pending[0].File
		n := 1
		for n < len(r.pending) && r.pending[n].File == name {
			n++
		}
		r.file(report.File{Name: name, Diagnostics: r.pending[:n]}, engine.Counts{})
		r.pending = r.pending[n:]
	}
}

// file counts a file's diagnostics and hands them to the stream, with the
// entry that says how many were not shown. Once the stream fails, nothing
// more is written to it.
func (r *Report) file(f report.File, omitted engine.Counts) {
	r.total = r.total.Add(engine.Count(f.Diagnostics)).Add(omitted).Add(f.Quieted)
	for _, d := range f.Diagnostics {
		r.failed = r.failed || d.RuleError || d.InputError
	}
	if omitted != (engine.Counts{}) {
		f.Diagnostics = append(f.Diagnostics, notShown(f.Name, omitted))
		f.NotShown = omitted
	}
	if r.err == nil {
		r.err = r.out.File(f)
	}
}

// rules returns the metadata of the rules that ran, by id: each links its
// published page, or else its rule file at its tag, and renders its
// documentation when a format asks for it.
func (r *Report) rules() []report.Rule {
	var out []report.Rule
	for rule, rs := range r.used {
		help := r.checker.rulesets.page(rs, rule)
		if help == "" {
			help = rule.SourceURL
		}
		out = append(out, report.Rule{ID: rule.ID, Title: rule.Doc.Title, Description: rule.Doc.Description, HelpURI: help, Severity: rule.Severity,
			Help: func() (string, string, error) { return ruledoc.Help(rs, rule) }})
	}
	// A rule id that several rulesets define (one per format version, say)
	// comes once for each; the order, by id and then page, is the same on
	// every run, so a format that keeps one entry per id keeps the same.
	sort.Slice(out, func(i, j int) bool {
		if out[i].ID != out[j].ID {
			return out[i].ID < out[j].ID
		}
		return out[i].HelpURI < out[j].HelpURI
	})
	return out
}

// notShown is the entry that ends the diagnostics of a file when some are
// not shown: how many, by severity, at the highest of them, so that it
// does not hide that there are errors.
func notShown(file string, c engine.Counts) engine.Diagnostic {
	sev := engine.Info
	var parts []string
	for _, s := range []struct {
		n         int
		sev       engine.Severity
		one, many string
	}{{c.Errors, engine.Error, "error", "errors"}, {c.Warnings, engine.Warning, "warning", "warnings"}, {c.Infos, engine.Info, "info", "infos"}} {
		if s.n > 0 {
			sev = max(sev, s.sev)
			parts = append(parts, plural(s.n, s.one, s.many))
		}
	}
	n := c.Errors + c.Warnings + c.Infos
	what := "findings"
	if n == 1 {
		what = "finding"
	}
	return engine.Diagnostic{
		File: file, RuleID: report.LimitRuleID, Severity: sev,
		Message: fmt.Sprintf("%d more %s not shown (%s; raise --max-diagnostics)", n, what, strings.Join(parts, ", ")),
	}
}

// plural is "1 one" or "N many".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

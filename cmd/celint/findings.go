package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/baseline"
	"github.com/celint/celint/engine/config"
	"github.com/celint/celint/internal/outfile"
	"github.com/celint/celint/engine/report"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/internal/suppress"
	"github.com/celint/celint/loader"
)

// defaultMaxDiagnostics is the --max-diagnostics of a run that sets none.
const defaultMaxDiagnostics = 1000

// findingRules is what a run does to each finding as its rules report it,
// in this order: a suppression comment drops it, the config file sets its
// level (or turns it off), --rule drops the codes it does not name,
// --write-baseline records it, --baseline hides it, and --quiet counts
// it without showing it unless it is an error. Rule errors and input
// errors are only ever subject to --rule, which keeps them.
type findingRules struct {
	cfg    *config.Config
	keep   func(engine.Diagnostic) bool // --rule; nil keeps all
	record *baseline.Recorder           // --write-baseline
	hide   *baseline.Filter             // --baseline
	quiet  bool
	// max bounds the findings of a file shown (--max-diagnostics); 0 does
	// not.
	max int
}

// fileFindings applies a run's findingRules to one file's findings, as
// they are found; it is used by one goroutine at a time (the engine's
// LintOptions.Adjust calls come one at a time).
type fileFindings struct {
	*findingRules
	file     string
	sup      *suppress.Matcher   // the file's suppression comments; nil for JSON
	problems []engine.Diagnostic // the malformed ones
	quieted  engine.Counts       // the findings --quiet does not show
}

// forFile prepares the rules for the findings of one document.
func (r *findingRules) forFile(file string, doc *loader.Document) *fileFindings {
	f := &fileFindings{findingRules: r, file: file}
	if doc != nil && doc.Format == "yaml" {
		dirs, problems := suppress.Scan(doc.Name, doc.Source)
		f.sup = suppress.NewMatcher(doc.Name, dirs)
		f.problems = problems
	}
	return f
}

// admit is the engine's LintOptions.Adjust: whether a finding is shown,
// with the level the config gives it.
func (f *fileFindings) admit(d *engine.Diagnostic) bool {
	if f.sup != nil && f.sup.Suppressed(*d) {
		return false
	}
	return f.level(d)
}

// level applies what follows the suppression comments.
func (f *fileFindings) level(d *engine.Diagnostic) bool {
	if f.cfg != nil && !d.RuleError && !d.InputError {
		if level, set := f.cfg.LevelOf(f.file, d.RuleID, d.Code); set {
			if level == "off" {
				return false
			}
			if sev, err := engine.ParseSeverity(level); err == nil {
				d.Severity = sev
			}
		}
	}
	if f.keep != nil && !f.keep(*d) {
		return false
	}
	if f.record != nil {
		f.record.Add(*d)
	}
	if f.hide != nil && f.hide.Hide(*d) {
		return false
	}
	if f.quiet && d.Severity < engine.Error {
		f.quieted = f.quieted.Add(engine.Count([]engine.Diagnostic{*d}))
		return false
	}
	return true
}

// own returns the diagnostics of the file's suppression comments, once
// its rules ran: the directive rules that suppressed nothing, and the
// malformed comments. A suppression comment does not suppress them; the
// rest of the rules apply.
func (f *fileFindings) own() []engine.Diagnostic {
	if f.sup == nil {
		return nil
	}
	var out []engine.Diagnostic
	for _, d := range append(f.sup.Unused(), f.problems...) {
		if f.level(&d) {
			out = append(out, d)
		}
	}
	return out
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

// notShown is the entry that ends the diagnostics of a file when some
// are not shown: how many, by severity, at the highest of them, so that
// it does not hide that there are errors.
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
	return engine.Diagnostic{
		File: file, RuleID: report.LimitRuleID, Severity: sev,
		Message: fmt.Sprintf("%d more %s not shown (%s; raise --max-diagnostics)", n, pluralWord(n, "finding", "findings"), strings.Join(parts, ", ")),
	}
}

// pluralWord is one for 1, many otherwise.
func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// readBaseline reads the --baseline file (nil for ""), before anything is
// linted: only a regular file of at most baseline.MaxBytes is read.
func readBaseline(file string) (*baseline.Baseline, error) {
	if file == "" {
		return nil, nil
	}
	b, err := baseline.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	return b, nil
}

// endBaseline writes the findings recorded to the new baseline
// (--write-baseline), or says what the baseline hid (--baseline), on
// stderr.
func endBaseline(r *findingRules, write, read string, stderr io.Writer) error {
	if r.record != nil {
		if err := outfile.Write(write, r.record.Baseline().Write); err != nil {
			return fmt.Errorf("--write-baseline: %v", err)
		}
		fmt.Fprintf(stderr, "celint: recorded %s in %s\n", plural(r.record.Len(), "finding", "findings"), safetext.Line(write))
	}
	if r.hide != nil {
		res := r.hide.Result()
		gone := plural(res.Gone, "recorded finding is", "recorded findings are")
		fmt.Fprintf(stderr, "celint: baseline %s: %s hidden, %s gone\n", safetext.Line(read), plural(res.Hidden, "finding", "findings"), gone)
	}
	return nil
}

// knownRules tells the file's suppression comments which rules were
// loaded for it: those of rss and celint's own (celint.input,
// celint.suppression), each by its id and by "id/code" for its codes and
// their aliases.
func (f *fileFindings) knownRules(rss []*engine.Ruleset) {
	if f.sup == nil {
		return
	}
	names := map[string]bool{}
	var list []string
	add := func(n string) {
		if !names[n] {
			names[n] = true
			list = append(list, n)
		}
	}
	for _, id := range []string{inputRuleID, suppressionRule} {
		add(id)
	}
	for _, rs := range rss {
		for _, r := range rs.Rules {
			add(r.ID)
			for _, c := range r.Codes {
				if c.Name != "" {
					add(r.ID + "/" + c.Name)
				}
				for _, a := range c.Aliases {
					add(r.ID + "/" + a)
				}
			}
		}
	}
	f.sup.Known(func(rule string) bool {
		id, _, _ := strings.Cut(rule, "/")
		return names[rule] || (id == inputRuleID || id == suppressionRule)
	}, func(rule string) []string { return nearest(rule, list) })
}

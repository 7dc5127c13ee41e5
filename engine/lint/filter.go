package lint

import (
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/baseline"
	"github.com/celint/celint/engine/config"
	"github.com/celint/celint/engine/report"
	"github.com/celint/celint/internal/spelling"
	"github.com/celint/celint/internal/suppress"
)

// InputRuleID is the rule id of the diagnostics of a document that could
// not be read, parsed or matched to a ruleset.
const InputRuleID = "celint.input"

// SuppressionRuleID is the rule id of the findings about suppression
// comments themselves: one that is malformed (code "malformed"), one that
// suppresses nothing (code "unused"). A config file may set its level like
// any rule's.
const SuppressionRuleID = "celint.suppression"

// Filter is what a Checker does to each finding as the rules report it,
// in this order: a suppression comment in the document (YAML only) drops
// it, the config file sets its level or turns it off, Keep drops it,
// Record records it, Hide hides it, and Quiet counts it without keeping
// it unless it is an error. Rule errors and input errors are only ever
// subject to Keep. The zero Filter applies the suppression comments only.
//
// With KeepSuppressed, a finding that a suppression comment drops, or
// that Hide hides, is kept aside instead (Result.Suppressed), marked with
// how it was suppressed, once the config file and Keep have let it
// through (and Quiet, which drops it unless it is an error): the formats
// that show suppressed findings (sarif) print them, and no count includes
// them. A finding a suppression comment drops is not recorded.
type Filter struct {
	// Config sets the levels of rules and findings; nil sets none. An
	// opt-in code (engine.Code.OptIn) is reported only where an entry
	// naming it (rule/code) gives it a level, or with OptIn.
	Config *config.Config
	// OptIn reports the findings of every opt-in code, at their own level.
	OptIn bool
	// Keep keeps the findings it returns true for (Only.Keep); nil keeps
	// all.
	Keep func(engine.Diagnostic) bool
	// Record, when not nil, records every finding kept so far, for a new
	// baseline.
	Record *baseline.Recorder
	// Hide, when not nil, hides the findings of a baseline; the Checker
	// tells it of every document it lints in full.
	Hide *baseline.Filter
	// Quiet keeps errors only; the others are counted (Result.Quieted).
	Quiet bool
	// KeepSuppressed keeps the findings that suppression comments and
	// Hide drop, apart from the others (Result.Suppressed).
	KeepSuppressed bool
}

// DocumentFilter applies a Filter to the findings of one document. It is
// used by one goroutine at a time (engine.LintOptions.Adjust is called
// one finding at a time).
type DocumentFilter struct {
	filter   *Filter
	name     string
	sup      *suppress.Matcher   // the document's suppression comments; nil for JSON
	problems []engine.Diagnostic // the malformed ones
	quieted  engine.Counts
	// suppressed are the findings kept aside (Filter.KeepSuppressed).
	suppressed []report.Suppressed
}

// Document prepares f for the findings of d: it reads d's suppression
// comments, and tells them which rules d's rulesets have, so that one
// naming no rule says so with the names nearest to it.
func (f *Filter) Document(d *Document) *DocumentFilter {
	df := &DocumentFilter{filter: f, name: d.Name}
	if doc := d.Parsed; doc != nil && doc.Format == "yaml" {
		dirs, problems := suppress.Scan(doc.Name, doc.Source)
		df.sup = suppress.NewMatcher(doc.Name, dirs)
		df.problems = problems
		df.knownRules(d.Rulesets)
	}
	return df
}

// Admit is the engine's LintOptions.Adjust: whether a finding is kept,
// with the level the config gives it.
func (f *DocumentFilter) Admit(d *engine.Diagnostic) bool {
	if f.sup != nil && f.sup.Suppressed(*d) {
		if f.filter.KeepSuppressed && f.settle(d) {
			f.keepAside(*d, report.InSource)
		}
		return false
	}
	return f.level(d)
}

// level applies what follows the suppression comments.
func (f *DocumentFilter) level(d *engine.Diagnostic) bool {
	if !f.settle(d) {
		return false
	}
	if f.filter.Record != nil {
		f.filter.Record.Add(*d)
	}
	if f.filter.Hide != nil && f.filter.Hide.Hide(*d) {
		if f.filter.KeepSuppressed {
			f.keepAside(*d, report.External)
		}
		return false
	}
	if f.filter.Quiet && d.Severity < engine.Error {
		f.quieted = f.quieted.Add(engine.Count([]engine.Diagnostic{*d}))
		return false
	}
	return true
}

// settle applies the config file's level to d and Keep: whether d is
// still a finding.
func (f *DocumentFilter) settle(d *engine.Diagnostic) bool {
	optIn := d.OptIn && !f.filter.OptIn
	if cfg := f.filter.Config; cfg != nil && !d.RuleError && !d.InputError {
		levelOf := cfg.LevelOf
		if d.OptIn {
			levelOf = cfg.CodeLevelOf
		}
		if level, set := levelOf(f.name, d.RuleID, d.Code); set {
			optIn = false
			if level == "off" {
				return false
			}
			if sev, err := engine.ParseSeverity(level); err == nil {
				d.Severity = sev
			}
		}
	}
	if optIn {
		return false // an opt-in code nothing turned on
	}
	return f.filter.Keep == nil || f.filter.Keep(*d)
}

// keepAside keeps a suppressed finding, unless Quiet leaves out its
// severity.
func (f *DocumentFilter) keepAside(d engine.Diagnostic, kind string) {
	if f.filter.Quiet && d.Severity < engine.Error {
		return
	}
	f.suppressed = append(f.suppressed, report.Suppressed{Diagnostic: d, Kind: kind})
}

// Own returns the findings of the document's suppression comments, to be
// asked for once its rules ran: the comments that suppressed nothing, and
// the malformed ones. A suppression comment does not suppress them; the
// rest of the filter applies.
func (f *DocumentFilter) Own() []engine.Diagnostic {
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

// Quieted returns the counts of the findings that Quiet left out.
func (f *DocumentFilter) Quieted() engine.Counts { return f.quieted }

// Suppressed returns the suppressed findings kept aside so far
// (Filter.KeepSuppressed), in the order they came.
func (f *DocumentFilter) Suppressed() []report.Suppressed { return f.suppressed }

// knownRules tells the suppression comments which rules were loaded for
// the document: those of rss and celint's own, each by its id and by
// "id/code" for its codes and their aliases.
func (f *DocumentFilter) knownRules(rss []*engine.Ruleset) {
	names := map[string]bool{}
	var list []string
	add := func(n string) {
		if !names[n] {
			names[n] = true
			list = append(list, n)
		}
	}
	for _, id := range []string{InputRuleID, SuppressionRuleID} {
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
		return names[rule] || (id == InputRuleID || id == SuppressionRuleID)
	}, func(rule string) []string { return spelling.Nearest(rule, list) })
}

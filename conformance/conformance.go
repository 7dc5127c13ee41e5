// Package conformance checks every rule of a ruleset against its own
// examples, in both directions: a valid example yields no diagnostic of the
// rule at or under its selected location, and an invalid one yields one
// there (or exactly the diagnostics its 'expect' list declares). A rule
// error on any example is a failure, and so is a rule without both a valid
// and an invalid example. An invalid example that states its fixed
// document is fixed as celint fix fixes it, and must become that document
// without the findings fixed and without an error it did not have.
package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// Status is the outcome of one example.
type Status string

// The outcomes.
const (
	Pass Status = "pass"
	Fail Status = "FAIL"
	Skip Status = "skip"
	// Warn is a doubt about a rule that does not fail it, such as a
	// selection that matches nothing in any of its examples (a typo?).
	Warn Status = "warn"
)

// Result is the outcome of one example of one rule.
type Result struct {
	RuleID   string `json:"ruleId"`
	Example  string `json:"example"`  // fixture path, or "inline <file>:<line>"
	Kind     string `json:"kind"`     // "valid" or "invalid"
	Selected string `json:"selected"` // JSON Pointer
	Expected string `json:"expected"`
	Got      string `json:"got"`
	Status   Status `json:"status"`
}

// Options tune a run.
type Options struct {
	// FixturesDir, when set, is a folder on disk that replaces the ruleset's
	// own fixture folder: example sources are looked up there, and a source
	// that is absent there is skipped, not failed.
	FixturesDir string
	// Rules, when not empty, limits the run to these rule ids.
	Rules []string
}

// Run checks every example of every rule of rs.
func Run(ctx context.Context, rs *engine.Ruleset, opts Options) []Result {
	var out []Result
	for _, r := range rs.Rules {
		if len(opts.Rules) > 0 && !contains(opts.Rules, r.ID) {
			continue
		}
		for i := range r.Examples.Valid {
			out = append(out, checkExample(ctx, rs, r, &r.Examples.Valid[i], true, opts))
		}
		for i := range r.Examples.Invalid {
			out = append(out, checkExample(ctx, rs, r, &r.Examples.Invalid[i], false, opts))
		}
		if w, ok := unselected(rs, r); ok {
			out = append(out, w)
		}
		if len(r.Examples.Valid) == 0 || len(r.Examples.Invalid) == 0 {
			out = append(out, Result{RuleID: r.ID, Example: "-", Kind: "-", Expected: "at least one valid and one invalid example",
				Got: fmt.Sprintf("%d valid, %d invalid", len(r.Examples.Valid), len(r.Examples.Invalid)), Status: Fail})
		}
	}
	return out
}

// unselected returns a warning when the rule's selection matches nothing
// in any example it can load.
func unselected(rs *engine.Ruleset, r *engine.Rule) (Result, bool) {
	loaded := 0
	for _, ex := range append(examples(r.Examples.Valid), examples(r.Examples.Invalid)...) {
		doc, err := rs.LoadExample(r, ex, engine.ExampleOptions{})
		if err != nil {
			continue
		}
		loaded++
		if r.Selects(doc) {
			return Result{}, false
		}
	}
	if loaded == 0 {
		return Result{}, false
	}
	return Result{RuleID: r.ID, Example: "-", Kind: "-", Status: Warn,
		Expected: "'given' selects something in at least one example",
		Got:      fmt.Sprintf("it selects nothing in any of the %d examples (a typo in a path?)", loaded)}, true
}

func examples(list []loader.ExampleSpec) []*loader.ExampleSpec {
	out := make([]*loader.ExampleSpec, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out
}

// Failed reports whether any result failed.
func Failed(results []Result) bool {
	for _, r := range results {
		if r.Status == Fail {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func checkExample(ctx context.Context, rs *engine.Ruleset, r *engine.Rule, ex *loader.ExampleSpec, valid bool, opts Options) Result {
	res := Result{RuleID: r.ID, Selected: ex.Selected.Value, Kind: "invalid"}
	res.Expected = "a diagnostic at or under " + displayPointer(ex.Selected.Value)
	if valid {
		res.Kind = "valid"
		res.Expected = "no diagnostic at or under " + displayPointer(ex.Selected.Value)
	}
	doc, err := rs.LoadExample(r, ex, engine.ExampleOptions{FixturesDir: opts.FixturesDir})
	res.Example = engine.ExampleName(r, ex)
	if errors.Is(err, engine.ErrAbsent) {
		var le *loader.Error
		if errors.As(err, &le) {
			res.Got = le.Msg
		}
		res.Status = Skip
		return res
	}
	if err != nil {
		res.Status, res.Got = Fail, "cannot load the example: "+err.Error()
		return res
	}
	if ex.Selected.Value != "" {
		if _, ok := doc.Lookup(ex.Selected.Value); !ok {
			res.Status, res.Got = Fail, fmt.Sprintf("selected %s does not exist in the example", ex.Selected.Value)
			return res
		}
	}
	diags, err := rs.Lint(ctx, doc, engine.LintOptions{Filter: func(x *engine.Rule) bool { return x == r }})
	if err != nil {
		res.Status, res.Got = Fail, "stopped: "+err.Error()
		return res
	}
	var inside, ruleErrors []engine.Diagnostic
	for _, d := range diags {
		if d.RuleError {
			ruleErrors = append(ruleErrors, d)
			continue
		}
		if under(d.Pointer, ex.Selected.Value) {
			inside = append(inside, d)
		}
	}
	if !valid && ex.Fixed != nil && len(ruleErrors) == 0 {
		if problem := checkFixed(ctx, rs, r, doc, diags, ex); problem != "" {
			res.Expected = "its fixes to give the fixed document, free of the findings they fix"
			res.Status, res.Got = Fail, problem
			return res
		}
	}
	if !valid && len(ex.Expect) > 0 && len(ruleErrors) == 0 {
		res.Expected = fmt.Sprintf("exactly the %d expected diagnostics", len(ex.Expect))
		if problems := matchExpected(diags, ex.Expect); len(problems) > 0 {
			res.Status, res.Got = Fail, strings.Join(problems, "; ")
		} else {
			res.Status, res.Got = Pass, summarize(diags)
		}
		return res
	}
	switch {
	case len(ruleErrors) > 0:
		res.Status, res.Got = Fail, summarize(ruleErrors)
	case valid && len(inside) > 0, !valid && len(inside) == 0:
		res.Status, res.Got = Fail, summarize(inside)
		if !valid && len(diags) > 0 {
			res.Got += "; elsewhere: " + summarize(diags)
		}
	default:
		res.Status, res.Got = Pass, summarize(inside)
	}
	return res
}

// matchExpected checks diagnostics against expectations in both
// directions, as analysistest does with its "want" comments: each
// diagnostic must use up one expectation with its pointer and a matching
// message, and no expectation may be left over.
func matchExpected(diags []engine.Diagnostic, expect []loader.ExpectSpec) []string {
	used := make([]bool, len(expect))
	var problems []string
	for _, d := range diags {
		found := false
		for i, x := range expect {
			if used[i] || x.Pointer.Value != d.Pointer {
				continue
			}
			if re, err := regexp.Compile(x.Message.Value); err != nil || !re.MatchString(d.Message) {
				continue
			}
			used[i], found = true, true
			break
		}
		if !found {
			problems = append(problems, fmt.Sprintf("unexpected diagnostic at %s: %s", displayPointer(d.Pointer), d.Message))
		}
	}
	for i, x := range expect {
		if !used[i] {
			problems = append(problems, fmt.Sprintf("no diagnostic at %s matching %q", displayPointer(x.Pointer.Value), x.Message.Value))
		}
	}
	return problems
}

func displayPointer(p string) string {
	if p == "" {
		return "the document root"
	}
	return p
}

// under reports whether pointer p is q or lies below it.
func under(p, q string) bool {
	return p == q || q == "" || strings.HasPrefix(p, q+"/")
}

func summarize(ds []engine.Diagnostic) string {
	if len(ds) == 0 {
		return "no diagnostic"
	}
	var parts []string
	for i, d := range ds {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(ds)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %s", displayPointer(d.Pointer), d.Message))
	}
	return strings.Join(parts, "; ")
}

// TB is the part of testing.TB that Check needs, so the harness can be
// tested itself.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
}

// Check runs the examples of rs and reports every failure through t; skips
// and warnings are logged.
func Check(t TB, rs *engine.Ruleset, opts Options) []Result {
	t.Helper()
	results := Run(context.Background(), rs, opts)
	for _, r := range results {
		switch r.Status {
		case Fail:
			t.Errorf("%s: %s example %s (selected %s): expected %s; got %s", r.RuleID, r.Kind, r.Example, displayPointer(r.Selected), r.Expected, r.Got)
		case Skip:
			t.Logf("%s: %s example %s skipped: %s", r.RuleID, r.Kind, r.Example, r.Got)
		case Warn:
			t.Logf("%s: warning: expected %s; %s", r.RuleID, r.Expected, r.Got)
		}
	}
	return results
}

// checkFixed makes the fixes of the rule's findings on an invalid example,
// as celint fix --rule makes them: round after round, fixes that touch the
// same place in different rounds, until none is left. It says what is
// wrong ("" when nothing is): the result must be the example's fixed
// document (the example's own document when no finding has a fix), the
// rule must not report a fixed finding again, and the result must have no
// error, of any rule of the ruleset, that the example did not have.
func checkFixed(ctx context.Context, rs *engine.Ruleset, r *engine.Rule, doc *loader.Document, diags []engine.Diagnostic, ex *loader.ExampleSpec) string {
	want, err := loader.Extract(r.File, r.Text, ex.Fixed, rs.LoadOptions)
	if err != nil {
		return "the example's fixed document does not load: " + err.Error()
	}
	only := engine.LintOptions{Filter: func(x *engine.Rule) bool { return x == r }}
	cur := doc
	var moves []*loader.PointerMap // each round's
	type finding struct {
		code, pointer string
		round         int // the round that fixed it
	}
	var fixed []finding
	for round := 0; ; round++ {
		var fixes [][]loader.Edit
		var of []engine.Diagnostic
		for _, d := range diags {
			if len(d.Fix) > 0 {
				fixes, of = append(fixes, d.Fix), append(of, d)
			}
		}
		if len(fixes) == 0 {
			break
		}
		if round == engine.DefaultFixRounds { // the bound celint fix has
			return fmt.Sprintf("the findings are still fixable after %d rounds of fixes", engine.DefaultFixRounds)
		}
		edits, taken := loader.Combine(cur.Root.Value(), fixes)
		out, err := loader.Edits("example.json", cur.JSON(), rs.LoadOptions, edits)
		if err != nil {
			return "the fixes do not apply: " + err.Error()
		}
		next, err := loader.Parse("example.json", out, rs.LoadOptions)
		if err != nil {
			return "the fixed document does not parse: " + err.Error()
		}
		for i, d := range of {
			if taken[i] {
				fixed = append(fixed, finding{d.Code, d.Pointer, round})
			}
		}
		moves = append(moves, loader.NewPointerMap(cur.Root.Value(), edits))
		cur = next
		if diags, err = rs.Lint(ctx, cur, only); err != nil {
			return "linting the fixed document stopped: " + err.Error()
		}
	}
	if len(moves) == 0 && !bytes.Equal(canonicalJSON(doc.Root.Value()), canonicalJSON(want.Root.Value())) {
		return "the rule's findings carry no fix"
	}
	if !bytes.Equal(canonicalJSON(cur.Root.Value()), canonicalJSON(want.Root.Value())) {
		return fmt.Sprintf("the fixes give %s, not the fixed document %s", canonicalJSON(cur.Root.Value()), canonicalJSON(want.Root.Value()))
	}
	// follow is where a location of the document before round from is
	// after the last round.
	follow := func(ptr string, from int) (string, bool) {
		for _, m := range moves[from:] {
			var ok bool
			if ptr, ok = m.Map(ptr); !ok {
				return "", false
			}
		}
		return ptr, true
	}
	back := map[string]bool{}
	for _, d := range diags {
		if d.RuleError {
			return "the fixed document gives a rule error: " + summarize([]engine.Diagnostic{d})
		}
		back[d.Code+" "+d.Pointer] = true
	}
	for _, f := range fixed {
		if p, ok := follow(f.pointer, f.round); ok && back[f.code+" "+p] {
			return "the fixed document still has the finding at " + displayPointer(p)
		}
	}
	if len(moves) == 0 {
		return ""
	}
	before, err := rs.Lint(ctx, doc, engine.LintOptions{})
	if err != nil {
		return "linting the example with every rule stopped: " + err.Error()
	}
	after, err := rs.Lint(ctx, cur, engine.LintOptions{})
	if err != nil {
		return "linting the fixed document with every rule stopped: " + err.Error()
	}
	had := map[string]bool{}
	for _, d := range before {
		if p, ok := follow(d.Pointer, 0); ok {
			had[d.RuleID+"/"+d.Code+" "+p] = true
		}
	}
	for _, d := range after {
		if (d.Severity == engine.Error || d.RuleError) && !had[d.RuleID+"/"+d.Code+" "+d.Pointer] {
			return fmt.Sprintf("the fixes bring a new error: %s at %s: %s", d.RuleID, displayPointer(d.Pointer), d.Message)
		}
	}
	return ""
}

// canonicalJSON is v as JSON with sorted keys.
func canonicalJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

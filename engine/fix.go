package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/celint/celint/loader"
)

// DefaultFixRounds bounds how many times ApplyFixes lints a document and
// fixes it again: a fix can uncover a finding another fix mends.
const DefaultFixRounds = 10

// FixOptions control ApplyFixes.
type FixOptions struct {
	// Keep selects the findings whose fixes are made; nil keeps all.
	Keep func(Diagnostic) bool
	// MaxRounds bounds the rounds; 0 means DefaultFixRounds.
	MaxRounds int
	// Guard is the ruleset whose errors a fix may not add to the
	// document; nil means the ruleset whose fixes are made.
	Guard *Ruleset
	// Lint are the options of every lint.
	Lint LintOptions
}

// FixResult is what ApplyFixes made of a document.
type FixResult struct {
	// Source is the document's source after the fixes.
	Source []byte
	// Fixed are the findings whose fixes were made, as they were found
	// in the round that fixed them.
	Fixed []Diagnostic
	// Refused are findings whose fixes were not made, each with why.
	Refused []RefusedFix
	// Found are the findings of every round, each once (by rule, code and
	// pointer), as first found: with those fixed, those that had no fix.
	Found []Diagnostic
	// Rounds is how many rounds made fixes.
	Rounds int
	// Stable is false when fixes were still left after the last round.
	Stable bool
}

// RefusedFix is a finding whose fix was not made, and why.
type RefusedFix struct {
	Diagnostic
	Reason string
}

// ApplyFixes lints doc with rs and makes the fixes of its findings, round
// after round, until none is left or the rounds run out. In a round, the
// fixes of findings that touch the same values are not made together: the
// later ones wait for the next round, when they are found again on the
// document the earlier ones made. A fix that cannot be written into the
// source, or that would give the document an error (of opts.Guard) it did
// not have, is refused, with the reason, and not tried again.
//
// Nothing is written: the fixed source is returned. doc is not changed.
func ApplyFixes(ctx context.Context, rs *Ruleset, doc *loader.Document, opts FixOptions) (*FixResult, error) {
	rounds := opts.MaxRounds
	if rounds <= 0 {
		rounds = DefaultFixRounds
	}
	guard := opts.Guard
	if guard == nil {
		guard = rs
	}
	res := &FixResult{Source: doc.Source, Stable: true}
	refused := map[string]bool{}
	found := map[string]bool{}
	for {
		ds, err := rs.Lint(ctx, doc, opts.Lint)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			if k := d.RuleID + "/" + d.Code + " at " + d.Pointer; !found[k] {
				found[k] = true
				res.Found = append(res.Found, d)
			}
		}
		var todo []Diagnostic
		for _, d := range ds {
			if len(d.Fix) > 0 && (opts.Keep == nil || opts.Keep(d)) && !refused[fixKey(d)] {
				todo = append(todo, d)
			}
		}
		if len(todo) == 0 {
			return res, nil
		}
		if res.Rounds == rounds {
			res.Stable = false
			return res, nil
		}
		before := ds
		if guard != rs {
			if before, err = guard.Lint(ctx, doc, opts.Lint); err != nil {
				return nil, err
			}
		}
		batch := independent(todo)
		next, made, err := fixRound(ctx, guard, doc, before, batch, opts.Lint, func(d Diagnostic, why string) {
			refused[fixKey(d)] = true
			res.Refused = append(res.Refused, RefusedFix{Diagnostic: d, Reason: why})
		})
		if err != nil {
			return nil, err
		}
		if len(made) == 0 {
			if len(batch) == len(todo) {
				return res, nil
			}
			continue // the waiting ones, now that those in their way are refused
		}
		res.Rounds++
		res.Fixed = append(res.Fixed, made...)
		doc, res.Source = next, next.Source
	}
}

// fixRound makes the fixes of batch, findings of doc whose edits touch
// different values, and returns the new document and the findings it
// fixed. It makes them all at once when that works; else one by one,
// refusing each that cannot be written or that adds an error.
func fixRound(ctx context.Context, guard *Ruleset, doc *loader.Document, before []Diagnostic, batch []Diagnostic, lo LintOptions, refuse func(Diagnostic, string)) (*loader.Document, []Diagnostic, error) {
	try := func(cur *loader.Document, ds []Diagnostic) (*loader.Document, string, error) {
		var edits []loader.Edit
		for _, d := range ds {
			edits = append(edits, d.Fix...)
		}
		out, err := loader.Edits(doc.Name, cur.Source, guard.LoadOptions, edits)
		if err != nil {
			return nil, err.Error(), nil
		}
		next, err := loader.Parse(doc.Name, out, guard.LoadOptions)
		if err != nil {
			return nil, "the fixed document does not read: " + err.Error(), nil
		}
		after, err := guard.Lint(ctx, next, lo)
		if err != nil {
			return nil, "", err
		}
		if added := newErrors(before, after); len(added) > 0 {
			return nil, "it would bring " + added[0], nil
		}
		return next, "", nil
	}
	next, why, err := try(doc, batch)
	if err != nil || why == "" {
		return next, batch, err
	}
	if len(batch) == 1 {
		refuse(batch[0], why)
		return doc, nil, nil
	}
	cur := doc
	var made []Diagnostic
	for _, d := range batch {
		next, why, err := try(cur, []Diagnostic{d})
		if err != nil {
			return nil, nil, err
		}
		if why != "" {
			refuse(d, why)
			continue
		}
		cur = next
		made = append(made, d)
	}
	return cur, made, nil
}

// independent returns the findings of ds whose fixes can be made
// together, in order: a fix joins when the values it touches are apart
// from those of the fixes before it, or when it is the same as one of
// them (the same edits, reported for several findings).
func independent(ds []Diagnostic) []Diagnostic {
	var out []Diagnostic
	var touched []string
	seen := map[string]bool{}
	for _, d := range ds {
		k := editsKey(d.Fix)
		if seen[k] {
			continue
		}
		t := touches(d.Fix)
		if overlaps(t, touched) {
			continue
		}
		seen[k] = true
		touched = append(touched, t...)
		out = append(out, d)
	}
	return out
}

// touches lists the pointers of the values edits change: for an add or a
// remove of an array item, the array (the items after it move).
func touches(edits []loader.Edit) []string {
	var out []string
	add := func(ptr string, op loader.EditOp) {
		if op != loader.Replace {
			if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
				if last := ptr[i+1:]; last == "-" || isIndex(last) {
					ptr = ptr[:i]
				}
			}
		}
		out = append(out, ptr)
	}
	for _, e := range edits {
		add(e.Pointer, e.Op)
		if e.Op == loader.Move {
			add(e.From, loader.Remove)
		}
	}
	return out
}

func isIndex(tok string) bool {
	if tok == "" {
		return false
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// overlaps reports whether a pointer of a is one of b, or inside or
// around one of b.
func overlaps(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y || strings.HasPrefix(x, y+"/") || strings.HasPrefix(y, x+"/") {
				return true
			}
		}
	}
	return false
}

// editsKey identifies a list of edits by its JSON.
func editsKey(edits []loader.Edit) string {
	b, err := json.Marshal(edits)
	if err != nil {
		return fmt.Sprint(edits)
	}
	return string(b)
}

// fixKey identifies a fixable finding across rounds.
func fixKey(d Diagnostic) string {
	return d.RuleID + "/" + d.Code + " at " + d.Pointer + " " + editsKey(d.Fix)
}

// newErrors lists the errors of after that before does not have, by rule,
// code and pointer.
func newErrors(before, after []Diagnostic) []string {
	had := map[string]bool{}
	key := func(d Diagnostic) string { return d.RuleID + "/" + d.Code + " at " + d.Pointer }
	for _, d := range before {
		had[key(d)] = true
	}
	var out []string
	for _, d := range after {
		if d.Severity == Error && !had[key(d)] {
			out = append(out, fmt.Sprintf("%s: %s", key(d), d.Message))
		}
	}
	return out
}

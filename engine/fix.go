package engine

import (
	"context"
	"encoding/json"
	"fmt"

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
		next, made, err := fixRound(ctx, guard, doc, before, todo, opts.Lint, func(d Diagnostic, why string) {
			refused[fixKey(d)] = true
			res.Refused = append(res.Refused, RefusedFix{Diagnostic: d, Reason: why})
		})
		if err != nil {
			return nil, err
		}
		if len(made) == 0 {
			continue // the others, now that those that failed are refused
		}
		res.Rounds++
		res.Fixed = append(res.Fixed, made...)
		doc, res.Source = next, next.Source
	}
}

// fixRound makes the fixes of todo, findings of doc, that can be made
// together (loader.Combine), and returns the new document and the
// findings it fixed. When they cannot all be made, each is tried alone:
// those that cannot be written, or that add an error, are refused; of the
// rest, as many as still work together are made.
func fixRound(ctx context.Context, guard *Ruleset, doc *loader.Document, before []Diagnostic, todo []Diagnostic, lo LintOptions, refuse func(Diagnostic, string)) (*loader.Document, []Diagnostic, error) {
	root := doc.Root.Value()
	combine := func(ds []Diagnostic) ([]loader.Edit, []Diagnostic) {
		fixes := make([][]loader.Edit, len(ds))
		for i, d := range ds {
			fixes[i] = d.Fix
		}
		edits, taken := loader.Combine(root, fixes)
		var batch []Diagnostic
		for i, ok := range taken {
			if ok {
				batch = append(batch, ds[i])
			}
		}
		return edits, batch
	}
	try := func(edits []loader.Edit) (*loader.Document, string, error) {
		out, err := loader.Edits(doc.Name, doc.Source, guard.LoadOptions, edits)
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
		if added := newErrors(before, after, loader.NewPointerMap(root, edits)); len(added) > 0 {
			return nil, "it would bring " + added[0], nil
		}
		return next, "", nil
	}
	edits, batch := combine(todo)
	next, why, err := try(edits)
	if err != nil || why == "" {
		return next, batch, err
	}
	if len(batch) == 1 {
		refuse(batch[0], why)
		return doc, nil, nil
	}
	var good []Diagnostic
	for _, d := range batch {
		_, why, err := try(d.Fix)
		if err != nil {
			return nil, nil, err
		}
		if why != "" {
			refuse(d, why)
			continue
		}
		good = append(good, d)
	}
	if len(good) == 0 {
		return doc, nil, nil
	}
	if len(good) < len(batch) {
		edits, batch := combine(good)
		if next, why, err := try(edits); err != nil || why == "" {
			return next, batch, err
		}
	}
	// Each works alone but not all together: the first now, the others
	// when they are found again.
	next, _, err = try(good[0].Fix)
	return next, good[:1], err
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
// code and pointer, the pointers of before followed through the edits
// (moved) so that an error that only moved is not new.
func newErrors(before, after []Diagnostic, moved *loader.PointerMap) []string {
	had := map[string]bool{}
	key := func(d Diagnostic, ptr string) string { return d.RuleID + "/" + d.Code + " at " + ptr }
	for _, d := range before {
		if p, ok := moved.Map(d.Pointer); ok {
			had[key(d, p)] = true
		}
	}
	var out []string
	for _, d := range after {
		if d.Severity == Error && !had[key(d, d.Pointer)] {
			out = append(out, fmt.Sprintf("%s: %s", key(d, d.Pointer), d.Message))
		}
	}
	return out
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/outfile"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/loader"
)

// maxFixRounds bounds how many times a file is linted and fixed again: a
// fix can uncover a finding another fix mends.
const maxFixRounds = 10

func runFix(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	fset := newFlagSet("fix", "fix [--write] [--rule ID|ID/CODE,…] [--spec TAG] [--rules DIR] FILE|DIR|GLOB...", stdout)
	f.register(fset.FlagSet)
	var write bool
	var only string
	fset.BoolVar(&write, "write", false, "write the fixed files (atomically) instead of printing a unified diff")
	fset.StringVar(&only, "rule", "", "make only the fixes of these comma-separated rule `ids`, or id/code for one finding of a rule")
	paths, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(paths) == 0 {
		return exitError, &usageError{command: "fix", msg: "fix needs at least one FILE, DIR or GLOB"}
	}
	if slices.Contains(paths, "-") {
		return exitError, &usageError{command: "fix", msg: "fix works on files, not standard input"}
	}
	cat, pinned, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	keep := func(engine.Diagnostic) bool { return true }
	if only != "" {
		entries := strings.Split(only, ",")
		keep = func(d engine.Diagnostic) bool {
			return slices.Contains(entries, d.RuleID) || slices.Contains(entries, d.RuleID+"/"+d.Code)
		}
	}
	files, _, inputDiags := expandPaths(paths)
	code := exitOK
	for _, d := range inputDiags {
		fmt.Fprintf(stderr, "celint: %s: %s\n", safetext.Line(d.File), safetext.Line(d.Message))
		code = exitError
	}
	fixed := 0
	for _, file := range files {
		out, changed, err := fixFile(ctx, cat, pinned, file, keep, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "celint: %s\n", safetext.Line(err.Error()))
			code = exitError
			continue
		}
		if !changed {
			continue
		}
		fixed++
		if write {
			if err := outfile.WriteFile(file, out.after); err != nil {
				fmt.Fprintf(stderr, "celint: %s\n", safetext.Line(err.Error()))
				code = exitError
			}
			continue
		}
		fmt.Fprint(stdout, safetext.Block(udiff.Unified("a/"+file, "b/"+file, string(out.before), string(out.after))))
	}
	if write {
		fmt.Fprintf(stderr, "celint: fixed %s\n", plural(fixed, "file", "files"))
	}
	return code, nil
}

// fixResult is a file before and after its fixes.
type fixResult struct{ before, after []byte }

// fixFile lints file and makes the fixes of its findings that keep
// selects, round after round until none is left (at most maxFixRounds).
// Fixes that touch the same place are made in different rounds. A round
// whose edits cannot be made, or that would give the document an error it
// did not have, is not made, and says why on stderr.
func fixFile(ctx context.Context, cat *engine.Catalog, pinned *engine.Ruleset, file string, keep func(engine.Diagnostic) bool, stderr io.Writer) (fixResult, bool, error) {
	doc, rs, err := cat.LoadFile(file, pinned)
	if err != nil {
		if errors.Is(err, engine.ErrNotDescription) {
			return fixResult{}, false, fmt.Errorf("%s: not a description, left as it is", file)
		}
		return fixResult{}, false, err
	}
	res := fixResult{before: doc.Source, after: doc.Source}
	for round := 1; ; round++ {
		ds, err := rs.Lint(ctx, doc, engine.LintOptions{})
		if err != nil {
			return res, false, err
		}
		var fixes [][]loader.Edit
		for _, d := range ds {
			if len(d.Fix) > 0 && keep(d) {
				fixes = append(fixes, d.Fix)
			}
		}
		if len(fixes) == 0 {
			break
		}
		// Fixes that touch the same place wait for the next round, when
		// they are computed again.
		edits, _ := loader.Combine(doc.Root.Value(), fixes)
		if round > maxFixRounds {
			fmt.Fprintf(stderr, "celint: %s: still fixable after %d rounds; the rest is left\n", safetext.Line(file), maxFixRounds)
			break
		}
		out, err := loader.Edits(file, doc.Source, rs.LoadOptions, edits)
		if err != nil {
			fmt.Fprintf(stderr, "celint: %s: the fixes were not made: %s\n", safetext.Line(file), safetext.Line(err.Error()))
			break
		}
		next, err := loader.Parse(file, out, rs.LoadOptions)
		if err != nil {
			return res, false, err
		}
		after, err := rs.Lint(ctx, next, engine.LintOptions{})
		if err != nil {
			return res, false, err
		}
		if added := newErrors(ds, after, loader.NewPointerMap(doc.Root.Value(), edits)); len(added) > 0 {
			fmt.Fprintf(stderr, "celint: %s: the fixes were not made: they would bring %s\n", safetext.Line(file), safetext.Line(added[0]))
			break
		}
		doc, res.after = next, out
	}
	return res, string(res.after) != string(res.before), nil
}

// newErrors lists the errors of after that before does not have, by rule,
// code and pointer, the pointers of before followed through the edits
// (moved lets an error stay the same one when the fixes move the value it
// is about, or an array item before it).
func newErrors(before, after []engine.Diagnostic, moved *loader.PointerMap) []string {
	had := map[string]bool{}
	key := func(d engine.Diagnostic, ptr string) string { return d.RuleID + "/" + d.Code + " at " + ptr }
	for _, d := range before {
		if p, ok := moved.Map(d.Pointer); ok {
			had[key(d, p)] = true
		}
	}
	var out []string
	for _, d := range after {
		if d.Severity == engine.Error && !had[key(d, d.Pointer)] {
			out = append(out, fmt.Sprintf("%s: %s", key(d, d.Pointer), d.Message))
		}
	}
	return out
}

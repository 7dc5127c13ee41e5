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
)

func runFix(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	fset := newFlagSet("fix", "fix [--write] [--rule ID|ID/CODE,…] [--spec TAG] [--rules DIR] FILE|DIR|GLOB...", stdout)
	f.register(fset.FlagSet, withSpec|withCost)
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
		if err := emitChange(file, out.before, out.after, out.bom, write, stdout); err != nil {
			fmt.Fprintf(stderr, "celint: %s\n", safetext.Line(err.Error()))
			code = exitError
		}
	}
	if write {
		fmt.Fprintf(stderr, "celint: fixed %s\n", plural(fixed, "file", "files"))
	}
	return code, nil
}

// emitChange writes a file's new source (atomically) when write is set,
// and else prints the change as a unified diff: what fix and migrate do
// with a file they changed.
func emitChange(file string, before, after []byte, bom, write bool, stdout io.Writer) error {
	if write {
		if bom {
			// The mark the file starts with, which the document's
			// source leaves out, is kept.
			after = append([]byte("\ufeff"), after...)
		}
		return outfile.WriteFile(file, after)
	}
	_, err := fmt.Fprint(stdout, safetext.Block(udiff.Unified("a/"+file, "b/"+file, string(before), string(after))))
	return err
}

// fixResult is a file before and after its fixes.
type fixResult struct {
	before, after []byte
	bom           bool // the file starts with a byte order mark, which before and after leave out
}

// fixFile lints file and makes the fixes of its findings that keep
// selects (engine.ApplyFixes). A fix that is refused, or fixes still left
// after the last round, are said on stderr.
func fixFile(ctx context.Context, cat *engine.Catalog, pinned *engine.Ruleset, file string, keep func(engine.Diagnostic) bool, stderr io.Writer) (fixResult, bool, error) {
	doc, rs, err := cat.LoadFile(file, pinned)
	if err != nil {
		if errors.Is(err, engine.ErrUndeclaredVersion) {
			return fixResult{}, false, fmt.Errorf("%s: not a description, left as it is", file)
		}
		return fixResult{}, false, err
	}
	res, err := engine.ApplyFixes(ctx, rs, doc, engine.FixOptions{Keep: keep})
	if err != nil {
		return fixResult{}, false, err
	}
	for _, r := range res.Refused {
		fmt.Fprintf(stderr, "celint: %s:%d:%d: %s: the fix was not made: %s\n", safetext.Line(file), r.Line, r.Column, safetext.Line(r.Diagnostic.Label()), safetext.Line(r.Reason))
	}
	if !res.Stable {
		fmt.Fprintf(stderr, "celint: %s: still fixable after %d rounds; the rest is left\n", safetext.Line(file), res.Rounds)
	}
	out := fixResult{before: doc.Source, after: res.Source, bom: doc.BOM}
	return out, string(out.after) != string(out.before), nil
}

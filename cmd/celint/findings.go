package main

import (
	"fmt"
	"io"

	"github.com/celint/celint/engine/baseline"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/internal/outfile"
	"github.com/celint/celint/internal/safetext"
)

// defaultMaxDiagnostics is the --max-diagnostics of a run that sets none.
const defaultMaxDiagnostics = 1000

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

// endBaseline writes the findings r recorded to the new baseline
// (--write-baseline), or says what r's baseline hid (--baseline), on
// stderr.
func endBaseline(r lint.Filter, write, read string, stderr io.Writer) error {
	if r.Record != nil {
		if err := outfile.Write(write, r.Record.Baseline().Write); err != nil {
			return fmt.Errorf("--write-baseline: %v", err)
		}
		fmt.Fprintf(stderr, "celint: recorded %s in %s\n", plural(r.Record.Len(), "finding", "findings"), safetext.Line(write))
	}
	if r.Hide != nil {
		res := r.Hide.Result()
		gone := plural(res.Gone, "recorded finding is", "recorded findings are")
		fmt.Fprintf(stderr, "celint: baseline %s: %s hidden, %s gone\n", safetext.Line(read), plural(res.Hidden, "finding", "findings"), gone)
	}
	return nil
}

package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/celint/celint/internal/outfile"
	"github.com/celint/celint/internal/report"
)

// output is one report: a format, written to a file or, when file is "",
// to standard output.
type output struct {
	format string
	file   string
}

// parseOutputs reads the --output values: FORMAT=FILE adds a report in
// that format to that file; FILE alone sends the --format report there
// instead of standard output. Without any, the --format report goes to
// standard output.
func parseOutputs(values []string, format string) ([]output, error) {
	stdout := true
	var outs []output
	for _, v := range values {
		name, file, hasFormat := strings.Cut(v, "=")
		if hasFormat && slices.Contains(report.Formats(), name) {
			if file == "" {
				return nil, fmt.Errorf("--output %s: no file after %s=", v, name)
			}
			outs = append(outs, output{format: name, file: file})
			continue
		}
		if hasFormat && !strings.ContainsAny(name, `/\.`) {
			return nil, fmt.Errorf("--output %s: unknown format %q (the formats are %s)", v, name, strings.Join(report.Formats(), ", "))
		}
		if v == "" {
			return nil, fmt.Errorf("--output: no file")
		}
		stdout = false
		outs = append(outs, output{format: format, file: v})
	}
	if stdout {
		outs = append([]output{{format: format}}, outs...)
	}
	seen := map[string]bool{}
	for _, o := range outs {
		if o.file != "" && seen[o.file] {
			return nil, fmt.Errorf("--output: %s is named twice", o.file)
		}
		seen[o.file] = true
	}
	return outs, nil
}

// write prints the report. Colour only ever goes to a terminal on
// standard output, never to a file.
func (o output) write(stdout io.Writer, in report.Input, color bool) error {
	p, err := report.New(o.format)
	if err != nil {
		return err
	}
	if o.file == "" {
		in.Color = color
		return p.Print(stdout, in)
	}
	in.Color = false
	if err := outfile.Write(o.file, func(w io.Writer) error { return p.Print(w, in) }); err != nil {
		return fmt.Errorf("--output: %v", err)
	}
	return nil
}

// claimOutputs checks, before anything is linted, the files the run will
// write: the --output files and the --write-baseline file. Each must be
// writable as a regular file (outfile.Check: a named pipe, a device, a
// socket or a folder is refused; a symbolic link is replaced), none may be
// written twice, and none may overwrite an input of the run: the --baseline
// file, the config file, or a document named on the command line. It
// returns files without the documents found by walking a folder or
// expanding a glob that the run writes or reads as its baseline: those are
// not checked.
func claimOutputs(files []string, walked map[string]bool, outs []output, writeBase, readBase, configFile string) ([]string, error) {
	type target struct{ flag, path string }
	var targets []target
	for _, o := range outs {
		if o.file != "" {
			targets = append(targets, target{"--output", o.file})
		}
	}
	if writeBase != "" {
		targets = append(targets, target{"--write-baseline", writeBase})
	}
	for i, t := range targets {
		if err := outfile.Check(t.path); err != nil {
			return nil, fmt.Errorf("%s: %w", t.flag, err)
		}
		for _, u := range targets[:i] {
			if overwrites(t.path, u.path) {
				return nil, &usageError{command: "check", msg: fmt.Sprintf("%s %s and %s %s write the same file; choose another path", u.flag, u.path, t.flag, t.path)}
			}
		}
		for _, in := range []struct{ what, path string }{{"the --baseline file", readBase}, {"the config file", configFile}} {
			if overwrites(t.path, in.path) {
				return nil, &usageError{command: "check", msg: fmt.Sprintf("%s %s: that is %s, an input of this run; choose another path", t.flag, t.path, in.what)}
			}
		}
	}
	out := files[:0:0]
	for _, file := range files {
		if file == "-" {
			out = append(out, file)
			continue
		}
		drop := sameFile(file, readBase) // never a document to check
		for _, t := range targets {
			if overwrites(t.path, file) {
				if !walked[file] {
					return nil, &usageError{command: "check", msg: fmt.Sprintf("%s %s: that is %s, a document this run checks; choose another path", t.flag, t.path, file)}
				}
				drop = true
			}
		}
		if !drop {
			out = append(out, file)
		}
	}
	return out, nil
}

// overwrites reports whether writing target, which replaces what is at that
// path and never follows a symbolic link there, would overwrite input, read
// through links: the same path, or the same file where both exist.
func overwrites(target, input string) bool {
	if target == "" || input == "" {
		return false
	}
	if sameFile(target, input) {
		return true
	}
	t, err := os.Lstat(target)
	if err != nil {
		return false
	}
	in, err := os.Stat(input)
	return err == nil && os.SameFile(t, in)
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/celint/celint/engine/report"
	"github.com/celint/celint/internal/outfile"
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

// reports are the reports of a run, written as the files are linted: a
// report.Stream that writes to every output.
type reports struct {
	list []*openReport
}

// openReport is one output's report under way.
type openReport struct {
	stream report.Stream
	// tmp is the file the report goes to until it is whole, then renamed
	// to file; nil for standard output.
	tmp  *os.File
	file string
	err  error // the first error writing the report
}

// openOutputs starts the report of each output. in holds what a report
// says besides its files (report.NewStream). Colour only ever goes to a
// terminal on standard output (color), never to a file. A report to a
// file is written to a temporary file beside it, renamed to it once
// whole: a run never leaves half a report, nor empties a file it is
// about to check.
func openOutputs(outs []output, stdout io.Writer, in report.Input, color bool) (*reports, error) {
	r := &reports{}
	for _, o := range outs {
		in := in
		in.Color = color && o.file == ""
		or := &openReport{file: o.file}
		w := stdout
		if o.file != "" {
			tmp, err := os.CreateTemp(filepath.Dir(o.file), "."+filepath.Base(o.file)+".*.tmp")
			if err != nil {
				r.abort()
				return nil, fmt.Errorf("--output: %v", err)
			}
			or.tmp, w = tmp, tmp
		}
		s, err := report.NewStream(o.format, w, in)
		if err != nil {
			r.abort()
			return nil, err
		}
		or.stream = s
		r.list = append(r.list, or)
	}
	return r, nil
}

// File adds a file's part to every report. A report that fails to write
// is not written further; Close returns its error.
func (r *reports) File(f report.File) error {
	for _, or := range r.list {
		if or.err == nil {
			or.err = or.stream.File(f)
		}
	}
	return nil
}

// Close ends every report, and puts those written to a temporary file in
// place. It returns the first error.
func (r *reports) Close(rules []report.Rule) error {
	var first error
	for _, or := range r.list {
		if or.err == nil {
			or.err = or.stream.Close(rules)
		}
		if or.tmp != nil {
			if err := or.tmp.Close(); or.err == nil && err != nil {
				or.err = err
			}
			if or.err == nil {
				or.err = os.Chmod(or.tmp.Name(), 0o644)
			}
			if or.err == nil {
				or.err = os.Rename(or.tmp.Name(), or.file)
			}
			if or.err != nil {
				os.Remove(or.tmp.Name())
				or.err = fmt.Errorf("--output: %v", or.err)
			}
			or.tmp = nil
		}
		if first == nil {
			first = or.err
		}
	}
	return first
}

// abort removes the temporary files of the reports not closed.
func (r *reports) abort() {
	for _, or := range r.list {
		if or.tmp != nil {
			or.tmp.Close()
			os.Remove(or.tmp.Name())
			or.tmp = nil
		}
	}
}

// claimOutputs checks, before anything is linted, the files the run will
// write: the --output files and the --write-baseline file. Each must be
// writable as a regular file (outfile.Check: a named pipe, a device, a
// socket, a folder or a symbolic link is refused), none may be
// written twice, and none may overwrite an input of the run: the --baseline
// file, the config file, or a document named on the command line or found
// by walking a folder or expanding a glob. A file found by a walk or a
// glob that holds what celint writes (a JSON or SARIF report, a baseline:
// see [celintOutput]) may be written over: it is left out of the files
// returned, as is the --baseline file, and not checked.
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
				if !walked[file] || !celintOutput(file) {
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

// celintOutput reports whether file holds what a run of celint writes to a
// file: a JSON object with the members of a JSON report ("tool" and
// "diagnostics"), of a baseline ("version" and "findings") or of a SARIF
// log ("version" and "runs"). Anything else, such as a description, is an
// input that a run must not write over.
func celintOutput(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	var top map[string]json.RawMessage
	if json.NewDecoder(io.LimitReader(f, 64<<20)).Decode(&top) != nil {
		return false
	}
	has := func(names ...string) bool {
		for _, n := range names {
			if _, ok := top[n]; !ok {
				return false
			}
		}
		return true
	}
	return has("tool", "diagnostics") || has("version", "findings") || has("version", "runs")
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

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

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
	var buf bytes.Buffer
	if err := p.Print(&buf, in); err != nil {
		return err
	}
	if err := os.WriteFile(o.file, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--output: %v", err)
	}
	return nil
}

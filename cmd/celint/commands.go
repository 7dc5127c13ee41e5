package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/celint/celint/conformance"
	"github.com/celint/celint/internal/ruledoc"
	"github.com/celint/celint/internal/safetext"
)

func runConformance(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	var fixtures, format string
	var verbose bool
	fset := newFlagSet("conformance", "conformance [--spec TAG] [--rules DIR] [--fixtures DIR]", stderr)
	f.register(fset)
	fset.StringVar(&fixtures, "fixtures", "", "look example sources up in `DIR` instead of each ruleset's own fixtures; a source absent there is skipped")
	fset.StringVar(&format, "format", "text", "output `format`: text or json")
	fset.BoolVar(&verbose, "v", false, "list every example, not only failures and skips")
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) > 0 {
		return exitError, &usageError{fmt.Sprintf("conformance takes no arguments, got %q", rest)}
	}
	if format != "text" && format != "json" {
		return exitError, &usageError{"--format: expected text or json"}
	}
	cat, pinned, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	type rsResult struct {
		Ruleset string               `json:"ruleset"`
		Results []conformance.Result `json:"results"`
	}
	var all []rsResult
	failed := false
	for _, rs := range f.rulesetFor(cat, pinned) {
		res := conformance.Run(ctx, rs, conformance.Options{FixturesDir: fixtures})
		all = append(all, rsResult{Ruleset: rs.String(), Results: res})
		failed = failed || conformance.Failed(res)
	}
	if format == "json" {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(all); err != nil {
			return exitError, err
		}
		if _, err := stdout.Write(safetext.JSON(buf.Bytes())); err != nil {
			return exitError, err
		}
	} else {
		var buf bytes.Buffer
		for _, a := range all {
			var pass, fail, skip, warn int
			tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
			fmt.Fprintf(&buf, "%s\n", safetext.Line(a.Ruleset))
			fmt.Fprintln(tw, "  RESULT\tRULE\tEXAMPLE\tEXPECTED\tGOT")
			for _, r := range a.Results {
				switch r.Status {
				case conformance.Pass:
					pass++
				case conformance.Fail:
					fail++
				case conformance.Warn:
					warn++
				default:
					skip++
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s %s\t%s\t%s\n", r.Status, cell(r.RuleID), cell(r.Kind), cell(r.Example), cell(r.Expected), cell(r.Got))
			}
			tw.Flush()
			fmt.Fprintf(&buf, "%d passed, %d failed, %d skipped", pass, fail, skip)
			if warn > 0 {
				fmt.Fprintf(&buf, ", %d warnings", warn)
			}
			fmt.Fprint(&buf, "\n\n")
		}
		if _, err := io.WriteString(stdout, safetext.Guard(buf.String())); err != nil {
			return exitError, err
		}
	}
	if failed {
		return exitFindings, nil
	}
	return exitOK, nil
}

func runRules(args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	fset := newFlagSet("rules", "rules [--spec TAG] [--rules DIR]", stderr)
	f.register(fset)
	if _, err := parseFlags(fset, args); err != nil {
		return exitError, err
	}
	cat, pinned, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	var buf bytes.Buffer
	for i, rs := range f.rulesetFor(cat, pinned) {
		if i > 0 {
			fmt.Fprintln(&buf)
		}
		fmt.Fprintf(&buf, "%s: %d rules\n", cell(rs.String()), len(rs.Rules))
		tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tLEVEL\tSURFACE\tTITLE")
		for _, r := range rs.Rules {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", cell(r.ID), cell(r.Doc.Level), cell(r.Doc.Surface), cell(r.Doc.Title))
			for _, c := range r.Codes[1:] {
				fmt.Fprintf(tw, "  %s/%s\t%s\t\t%s\n", cell(r.ID), cell(c.Name), cell(c.Level), cell(strings.Join(c.Aliases, ", ")))
			}
		}
		if err := tw.Flush(); err != nil {
			return exitError, err
		}
	}
	if _, err := io.WriteString(stdout, safetext.Guard(buf.String())); err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// cell is text from a rule file made safe for one cell of a table printed
// to a terminal: on one line, control, bidi and invisible characters shown
// escaped ("<U+202E>"); see [safetext.Line].
func cell(s string) string { return safetext.Line(s) }

func runExplain(args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	fset := newFlagSet("explain", "explain [--spec TAG] [--rules DIR] RULE-ID", stderr)
	f.register(fset)
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) != 1 {
		return exitError, &usageError{"explain needs exactly one RULE-ID"}
	}
	cat, pinned, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	for _, rs := range f.rulesetFor(cat, pinned) {
		if r := rs.Rule(rest[0]); r != nil {
			text, err := ruledoc.Text(rs, r)
			if err != nil {
				return exitError, err
			}
			_, err = stdout.Write(text)
			return exitOK, err
		}
	}
	return exitError, fmt.Errorf("no rule %q; 'celint rules' lists them", rest[0])
}

func runDocs(args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	var out string
	fset := newFlagSet("docs", "docs [--spec TAG] [--rules DIR] [--out DIR]", stderr)
	f.register(fset)
	fset.StringVar(&out, "out", "docs/rules", "write the pages under `DIR`")
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) > 0 {
		return exitError, &usageError{fmt.Sprintf("docs takes no arguments, got %q", rest)}
	}
	cat, pinned, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	var n int
	for _, rs := range f.rulesetFor(cat, pinned) {
		paths, err := ruledoc.WriteAll(rs, out)
		if err != nil {
			return exitError, err
		}
		n += len(paths)
	}
	fmt.Fprintf(stdout, "wrote %d pages under %s\n", n, out)
	return exitOK, nil
}

package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/celint/celint/engine"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/celint/celint/conformance"
	"github.com/celint/celint/internal/ruledoc"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/internal/spelling"
)

func runConformance(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	var fixtures, format string
	var verbose bool
	fset := newFlagSet("conformance", "conformance [--spec TAG] [--rules DIR] [--fixtures DIR]", stdout)
	f.register(fset.FlagSet, withSpec|withCost)
	fset.StringVar(&fixtures, "fixtures", "", "look example sources up in `DIR` instead of each ruleset's own fixtures; a source absent there is skipped")
	fset.StringVar(&format, "format", "text", "output `format`: text or json")
	fset.BoolVar(&verbose, "v", false, "list every example, not only failures and skips")
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) > 0 {
		return exitError, &usageError{command: "conformance", msg: fmt.Sprintf("conformance takes no arguments, got %q", rest)}
	}
	if format != "text" && format != "json" {
		return exitError, &usageError{command: "conformance", msg: "--format: expected text or json"}
	}
	if fixtures != "" {
		if st, err := os.Stat(fixtures); err != nil || !st.IsDir() {
			return exitError, fmt.Errorf("--fixtures %s: not a folder of fixtures (%v)", fixtures, cmp.Or(err, errors.New("not a directory")))
		}
	}
	f.eager = true
	cat, pinned, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	type rsResult struct {
		Ruleset string               `json:"ruleset"`
		Results []conformance.Result `json:"results"`
	}
	var all []rsResult
	failed, checked := false, 0
	// A ruleset's migrations are rulesets too: their fixes are checked
	// with the ruleset's rules.
	var targets []*engine.Ruleset
	for _, rs := range f.rulesetFor(cat, pinned) {
		targets = append(targets, rs)
		for i := range rs.Migrations {
			mig, err := rs.LoadMigration(&rs.Migrations[i])
			if err != nil {
				return exitError, err
			}
			targets = append(targets, mig)
		}
	}
	for _, rs := range targets {
		res := conformance.Run(ctx, rs, conformance.Options{FixturesDir: fixtures})
		all = append(all, rsResult{Ruleset: rs.String(), Results: res})
		failed = failed || conformance.Failed(res)
		for _, r := range res {
			if r.Status == conformance.Pass || r.Status == conformance.Fail {
				checked++
			}
		}
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
		// On a terminal the long EXPECTED and GOT cells are cut to fit its
		// width ($COLUMNS, else 120); a file or a pipe gets them whole.
		fit := 0
		if isTerminal(stdout) {
			width := 120
			if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 40 {
				width = n
			}
			fit = max(20, (width-90)/2)
		}
		var buf bytes.Buffer
		for _, a := range all {
			var pass, fail, skip, warn int
			tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
			fmt.Fprintf(&buf, "%s\n", safetext.Line(a.Ruleset))
			header := false
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
				if r.Status == conformance.Pass && !verbose {
					continue // passes are listed with -v
				}
				if !header {
					header = true
					fmt.Fprintln(tw, "  RESULT\tRULE\tEXAMPLE\tEXPECTED\tGOT")
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s %s\t%s\t%s\n", r.Status, cell(r.RuleID), cell(r.Kind), cell(r.Example), clip(cell(r.Expected), fit), clip(cell(r.Got), fit))
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
	if checked == 0 {
		fmt.Fprintln(stderr, "celint: conformance checked no example: every one was skipped")
		return exitFindings, nil
	}
	return exitOK, nil
}

func runRules(args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	fset := newFlagSet("rules", "rules [--spec TAG] [--rules DIR] [--format text|json]", stdout)
	f.register(fset.FlagSet, withSpec)
	var format string
	fset.StringVar(&format, "format", "text", "output `format`: text (a table) or json")
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) > 0 {
		return exitError, &usageError{command: "rules", msg: fmt.Sprintf("rules takes no arguments, got %q", rest)}
	}
	if format != "text" && format != "json" {
		return exitError, &usageError{command: "rules", msg: fmt.Sprintf("--format %q: expected text or json", format)}
	}
	cat, pinned, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	if format == "json" {
		return exitOK, rulesJSON(stdout, f.rulesetFor(cat, pinned))
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
			title := r.Doc.Title
			if r.Fixable {
				title += " (fixable: celint fix)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", cell(r.ID), cell(r.Doc.Level), cell(r.Doc.Surface), cell(title))
			for _, c := range r.Codes[1:] {
				fmt.Fprintf(tw, "  %s/%s\t%s\t\t%s\n", cell(r.ID), cell(c.Name), cell(c.LevelLabel()), cell(strings.Join(c.Aliases, ", ")))
			}
		}
		if err := tw.Flush(); err != nil {
			return exitError, err
		}
	}
	fmt.Fprintf(&buf, "\nbuilt in: %d rules celint reports itself, whatever rulesets run\n", len(builtinRules))
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLEVEL\tSURFACE\tTITLE")
	for _, b := range builtinRules {
		fmt.Fprintf(tw, "%s\t%s\t\t%s (built in)\n", b.ID, cmp.Or(b.Level, "-"), b.Title)
		for _, c := range b.Codes {
			fmt.Fprintf(tw, "  %s/%s\t%s\t\t\n", b.ID, c, b.Level)
		}
	}
	if err := tw.Flush(); err != nil {
		return exitError, err
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
	fset := newFlagSet("explain", "explain [--spec TAG] [--rules DIR] RULE-ID|RULE-ID/CODE", stdout)
	f.register(fset.FlagSet, withSpec)
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) != 1 {
		return exitError, &usageError{command: "explain", msg: "explain needs exactly one RULE-ID, or RULE-ID/CODE"}
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
	// ID/CODE, as diagnostics print it: the code's part of the rule.
	if i := strings.LastIndexByte(rest[0], '/'); i > 0 {
		id, code := rest[0][:i], rest[0][i+1:]
		for _, rs := range f.rulesetFor(cat, pinned) {
			r := rs.Rule(id)
			if r == nil {
				continue
			}
			c, ok := ruledoc.FindCode(r, code)
			if !ok {
				var names []string
				for _, c := range r.Codes[1:] {
					names = append(names, c.Name)
				}
				if len(names) == 0 {
					return exitError, fmt.Errorf("rule %s reports no code %q: it has no codes; 'celint explain %s' prints it", id, code, id)
				}
				return exitError, fmt.Errorf("rule %s reports no code %q; its codes: %s", id, code, strings.Join(names, ", "))
			}
			text, err := ruledoc.CodeText(rs, r, c)
			if err != nil {
				return exitError, err
			}
			_, err = stdout.Write(text)
			return exitOK, err
		}
	}
	for _, b := range builtinRules {
		if b.ID == rest[0] {
			fmt.Fprintf(stdout, "%s (%s, built in)\n%s\n", b.ID, cmp.Or(b.Level, "the level of the findings it stands for"), b.Title)
			for _, c := range b.Codes {
				fmt.Fprintf(stdout, "  %s/%s\n", b.ID, c)
			}
			return exitOK, nil
		}
	}
	var ids []string
	for _, b := range builtinRules {
		ids = append(ids, b.ID)
	}
	for _, rs := range f.rulesetFor(cat, pinned) {
		for _, r := range rs.Rules {
			if !slices.Contains(ids, r.ID) { // rulesets of several versions share ids
				ids = append(ids, r.ID)
			}
		}
	}
	if near := spelling.Nearest(rest[0], ids); len(near) > 0 {
		return exitError, fmt.Errorf("no rule %q; did you mean %s? ('celint rules' lists them)", rest[0], strings.Join(near, " or "))
	}
	return exitError, fmt.Errorf("no rule %q; 'celint rules' lists them", rest[0])
}

func runDocs(args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	var out string
	fset := newFlagSet("docs", "docs [--spec TAG] [--rules DIR] [--out DIR]", stdout)
	f.register(fset.FlagSet, withSpec)
	fset.StringVar(&out, "out", "docs/rules", "write the pages under `DIR`; a page an earlier run listed in its manifest (.celint-pages beside the ruleset's index) and no longer writes is removed, nothing else")
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) > 0 {
		return exitError, &usageError{command: "docs", msg: fmt.Sprintf("docs takes no arguments, got %q", rest)}
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

// rulesJSON writes the rules as JSON: one object per ruleset with its
// rules, each with its codes, and last the built-in rules, as ruleset
// "celint" with builtIn set.
func rulesJSON(w io.Writer, all []*engine.Ruleset) error {
	type code struct {
		Code    string   `json:"code"`
		Level   string   `json:"level"`
		Aliases []string `json:"aliases,omitempty"`
	}
	type rule struct {
		ID        string `json:"id"`
		Level     string `json:"level"`
		Severity  string `json:"severity"`
		Surface   string `json:"surface,omitempty"`
		Title     string `json:"title"`
		Fixable   bool   `json:"fixable,omitempty"`
		File      string `json:"file,omitempty"`
		BuiltIn   bool   `json:"builtIn,omitempty"`
		SourceURL string `json:"sourceUrl,omitempty"`
		Codes     []code `json:"codes,omitempty"`
	}
	type ruleset struct {
		Ruleset string `json:"ruleset"`
		BuiltIn bool   `json:"builtIn,omitempty"`
		Rules   []rule `json:"rules"`
	}
	out := []ruleset{}
	for _, rs := range all {
		r := ruleset{Ruleset: rs.String(), Rules: []rule{}}
		for _, x := range rs.Rules {
			e := rule{ID: x.ID, Level: x.Doc.Level, Severity: x.Severity.String(), Surface: x.Doc.Surface, Title: x.Doc.Title, Fixable: x.Fixable, File: x.File, SourceURL: x.SourceURL}
			for _, c := range x.Codes[1:] {
				e.Codes = append(e.Codes, code{Code: c.Name, Level: c.Level, Aliases: c.Aliases})
			}
			r.Rules = append(r.Rules, e)
		}
		out = append(out, r)
	}
	// The rules celint reports itself: the last entry, "celint", built in.
	builtin := ruleset{Ruleset: "celint", BuiltIn: true}
	for _, b := range builtinRules {
		e := rule{ID: b.ID, Level: b.Level, Title: b.Title, BuiltIn: true}
		if b.Level != "" {
			e.Severity = engine.SeverityOfLevel(b.Level).String()
		}
		for _, c := range b.Codes {
			e.Codes = append(e.Codes, code{Code: c, Level: b.Level})
		}
		builtin.Rules = append(builtin.Rules, e)
	}
	out = append(out, builtin)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := w.Write(safetext.JSON(buf.Bytes()))
	return err
}

// clip cuts s to n characters, ending in "…"; n = 0 keeps it whole.
func clip(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

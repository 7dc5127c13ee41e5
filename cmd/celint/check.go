package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/celint/celint/engine/config"
	"github.com/celint/celint/internal/ruledoc"
	"github.com/celint/celint/internal/safetext"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/baseline"
	"github.com/celint/celint/engine/report"
	"github.com/celint/celint/loader"
)

// inputRuleID is the rule id of diagnostics about unreadable input.
const inputRuleID = "celint.input"

// limitFlags name the flag that raises each loader limit.
var limitFlags = map[string]string{
	"bytes":       "--max-bytes",
	"depth":       "--max-depth",
	"values":      "--max-values",
	"scalarBytes": "--max-scalar-bytes",
}

type checkFlags struct {
	ruleFlags
	format      string
	failOn      string
	only        string
	jobs        int
	color       string
	maxBytes    int64
	maxScalarB  int64
	maxDepth    int
	maxValues   int
	budget      uint64
	ruleTimeout time.Duration
	stdinName   string
	config      string
	noConfig    bool
	outputs     []string // [FORMAT=]FILE
	ignore      []string // --ignore patterns
	quiet       bool
	maxWarnings int
	maxDiags    int // --max-diagnostics
	baseline    string
	writeBase   string
	stats       int // --stats: rows of rule statistics; 0 none, -1 all
}

func runCheck(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	var f checkFlags
	fset := newFlagSet("check", "check [flags] FILE|DIR|GLOB...", stdout)
	f.register(fset.FlagSet, withSpec|withCost)
	fset.StringVar(&f.format, "format", "text", "output `format`: "+strings.Join(report.Formats(), ", "))
	fset.StringVar(&f.failOn, "fail-on", "error", "exit 1 when a diagnostic is at or above this `severity`: error, warning, info, or never")
	fset.StringVar(&f.only, "rule", "", "run only these comma-separated rule `ids`; id/code keeps only that finding of the rule")
	fset.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "lint this many files at once")
	fset.StringVar(&f.color, "color", "auto", "colour text output: auto, always, never")
	fset.Var((*byteSize)(&f.maxBytes), "max-bytes", "refuse documents larger than this `size`: bytes, or with a unit (10KB, 16MiB, 1GiB; default: the ruleset's limit; at most 1GiB)")
	fset.Var((*byteSize)(&f.maxScalarB), "max-scalar-bytes", "refuse strings longer than this `size` (bytes, or with a unit as for --max-bytes; default: the ruleset's limit)")
	fset.IntVar(&f.maxDepth, "max-depth", 0, "refuse documents nested deeper than this (default: the ruleset's limit)")
	fset.IntVar(&f.maxValues, "max-values", 0, "refuse documents with more values than this (default: the ruleset's limit)")
	fset.Uint64Var(&f.budget, "budget", 0, fmt.Sprintf("CEL cost budget of one rule on one document (default %d)", engine.DefaultBudget))
	fset.StringVar(&f.stdinName, "stdin-name", "<stdin>", "the `name` the document read from standard input ('-') is reported as; its extension (.json, .yaml) tells the format")
	fset.DurationVar(&f.ruleTimeout, "rule-timeout", engine.DefaultRuleTimeout, "wall-clock safety net: stop a rule that runs longer than this on one document (its cost budget bounds it first)")
	fset.Func("output", "write the report to `[FORMAT=]FILE`: with a format (json=out.json, sarif=celint.sarif), in addition to the report on stdout; without, the --format report goes to FILE instead of stdout. Repeat for several", func(v string) error {
		f.outputs = append(f.outputs, v)
		return nil
	})
	fset.Func("ignore", "do not check the files this `PATTERN` matches ('*', '?', '**' at most 4 times; relative to the current folder; a name without '/' matches anywhere). Repeat for several", func(v string) error {
		f.ignore = append(f.ignore, v)
		return nil
	})
	fset.BoolVar(&f.quiet, "quiet", false, "report errors only (warnings and infos still count for --fail-on and --max-warnings)")
	fset.IntVar(&f.maxWarnings, "max-warnings", -1, "exit 1 when there are more than `N` warnings (-1: no limit)")
	fset.IntVar(&f.maxDiags, "max-diagnostics", defaultMaxDiagnostics, "report at most `N` findings of a file, the first in report order, then one entry saying how many more there are; the counts and the exit code still count them all (0: no limit)")
	fset.StringVar(&f.config, "config", "", "read the config `file` (default: the nearest .celint.yaml from the current folder up to the repository root or the home folder)")
	fset.BoolVar(&f.noConfig, "no-config", false, "ignore any config file")
	fset.StringVar(&f.baseline, "baseline", "", "hide the findings recorded in this baseline `file`; report only new ones")
	fset.StringVar(&f.writeBase, "write-baseline", "", "record today's findings in this baseline `file` (they are still reported, and do not fail the run)")
	fset.Var((*statsRows)(&f.stats), "stats", "after the report, print on stderr each rule's nodes, cost and time, slowest first: 20 rows, or --stats=N, or --stats=all")
	paths, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(paths) == 0 {
		return exitError, &usageError{command: "check", msg: "check needs at least one FILE, DIR or GLOB"}
	}
	if f.baseline != "" && f.writeBase != "" {
		return exitError, &usageError{command: "check", msg: "--baseline and --write-baseline exclude each other"}
	}
	for _, p := range f.ignore {
		// The limits of a config file's patterns.
		if err := config.CheckPattern(p); err != nil {
			return exitError, &usageError{command: "check", msg: "--ignore: " + err.Error()}
		}
	}
	set := map[string]bool{}
	fset.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	cfg, err := loadConfig(f.config, f.noConfig)
	if err != nil {
		return exitError, err
	}
	shownConfig := noteConfig(cfg, stderr)
	applyConfigDefaults(cfg, &f, set)
	if _, err := report.New(f.format); err != nil {
		return exitError, &usageError{command: "check", msg: err.Error()}
	}
	outs, err := parseOutputs(f.outputs, f.format)
	if err != nil {
		return exitError, &usageError{command: "check", msg: err.Error()}
	}
	failOn := engine.Severity(-1)
	if f.failOn != "never" {
		if failOn, err = engine.ParseSeverity(f.failOn); err != nil {
			return exitError, &usageError{command: "check", msg: "--fail-on: " + err.Error() + " (or never)"}
		}
	}
	if !slices.Contains([]string{"auto", "always", "never"}, f.color) {
		return exitError, &usageError{command: "check", msg: fmt.Sprintf("--color %q: expected auto, always or never", f.color)}
	}
	if f.maxDiags < 0 {
		return exitError, &usageError{command: "check", msg: "--max-diagnostics must be at least 0 (0: no limit)"}
	}
	if f.jobs < 1 {
		return exitError, &usageError{command: "check", msg: "--jobs must be at least 1"}
	}
	if f.maxBytes > loader.MaxBytes {
		return exitError, &usageError{command: "check", msg: fmt.Sprintf("--max-bytes: at most %d (1GiB), the largest document celint reads", loader.MaxBytes)}
	}
	if f.maxScalarB > math.MaxInt32 {
		return exitError, &usageError{command: "check", msg: "--max-scalar-bytes: at most 2GiB"}
	}
	f.limits = loader.Limits{Bytes: f.maxBytes, Depth: f.maxDepth, Values: f.maxValues, ScalarBytes: int(f.maxScalarB)}
	cat, pinned, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	if err := checkConfigRules(cfg, cat); err != nil {
		return exitError, err
	}
	files, walked, inputDiags := expandPaths(paths)
	files, allIgnored := dropAllIgnored(cfg, f.ignore, files, cleaned(paths), walked, stderr)
	// Before anything is linted: the baseline is read, and the files the
	// run writes are checked.
	base, err := readBaseline(f.baseline)
	if err != nil {
		return exitError, err
	}
	if files, err = claimOutputs(files, walked, outs, f.writeBase, f.baseline, configFile(cfg)); err != nil {
		return exitError, err
	}
	var filter func(*engine.Rule) bool
	var keep func(engine.Diagnostic) bool
	if f.only != "" {
		// Each entry is a rule id, or id/code for one of its findings.
		codes := map[string][]string{} // rule id -> codes; nil: all of them
		known := map[string]bool{}
		for _, rs := range f.rulesetFor(cat, pinned) {
			for _, r := range rs.Rules {
				for _, c := range r.Codes {
					known[r.ID+"/"+c.Name] = true
				}
				known[r.ID] = true
			}
		}
		for _, entry := range strings.Split(f.only, ",") {
			if !known[entry] {
				return exitError, &usageError{command: "check", msg: fmt.Sprintf("--rule: no rule or code %q; 'celint rules' lists them", entry)}
			}
			id, code, hasCode := strings.Cut(entry, "/")
			if list, seen := codes[id]; !hasCode || (seen && list == nil) {
				codes[id] = nil
			} else {
				codes[id] = append(list, code)
			}
		}
		filter = func(r *engine.Rule) bool { _, ok := codes[r.ID]; return ok }
		keep = func(d engine.Diagnostic) bool {
			list, ok := codes[d.RuleID]
			return !ok || list == nil || d.RuleError || slices.Contains(list, d.Code)
		}
	}
	// Files are linted and reported in the order of the report: by name,
	// as engine.SortDiagnostics orders diagnostics.
	name := func(file string) string {
		if file == "-" {
			return f.stdinName
		}
		return file
	}
	sort.SliceStable(files, func(i, j int) bool { return name(files[i]) < name(files[j]) })
	// Standard input is known by its place in files, never by its name: a
	// file named like --stdin-name is a file.
	in := inputs{stdin: stdin, stdinName: f.stdinName, index: -1, walked: walked}
	for i, file := range files {
		if file == "-" {
			in.index = i
			files[i] = f.stdinName
		}
	}
	same := 0
	for _, file := range files {
		if file == f.stdinName {
			same++
		}
	}
	if in.index >= 0 && same > 1 {
		return exitError, &usageError{command: "check", msg: fmt.Sprintf("--stdin-name %q is also the name of a file to check; choose another name", f.stdinName)}
	}
	in.rules = &findingRules{cfg: cfg, keep: keep, quiet: f.quiet, max: f.maxDiags}
	if base != nil {
		in.rules.hide = base.Filter(filepath.Dir(f.baseline))
	}
	if f.writeBase != "" {
		in.rules.record = baseline.NewRecorder(filepath.Dir(f.writeBase))
	}
	opts := engine.LintOptions{Filter: filter, Budget: f.budget, RuleTimeout: f.ruleTimeout, MaxDiagnostics: f.maxDiags}
	var stats ruleStats
	if f.stats != 0 {
		opts.Stats = stats.add
	}
	rin := report.Input{ToolVersion: toolVersion(), Config: shownConfig}
	reports, err := openOutputs(outs, stdout, rin, wantColor(f.color, stdout))
	if err != nil {
		return exitError, err
	}
	defer reports.abort()
	rep := newReporter(reports, stderr, filter, inputDiags)
	lintFiles(ctx, cat, pinned, files, in, opts, f.jobs, stderr, rep.file)
	rep.paths("")
	if err := reports.close(reportRules(rep.used)); err != nil {
		return exitError, err
	}
	if err := endBaseline(in.rules, f.writeBase, f.baseline, stderr); err != nil {
		return exitError, err
	}
	if f.stats != 0 {
		stats.write(stderr, max(f.stats, 0))
		writeCheckedStats(stderr, rep.rulesets)
	}
	code := exitOK
	if f.maxWarnings >= 0 && rep.total.Warnings > f.maxWarnings {
		fmt.Fprintf(stderr, "celint: %s, more than --max-warnings %d\n", plural(rep.total.Warnings, "warning", "warnings"), f.maxWarnings)
		code = exitFindings
	}
	if rep.failed {
		return exitError, nil
	}
	if failOn >= 0 && f.writeBase == "" && rep.worst() >= failOn {
		code = exitFindings
	}
	if allIgnored {
		return exitError, nil // nothing was checked: as for a folder without documents
	}
	return code, nil
}

// reporter hands each file's results to the reports as they come, in
// order, and keeps what the end of the run needs: the counts of every
// finding, shown or not, whether a rule or an input failed, and the rules
// and rulesets that ran.
type reporter struct {
	reports *reports
	stderr  io.Writer
	filter  func(*engine.Rule) bool
	// pending are the input errors of paths (a pattern that matches
	// nothing), sorted, not reported yet: each comes in its place among
	// the files.
	pending  []engine.Diagnostic
	noted    map[*engine.Ruleset]bool
	used     map[*engine.Rule]*engine.Ruleset
	rulesets []*engine.Ruleset       // that linted a file, in the order met
	pages    map[*engine.Rule]string // the published page of each rule used
	total    engine.Counts
	failed   bool
}

func newReporter(reports *reports, stderr io.Writer, filter func(*engine.Rule) bool, inputDiags []engine.Diagnostic) *reporter {
	engine.SortDiagnostics(inputDiags)
	return &reporter{reports: reports, stderr: stderr, filter: filter, pending: inputDiags,
		noted: map[*engine.Ruleset]bool{}, used: map[*engine.Rule]*engine.Ruleset{}, pages: map[*engine.Rule]string{}}
}

// worst returns the highest severity of the findings, -1 when there are
// none.
func (p *reporter) worst() engine.Severity {
	switch {
	case p.total.Errors > 0:
		return engine.Error
	case p.total.Warnings > 0:
		return engine.Warning
	case p.total.Infos > 0:
		return engine.Info
	}
	return -1
}

// paths reports the pending input errors of the names before upTo, all of
// them when upTo is "".
func (p *reporter) paths(upTo string) {
	for len(p.pending) > 0 && (upTo == "" || p.pending[0].File < upTo) {
		name := p.pending[0].File
		n := 1
		for n < len(p.pending) && p.pending[n].File == name {
			n++
		}
		p.report(report.File{Name: name, Diagnostics: p.pending[:n]}, engine.Counts{})
		p.pending = p.pending[n:]
	}
}

// file reports the results of one file.
func (p *reporter) file(r fileResult) {
	p.paths(r.file)
	// A ruleset that names no versions it accepts cannot tell a
	// description from any other document: say so, once.
	if len(r.rss) > 0 && r.rss[0].Accepts == nil && !p.noted[r.rss[0]] {
		p.noted[r.rss[0]] = true
		fmt.Fprintf(p.stderr, "celint: ruleset %s declares no accepts: it checks every document as one of its own\n", safetext.Line(r.rss[0].String()))
	}
	if r.skipped != "" {
		fmt.Fprintf(p.stderr, "celint: skipped %s: %s\n", safetext.Line(r.file), safetext.Line(r.skipped))
		return
	}
	// Each finding links its rule's published page, when there is one.
	page := map[string]string{}
	for i := len(r.rss) - 1; i >= 0; i-- { // the first ruleset's page wins
		rs := r.rss[i]
		if !slices.Contains(p.rulesets, rs) {
			p.rulesets = append(p.rulesets, rs)
		}
		for _, rule := range rs.Rules {
			if p.filter != nil && !p.filter(rule) {
				continue
			}
			p.used[rule] = rs
			u, ok := p.pages[rule]
			if !ok {
				u = ruledoc.PageURL(rs, rule)
				p.pages[rule] = u
			}
			if u != "" {
				page[rule.ID] = u
			}
		}
	}
	ds := r.diags
	for i := range ds {
		if ds[i].URL == "" && !ds[i].InputError {
			ds[i].URL = page[ds[i].RuleID]
		}
	}
	// An input error of a path with the very name of the file (a pattern
	// that names itself) goes with the file's diagnostics.
	if len(p.pending) > 0 && p.pending[0].File == r.file {
		for len(p.pending) > 0 && p.pending[0].File == r.file {
			ds = append(ds, p.pending[0])
			p.pending = p.pending[1:]
		}
		engine.SortDiagnostics(ds)
	}
	names := make([]string, len(r.rss))
	for i, rs := range r.rss {
		names[i] = rs.String()
	}
	p.report(report.File{Name: r.file, Checked: true, Diagnostics: ds, Quieted: r.quieted, Source: r.source, LoadOptions: r.opts, Rulesets: names}, r.omitted)
}

// report counts a file's diagnostics and hands them to the reports, with
// the entry that says how many were not shown.
func (p *reporter) report(f report.File, omitted engine.Counts) {
	p.total = p.total.Add(engine.Count(f.Diagnostics)).Add(omitted).Add(f.Quieted)
	for _, d := range f.Diagnostics {
		p.failed = p.failed || d.RuleError || d.InputError
	}
	if omitted != (engine.Counts{}) {
		f.Diagnostics = append(f.Diagnostics, notShown(f.Name, omitted))
		f.NotShown = omitted
	}
	p.reports.file(f)
}

func reportRules(used map[*engine.Rule]*engine.Ruleset) []report.Rule {
	var out []report.Rule
	for r, rs := range used {
		help := ruledoc.PageURL(rs, r) // the rule's page; else its file at the tag
		if help == "" {
			help = r.SourceURL
		}
		out = append(out, report.Rule{ID: r.ID, Title: r.Doc.Title, Description: r.Doc.Description, HelpURI: help, Severity: r.Severity})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

type fileResult struct {
	file   string
	source []byte
	// opts are the options the document was read with (its ruleset's),
	// with which the SARIF report makes the fixes of its findings.
	opts *loader.Options
	rss  []*engine.Ruleset // the rulesets that linted the file
	// diags are the diagnostics shown, sorted; omitted counts the findings
	// left out by --max-diagnostics, and quieted those --quiet does not
	// show.
	diags            []engine.Diagnostic
	omitted, quieted engine.Counts
	skipped          string // why a walked file that is no description was not checked
}

// inputs says where the document named by '-' comes from: standard input,
// reported as stdinName, is the file at index (-1 when there is none).
type inputs struct {
	stdin     io.Reader
	stdinName string
	index     int
	// walked are the files found by walking a folder or expanding a glob,
	// not named: one that is no description is skipped, not an error.
	walked map[string]bool
	// rules is what is done to each finding as it is found.
	rules *findingRules
}

// lintFiles lints files with jobs workers and hands each result to emit,
// on the caller's goroutine, in file order: a file's as soon as it and
// every file before it are done. At most window(jobs) files are being
// linted or waiting for an earlier one at once, so that the run holds the
// results of that many files at most. On a terminal, progress is shown on
// stderr for long runs, and erased while emit writes.
func lintFiles(ctx context.Context, cat *engine.Catalog, pinned *engine.Ruleset, files []string, in inputs, opts engine.LintOptions, jobs int, stderr io.Writer, emit func(fileResult)) {
	if len(files) == 0 {
		return
	}
	// Fewer files than workers: the spare workers run a file's rules at
	// once (the diagnostics do not depend on how many).
	if len(files) < jobs {
		opts.Workers = (jobs + len(files) - 1) / len(files)
	}
	n := window(jobs)
	// A worker takes a token before it takes a file, and emit gives it
	// back: file i is taken only once file i-n is emitted, and its result
	// goes to slot i%n, which that file's has left.
	tokens := make(chan struct{}, n)
	slots := make([]chan fileResult, n)
	for i := range n {
		tokens <- struct{}{}
		slots[i] = make(chan fileResult, 1)
	}
	var next, done atomic.Int64
	progress := newProgress(stderr, len(files))
	for w := 0; w < jobs && w < len(files); w++ {
		go func() {
			for range tokens {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				slots[i%n] <- lintFile(ctx, cat, pinned, files[i], i == in.index, in, opts)
				progress.update(int(done.Add(1)))
			}
		}()
	}
	for i := range files {
		r := <-slots[i%n]
		progress.hold()
		emit(r)
		progress.release()
		tokens <- struct{}{}
	}
	close(tokens)
	progress.finish()
}

// window is how many files lintFiles lints or holds at once with jobs
// workers: enough that a worker rarely waits for a slow file before it.
func window(jobs int) int { return 4 * jobs }

// lintFile lints one file, or standard input when isStdin. The source kept
// for code frames is what was read: for standard input, its bytes, never a
// file of the same name.
func lintFile(ctx context.Context, cat *engine.Catalog, pinned *engine.Ruleset, file string, isStdin bool, in inputs, opts engine.LintOptions) (res fileResult) {
	res.file = file
	defer func() {
		if p := recover(); p != nil {
			res.diags = append(res.diags, inputDiagnostic(file, fmt.Errorf("internal error while linting: %v", p)))
		}
	}()
	var doc *loader.Document
	var rs *engine.Ruleset
	var err error
	var data []byte
	if isStdin {
		data, doc, rs, err = loadStdin(cat, pinned, in)
	} else {
		doc, rs, err = cat.LoadFile(file, pinned)
	}
	if err != nil && !isStdin && in.walked[file] && errors.Is(err, engine.ErrUndeclaredVersion) {
		res.skipped = "not a description"
		var le *loader.Error
		if errors.As(err, &le) {
			res.skipped = le.Msg
		}
		return res
	}
	if err != nil {
		res.diags = []engine.Diagnostic{inputDiagnostic(file, err)}
		if isStdin {
			res.source = data
		} else {
			res.source = readSmall(file, 8<<20)
		}
		return res
	}
	// Each finding is suppressed, levelled, filtered and counted as the
	// rules report it, and the engine keeps the first --max-diagnostics of
	// those shown.
	ff := in.rules.forFile(file, doc)
	opts.Adjust = ff.admit
	opts.Omitted = func(c engine.Counts) { res.omitted = res.omitted.Add(c) }
	// The chosen ruleset, then every other ruleset (by name) that accepts
	// the document: house rules of their own run beside the description's.
	res.rss = append([]*engine.Ruleset{rs}, cat.Companions(doc, rs)...)
	ff.knownRules(res.rss)
	for _, r := range res.rss {
		ds, err := r.Lint(ctx, doc, opts)
		if err != nil {
			res.diags = []engine.Diagnostic{inputDiagnostic(file, fmt.Errorf("not checked: %w", err))}
			res.omitted = engine.Counts{}
			return res
		}
		res.diags = append(res.diags, ds...)
	}
	if in.rules.hide != nil {
		in.rules.hide.Checked(file)
	}
	res.diags = append(res.diags, ff.own()...)
	engine.SortDiagnostics(res.diags)
	// Each ruleset kept its first findings: the file keeps the first of
	// all of them.
	var more engine.Counts
	res.diags, more = limit(res.diags, in.rules.max)
	res.omitted = res.omitted.Add(more)
	res.quieted = ff.quieted
	if len(res.diags) > 0 {
		res.source = doc.Source // for code frames and fixes; dropped for clean files
		res.opts = &rs.LoadOptions
	}
	return res
}

// loadStdin reads the document given as '-'. It returns the bytes read
// when they are within the limit, for the code frame of an error.
func loadStdin(cat *engine.Catalog, pinned *engine.Ruleset, in inputs) ([]byte, *loader.Document, *engine.Ruleset, error) {
	var limit int64
	for _, rs := range cat.Rulesets() {
		if pinned == nil || rs == pinned {
			limit = max(limit, rs.LoadOptions.Limits.Bytes)
		}
	}
	limit = min(limit, loader.MaxBytes) // as the loader lowers it
	if in.stdin == nil {
		return nil, nil, nil, &loader.Error{File: in.stdinName, Msg: "cannot read standard input: there is none"}
	}
	data, err := io.ReadAll(io.LimitReader(in.stdin, limit+1))
	if err != nil {
		return nil, nil, nil, &loader.Error{File: in.stdinName, Msg: "cannot read standard input: " + err.Error()}
	}
	if int64(len(data)) > limit {
		return nil, nil, nil, &loader.Error{File: in.stdinName, Limit: "bytes", Err: loader.ErrLimit, Msg: fmt.Sprintf("input is more than the limit of %d bytes", limit)}
	}
	doc, rs, err := cat.Load(in.stdinName, data, pinned)
	return data, doc, rs, err
}

// readSmall returns the contents of a regular file of at most max bytes, for
// the code frame of an input error; nil otherwise.
func readSmall(file string, max int64) []byte {
	st, err := os.Stat(file)
	if err != nil || !st.Mode().IsRegular() || st.Size() > max {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	return data
}

// inputDiagnostic turns an input error into a diagnostic at its position.
func inputDiagnostic(file string, err error) engine.Diagnostic {
	// A problem with the file as a whole (it cannot be read, a pattern
	// matches nothing) has no line and column: none is invented.
	d := engine.Diagnostic{File: file, RuleID: inputRuleID, Severity: engine.Error, Message: err.Error(), InputError: true}
	var le *loader.Error
	if errors.As(err, &le) {
		d.Message = le.Msg
		if le.Pos.Line > 0 {
			d.Line, d.Column = int(le.Pos.Line), int(max(le.Pos.Col, 1))
		}
		if errors.Is(err, loader.ErrNotRegular) {
			d.Message += " (give a stream on standard input as '-')"
		}
		if flag := limitFlags[le.Limit]; flag != "" {
			d.Message += " (raise it with " + flag + " or the ruleset's loader limits)"
		}
	}
	if errors.Is(err, engine.ErrNoRuleset) && strings.HasPrefix(d.Message, "version ") {
		d.Message += "; choose one with --spec" // an unknown version, not a malformed one
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		d.Message = pe.Err.Error()
	}
	return d
}

// expandPaths turns arguments into files: a directory is walked for .json,
// .yaml and .yml files (hidden folders skipped), a glob is expanded, and a
// path that matches nothing is an input error.
func expandPaths(args []string) ([]string, map[string]bool, []engine.Diagnostic) {
	var files []string
	var diags []engine.Diagnostic
	seen := map[string]bool{}
	walked := map[string]bool{}
	add := func(p string, found bool) {
		if p != "-" {
			p = filepath.Clean(p)
		}
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
			walked[p] = found
		} else if !found {
			walked[p] = false // named explicitly too: never skipped
		}
	}
	for _, a := range args {
		if a == "-" {
			add(a, false)
			continue
		}
		if strings.ContainsAny(a, "*?[") {
			m, err := globFiles(a)
			if err != nil {
				diags = append(diags, inputDiagnostic(a, fmt.Errorf("bad glob: %v", err)))
				continue
			}
			if len(m) == 0 {
				diags = append(diags, inputDiagnostic(a, fmt.Errorf("no file matches this pattern")))
				continue
			}
			for _, p := range m {
				add(p, true)
			}
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			diags = append(diags, inputDiagnostic(a, fmt.Errorf("cannot read: %v", errors.Unwrap(err))))
			continue
		}
		if !st.IsDir() {
			add(a, false)
			continue
		}
		var found int
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				diags = append(diags, inputDiagnostic(p, err))
				return nil
			}
			if p != a && skipped(d) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() && documentExt(p) {
				add(p, true)
				found++
			}
			return nil
		})
		if err == nil && found == 0 {
			diags = append(diags, inputDiagnostic(a, fmt.Errorf("no .json, .yaml or .yml files in this directory")))
		}
	}
	return files, walked, diags
}

// excludedDirs are the folders a walk never enters, besides hidden ones.
var excludedDirs = []string{"node_modules", "vendor"}

// skipped reports whether a walk leaves out an entry: a hidden file or
// folder (.git, .celint.yaml), node_modules or vendor.
func skipped(d fs.DirEntry) bool {
	return strings.HasPrefix(d.Name(), ".") || d.IsDir() && slices.Contains(excludedDirs, d.Name())
}

// documentExt reports whether a walked file may be a document.
func documentExt(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// globFiles expands a pattern: '*', '?' and '[...]' within a path segment,
// '**' for any number of folders. It walks from the pattern's fixed
// leading folders, skipping what a folder walk skips unless the pattern
// names it (a segment that starts with '.', or is node_modules or vendor).
func globFiles(pattern string) ([]string, error) {
	pat := filepath.ToSlash(pattern)
	segs := strings.Split(pat, "/")
	root := ""
	for len(segs) > 1 && !strings.ContainsAny(segs[0], "*?[") {
		root = path.Join(root, segs[0])
		if segs[0] == "" {
			root = "/"
		}
		segs = segs[1:]
	}
	for _, s := range segs {
		if s == "**" {
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, err
		}
	}
	start := filepath.FromSlash(cmp.Or(root, "."))
	var out []string
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable entry matches nothing
		}
		rel, rerr := filepath.Rel(start, p)
		if rerr != nil || rel == "." {
			return nil
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if skipped(d) && !named(segs, len(parts)-1, d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && config.MatchPath(segs, parts) {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// named reports whether the pattern segments name an entry that a walk
// would skip, at depth i: the segment there is the literal name, or a
// wildcard that starts with '.'.
func named(segs []string, i int, name string) bool {
	for j, s := range segs {
		if s == name || strings.HasPrefix(s, ".") && (j == i || strings.ContainsAny(s, "*?[")) {
			return true
		}
	}
	return false
}

func wantColor(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	return isTerminal(w)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress shows, on a terminal, how far a run that takes more than a
// second has got: "checked 3/20 files (2s)", redrawn in place, and erased
// when the run ends.
type progress struct {
	w     io.Writer
	total int
	done  atomic.Int64 // the most files reported done
	mu    sync.Mutex   // held while the line is drawn or erased, and by hold
	shown bool         // the line is on the terminal
	start time.Time
	stop  chan struct{}
	ended chan struct{}
}

// progressDelay is how long a run goes before its progress is shown.
const progressDelay = time.Second

func newProgress(w io.Writer, total int) *progress {
	return startProgress(w, total, isTerminal(w), progressDelay)
}

// startProgress shows progress on w after delay, when on.
func startProgress(w io.Writer, total int, on bool, delay time.Duration) *progress {
	p := &progress{w: w, total: total, start: time.Now()}
	if !on {
		return p
	}
	p.stop, p.ended = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.ended)
		select {
		case <-p.stop:
			return
		case <-time.After(delay):
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			p.draw()
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.shown = true
	fmt.Fprintf(p.w, "\rchecked %d/%d files (%ds)\033[K", p.done.Load(), p.total, int(time.Since(p.start).Seconds()))
}

// hold erases the progress line, if it is shown, and keeps it from being
// drawn until release: what is written to the terminal meanwhile is not
// mixed with it.
func (p *progress) hold() {
	p.mu.Lock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// release lets the progress line be drawn again.
func (p *progress) release() { p.mu.Unlock() }

func (p *progress) update(done int) {
	for {
		cur := p.done.Load()
		if int64(done) <= cur || p.done.CompareAndSwap(cur, int64(done)) {
			return
		}
	}
}

func (p *progress) finish() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	<-p.ended
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

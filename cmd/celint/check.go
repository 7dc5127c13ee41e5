package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
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
	"github.com/celint/celint/engine/config"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/engine/report"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/loader"
)

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
	suppressed  bool // --include-suppressed
	stats       int  // --stats: rows of rule statistics; 0 none, -1 all
}

// runCheck wires the flags of celint check to the stages of the lint
// pipeline: config, rulesets, the files to lint, the checker and its
// filter, the report.
func runCheck(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	f, paths, set, err := parseCheckFlags(args, stdout)
	if err != nil {
		return exitError, err
	}
	cfg, err := loadConfig(f.config, f.noConfig)
	if err != nil {
		return exitError, err
	}
	shownConfig := noteConfig(cfg, stderr)
	applyConfigDefaults(cfg, &f, set)
	outs, failOn, err := f.settle()
	if err != nil {
		return exitError, err
	}
	rules, err := f.load()
	if err != nil {
		return exitError, err
	}
	if err := rules.CheckConfig(cfg); err != nil {
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
	opts, err := f.checkOptions(rules, cfg, base, len(files))
	if err != nil {
		return exitError, err
	}
	in, err := f.inputs(files, stdin, walked)
	if err != nil {
		return exitError, err
	}
	var stats ruleStats
	if f.stats != 0 {
		opts.Lint.Stats = stats.add
	}
	checker := lint.NewChecker(rules, opts)
	reports, err := openOutputs(outs, stdout, report.Input{ToolVersion: toolVersion(), Config: shownConfig}, wantColor(f.color, stdout))
	if err != nil {
		return exitError, err
	}
	defer reports.abort()
	rep := checker.NewReport(reports, inputDiags)
	lintFiles(ctx, checker, in, f.jobs, stderr, emitter(rep, stderr))
	if err := rep.Close(); err != nil {
		return exitError, err
	}
	if err := endBaseline(opts.Filter, f.writeBase, f.baseline, stderr); err != nil {
		return exitError, err
	}
	if f.stats != 0 {
		stats.write(stderr, max(f.stats, 0))
		writeCheckedStats(stderr, rep.Rulesets())
	}
	return f.exitCode(rep, failOn, allIgnored, stderr), nil
}

// parseCheckFlags reads the command line of celint check: its flags, which
// of them were set, and the paths to check.
func parseCheckFlags(args []string, stdout io.Writer) (checkFlags, []string, map[string]bool, error) {
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
	fset.BoolVar(&f.suppressed, "include-suppressed", false, "also report the findings that suppression comments and the --baseline hide, marked as suppressed, in the sarif format (as results with suppressions of kind inSource or external); the other formats leave them out, and they never count for --fail-on")
	fset.StringVar(&f.writeBase, "write-baseline", "", "record today's findings in this baseline `file` (they are still reported, and do not fail the run)")
	fset.Var((*statsRows)(&f.stats), "stats", "after the report, print on stderr each rule's nodes, cost and time, slowest first: 20 rows, or --stats=N, or --stats=all")
	paths, err := parseFlags(fset, args)
	if err != nil {
		return f, nil, nil, err
	}
	if len(paths) == 0 {
		return f, nil, nil, &usageError{command: "check", msg: "check needs at least one FILE, DIR or GLOB"}
	}
	if f.baseline != "" && f.writeBase != "" {
		return f, nil, nil, &usageError{command: "check", msg: "--baseline and --write-baseline exclude each other"}
	}
	for _, p := range f.ignore {
		// The limits of a config file's patterns.
		if err := config.CheckPattern(p); err != nil {
			return f, nil, nil, &usageError{command: "check", msg: "--ignore: " + err.Error()}
		}
	}
	set := map[string]bool{}
	fset.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	return f, paths, set, nil
}

// settle checks the flags that a config file may set, or that only make
// sense with the rest, once the config file's defaults are in: it returns
// the reports to write and the severity --fail-on fails at (-1: never),
// and sets the document limits.
func (f *checkFlags) settle() ([]output, engine.Severity, error) {
	usage := func(msg string) ([]output, engine.Severity, error) {
		return nil, 0, &usageError{command: "check", msg: msg}
	}
	if _, err := report.New(f.format); err != nil {
		return usage(err.Error())
	}
	outs, err := parseOutputs(f.outputs, f.format)
	if err != nil {
		return usage(err.Error())
	}
	failOn := engine.Severity(-1)
	if f.failOn != "never" {
		if failOn, err = engine.ParseSeverity(f.failOn); err != nil {
			return usage("--fail-on: " + err.Error() + " (or never)")
		}
	}
	switch {
	case !slices.Contains([]string{"auto", "always", "never"}, f.color):
		return usage(fmt.Sprintf("--color %q: expected auto, always or never", f.color))
	case f.maxDiags < 0:
		return usage("--max-diagnostics must be at least 0 (0: no limit)")
	case f.jobs < 1:
		return usage("--jobs must be at least 1")
	case f.maxBytes > loader.MaxBytes:
		return usage(fmt.Sprintf("--max-bytes: at most %d (1GiB), the largest document celint reads", loader.MaxBytes))
	case f.maxScalarB > math.MaxInt32:
		return usage("--max-scalar-bytes: at most 2GiB")
	}
	f.limits = loader.Limits{Bytes: f.maxBytes, Depth: f.maxDepth, Values: f.maxValues, ScalarBytes: int(f.maxScalarB)}
	return outs, failOn, nil
}

// checkOptions are what the checker of a run of files does: which rules
// run (--rule), what becomes of their findings (the config file, the
// baselines, --quiet, --max-diagnostics), and the engine's bounds. Fewer
// files than --jobs: the spare workers run a file's rules at once (the
// diagnostics do not depend on how many).
func (f *checkFlags) checkOptions(rules *lint.Rulesets, cfg *config.Config, base *baseline.Baseline, files int) (lint.Options, error) {
	opts := lint.Options{
		Filter: lint.Filter{Config: cfg, Quiet: f.quiet, KeepSuppressed: f.suppressed},
		Lint:   engine.LintOptions{Budget: f.budget, RuleTimeout: f.ruleTimeout, MaxDiagnostics: f.maxDiags},
	}
	if f.only != "" {
		only, err := lint.ParseOnly(strings.Split(f.only, ","), rules.List())
		if err != nil {
			return opts, &usageError{command: "check", msg: "--rule: " + err.Error() + "; 'celint rules' lists them"}
		}
		opts.Lint.Filter, opts.Filter.Keep = only.Rule, only.Keep
	}
	if base != nil {
		opts.Filter.Hide = base.Filter(filepath.Dir(f.baseline))
	}
	if f.writeBase != "" {
		opts.Filter.Record = baseline.NewRecorder(filepath.Dir(f.writeBase))
	}
	if files > 0 && files < f.jobs {
		opts.Lint.Workers = (f.jobs + files - 1) / files
	}
	return opts, nil
}

// inputs sorts files in the order of the report, by name as
// engine.SortDiagnostics orders diagnostics, and says which of them is
// standard input ('-'), now named --stdin-name.
func (f *checkFlags) inputs(files []string, stdin io.Reader, walked map[string]bool) (inputs, error) {
	name := func(file string) string {
		if file == "-" {
			return f.stdinName
		}
		return file
	}
	sort.SliceStable(files, func(i, j int) bool { return name(files[i]) < name(files[j]) })
	// Standard input is known by its place in files, never by its name: a
	// file named like --stdin-name is a file.
	in := inputs{files: files, stdin: stdin, stdinName: f.stdinName, index: -1, walked: walked}
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
		return in, &usageError{command: "check", msg: fmt.Sprintf("--stdin-name %q is also the name of a file to check; choose another name", f.stdinName)}
	}
	return in, nil
}

// exitCode is the exit code of a run that reported rep: 1 for findings
// at or above --fail-on, or more warnings than --max-warnings (said on
// stderr); 2 when a rule or an input failed, or when every file found was
// ignored, so that nothing was checked.
func (f *checkFlags) exitCode(rep *lint.Report, failOn engine.Severity, allIgnored bool, stderr io.Writer) int {
	code := exitOK
	if total := rep.Counts(); f.maxWarnings >= 0 && total.Warnings > f.maxWarnings {
		fmt.Fprintf(stderr, "celint: %s, more than --max-warnings %d\n", plural(total.Warnings, "warning", "warnings"), f.maxWarnings)
		code = exitFindings
	}
	if rep.Failed() {
		return exitError
	}
	if failOn >= 0 && f.writeBase == "" && rep.Worst() >= failOn {
		code = exitFindings
	}
	if allIgnored {
		return exitError // nothing was checked: as for a folder without documents
	}
	return code
}

// emitter hands each file's result to rep, after saying on stderr what
// the report does not: that a ruleset that declares no accepts checks
// every document (once), or that a file is skipped.
func emitter(rep *lint.Report, stderr io.Writer) func(fileResult) {
	noted := map[*engine.Ruleset]bool{}
	return func(r fileResult) {
		rep.FlushBefore(r.Name)
		// A ruleset that names no versions it accepts cannot tell a
		// description from any other document: say so, once.
		if rss := r.Rulesets; len(rss) > 0 && rss[0].Accepts == nil && !noted[rss[0]] {
			noted[rss[0]] = true
			fmt.Fprintf(stderr, "celint: ruleset %s declares no accepts: it checks every document as one of its own\n", safetext.Line(rss[0].String()))
		}
		if r.skipped != "" {
			fmt.Fprintf(stderr, "celint: skipped %s: %s\n", safetext.Line(r.Name), safetext.Line(r.skipped))
			return
		}
		rep.Add(r.Result)
	}
}

// fileResult is the result of a file, or why it was skipped.
type fileResult struct {
	*lint.Result
	skipped string // why a walked file that is no description was not checked
}

// inputs are the files of a run, in order, and where the document named
// by '-' comes from: standard input, reported as stdinName, is the file at
// index (-1 when there is none).
type inputs struct {
	files     []string
	stdin     io.Reader
	stdinName string
	index     int
	// walked are the files found by walking a folder or expanding a glob,
	// not named: one that is no description is skipped, not an error.
	walked map[string]bool
}

// lintFiles lints the files with jobs workers and hands each result to
// emit, on the caller's goroutine, in file order: a file's as soon as it
// and every file before it are done. At most window(jobs) files are being
// linted or waiting for an earlier one at once, so that the run holds the
// results of that many files at most. On a terminal, progress is shown on
// stderr for long runs, and erased while emit writes.
func lintFiles(ctx context.Context, c *lint.Checker, in inputs, jobs int, stderr io.Writer, emit func(fileResult)) {
	files := in.files
	if len(files) == 0 {
		return
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
				slots[i%n] <- lintFile(ctx, c, files[i], i == in.index, in)
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

// lintFile lints one file, or standard input when isStdin. A walked file
// that declares no version is skipped.
func lintFile(ctx context.Context, c *lint.Checker, file string, isStdin bool, in inputs) fileResult {
	if isStdin {
		data, err := readStdin(c.Rulesets(), in)
		if err != nil {
			return fileResult{Result: lint.InputResult(file, err, nil)}
		}
		return fileResult{Result: c.Lint(ctx, file, data)}
	}
	res := c.LintFile(ctx, file)
	if len(res.Rulesets) == 0 && in.walked[file] && errors.Is(res.Err, engine.ErrUndeclaredVersion) {
		skipped := "not a description"
		var le *loader.Error
		if errors.As(res.Err, &le) {
			skipped = le.Msg
		}
		return fileResult{Result: res, skipped: skipped}
	}
	return fileResult{Result: res}
}

// readStdin reads the document given as '-', up to the largest size limit
// of the rulesets that may lint it.
func readStdin(rules *lint.Rulesets, in inputs) ([]byte, error) {
	var limit int64
	for _, rs := range rules.List() {
		limit = max(limit, rs.LoadOptions.Limits.Bytes)
	}
	limit = min(limit, loader.MaxBytes) // as the loader lowers it
	if in.stdin == nil {
		return nil, &loader.Error{File: in.stdinName, Msg: "cannot read standard input: there is none"}
	}
	data, err := io.ReadAll(io.LimitReader(in.stdin, limit+1))
	if err != nil {
		return nil, &loader.Error{File: in.stdinName, Msg: "cannot read standard input: " + err.Error()}
	}
	if int64(len(data)) > limit {
		return nil, &loader.Error{File: in.stdinName, Limit: "bytes", Err: loader.ErrLimit, Msg: fmt.Sprintf("input is more than the limit of %d bytes", limit)}
	}
	return data, nil
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
				diags = append(diags, lint.InputDiagnostic(a, fmt.Errorf("bad glob: %v", err)))
				continue
			}
			if len(m) == 0 {
				diags = append(diags, lint.InputDiagnostic(a, fmt.Errorf("no file matches this pattern")))
				continue
			}
			for _, p := range m {
				add(p, true)
			}
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			diags = append(diags, lint.InputDiagnostic(a, fmt.Errorf("cannot read: %v", errors.Unwrap(err))))
			continue
		}
		if !st.IsDir() {
			add(a, false)
			continue
		}
		var found int
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				diags = append(diags, lint.InputDiagnostic(p, err))
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
			diags = append(diags, lint.InputDiagnostic(a, fmt.Errorf("no .json, .yaml or .yml files in this directory")))
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

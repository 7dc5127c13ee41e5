package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/celint/celint/engine/config"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/internal/safetext"
)

// loadConfig finds and reads the config file: --config names it,
// --no-config ignores any, otherwise the nearest .celint.yaml from the
// current folder up to the repository root or the home folder (see
// config.Find). Nil when there is none.
func loadConfig(file string, none bool) (*config.Config, error) {
	if none {
		if file != "" {
			return nil, &usageError{msg: "--config and --no-config exclude each other", command: "check"}
		}
		return nil, nil
	}
	return lint.LoadConfig(file, ".")
}

// applyConfigDefaults fills the flags the command line did not set from the
// config file.
func applyConfigDefaults(cfg *config.Config, f *checkFlags, set map[string]bool) {
	if cfg == nil {
		return
	}
	if !set["spec"] && cfg.Spec != "" {
		f.spec = cfg.Spec
		f.specFile, f.specPos = cfg.SpecFile, cfg.SpecPos
	}
	if !set["format"] && cfg.Format != "" {
		f.format = cfg.Format
	}
	if !set["fail-on"] && cfg.FailOn != "" {
		f.failOn = cfg.FailOn
	}
	f.rules = append(slices.Clone(cfg.RuleFolders), f.rules...)
}

// dropIgnored removes the files the config ignores. A file named on the
// command line is still dropped, with a note on stderr saying which
// pattern ignores it.
func dropIgnored(cfg *config.Config, files, named []string, stderr io.Writer) []string {
	if cfg == nil {
		return files
	}
	out := files[:0]
	for _, f := range files {
		p, ignored := cfg.Ignored(f)
		if !ignored || f == "-" {
			out = append(out, f)
			continue
		}
		if slices.Contains(named, f) {
			where := p.File
			if !p.Pos.IsZero() {
				where += ":" + p.Pos.String()
			}
			fmt.Fprintf(stderr, "celint: %s is not checked: %s ignores %q\n", f, where, p.Text)
		}
	}
	return out
}

// dropAllIgnored removes the files that the config's ignore patterns and
// the --ignore patterns (cli) ignore, as dropIgnored does. When files were
// found but every one is ignored, so that the run checks nothing, it says
// so on stderr, naming the patterns, and reports whether that is an error:
// it is when a folder or a glob found any of them (as a folder or a glob
// that finds no document is), not when each was named on the command line
// (each has had its note).
func dropAllIgnored(cfg *config.Config, cli []string, files, named []string, walked map[string]bool, stderr io.Writer) ([]string, bool) {
	all := slices.Clone(files)
	files = dropIgnored(cfg, files, named, stderr)
	var flags *config.Config
	if len(cli) > 0 {
		flags = &config.Config{File: "--ignore", Dir: "."}
		for _, p := range cli {
			flags.Ignore = append(flags.Ignore, config.Pattern{Text: p, File: "--ignore"})
		}
		files = dropIgnored(flags, files, named, stderr)
	}
	if len(files) > 0 || len(all) == 0 {
		return files, false
	}
	// Which patterns ignored the files, each once, in the order met.
	var by []string
	found := false
	for _, f := range all {
		found = found || walked[f]
		for _, c := range []*config.Config{cfg, flags} {
			if c == nil {
				continue
			}
			if p, ok := c.Ignored(f); ok {
				where := "--ignore"
				if c != flags {
					where = shownPath(p.File)
					if !p.Pos.IsZero() {
						where += ":" + p.Pos.String()
					}
				}
				if b := fmt.Sprintf("%s %q", where, p.Text); !slices.Contains(by, b) {
					by = append(by, b)
				}
				break
			}
		}
	}
	if len(by) > 3 {
		by = append(by[:3], "…")
	}
	what := "all " + plural(len(all), "file", "files") + " found are"
	if len(all) == 1 {
		what = "the one file found is"
	}
	fmt.Fprintln(stderr, safetext.GuardLine(safetext.Line(fmt.Sprintf("celint: nothing was checked: %s ignored by %s", what, strings.Join(by, ", ")))))
	return files, found
}

// shownPath is how a path celint found is shown: relative to the working
// folder when it is in that folder or one of its parents (a config file),
// else as it is.
func shownPath(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(wd, p)
	if err != nil {
		return p
	}
	segs := strings.Split(rel, string(filepath.Separator))
	up := 0 // Rel gives a clean path: any ".." are its first elements
	for up < len(segs) && segs[up] == ".." {
		up++
	}
	if up == 0 || len(segs) == up+1 {
		return rel
	}
	return p
}

// configFile is the path of cfg's file; "" for none.
func configFile(cfg *config.Config) string {
	if cfg == nil {
		return ""
	}
	return cfg.File
}

// noteConfig says on stderr which config file the run uses, if any, and
// returns its path as shown.
func noteConfig(cfg *config.Config, stderr io.Writer) string {
	if cfg == nil {
		return ""
	}
	p := shownPath(cfg.File)
	fmt.Fprintln(stderr, safetext.GuardLine(safetext.Line("celint: using config "+p)))
	return p
}

// cleaned are the paths as expandPaths names the files it finds.
func cleaned(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Clean(p)
	}
	return out
}

// sameFile reports whether a and b name the same path ("" is no path).
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

// plural is "1 one" or "N many".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

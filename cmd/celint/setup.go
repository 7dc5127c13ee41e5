package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// ruleFlags are the flags that choose rules: shared by every command.
type ruleFlags struct {
	spec      string
	rules     []string
	costLimit uint64
	limits    loader.Limits // set by check's --max-* flags
}

func (f *ruleFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.spec, "spec", "", "use the ruleset pinned at this spec `tag` (e.g. v0.9.0-rc.3, or name@tag); default: the newest that accepts each document")
	fs.Uint64Var(&f.costLimit, "cost-limit", 0, "CEL cost limit of one evaluation (default 1000000)")
	fs.Func("rules", "add the rule files (*.yaml) of `DIR`, and its fixtures/; a rule with the id of an embedded one replaces it. A DIR with a ruleset.yaml is a ruleset of its own, or, when it 'extends' one, takes its place. Repeat to add several folders", func(dir string) error {
		f.rules = append(f.rules, dir)
		return nil
	})
}

// catalog loads the embedded rulesets and applies --rules. It returns the
// catalog and the ruleset --spec pins (nil without --spec).
func (f *ruleFlags) catalog() (*engine.Catalog, *engine.Ruleset, error) {
	opts := engine.Options{CostLimit: f.costLimit, Limits: f.limits}
	all, err := rulesets.Load(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("embedded rulesets: %w", err)
	}
	cat, err := engine.NewCatalog(all...)
	if err != nil {
		return nil, nil, err
	}
	for _, dir := range f.rules {
		if cat, err = withRulesDir(cat, dir, opts); err != nil {
			return nil, nil, err
		}
	}
	if f.spec == "" {
		return cat, nil, nil
	}
	pinned, err := cat.Find(f.spec)
	if err != nil {
		return nil, nil, err
	}
	return cat, pinned, nil
}

// withRulesDir applies a --rules folder: with a header, a ruleset of its
// own, which takes the place of the ruleset it extends if it extends one;
// otherwise extra rules for every ruleset of the catalog. Its files are
// named in errors as the user would open them: the folder as given, then
// the file.
func withRulesDir(cat *engine.Catalog, dir string, opts engine.Options) (*engine.Catalog, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("--rules: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("--rules %s: not a directory", dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	// Everything the folder's rules read stays inside it: an os.Root
	// resolves every name, symbolic links included.
	fsys, err := loader.DirFS(abs)
	if err != nil {
		return nil, fmt.Errorf("--rules: %w", err)
	}
	opts.DisplayDir = dir
	// A header that cannot be read (not only one that is absent) is
	// reported by LoadRuleset, never ignored.
	if _, err := fs.Stat(fsys, engine.HeaderFile); !errors.Is(err, fs.ErrNotExist) {
		opts.Bases = cat.Find
		rs, err := engine.LoadRuleset(fsys, ".", opts)
		if err != nil {
			return nil, err
		}
		if rs.Extends != "" {
			base, _ := cat.Find(rs.Extends) // found when it loaded
			return cat.Without(base).With(rs)
		}
		if _, err := cat.Find(rs.Name + "@" + rs.Tag); err == nil {
			return cat.Replace(rs), nil
		}
		return cat.With(rs)
	}
	var out []*engine.Ruleset
	for _, rs := range cat.Rulesets() {
		ext, err := rs.WithFolder(engine.Folder{FS: fsys, Dir: ".", Name: dir})
		if err != nil {
			return nil, err
		}
		out = append(out, ext)
	}
	return engine.NewCatalog(out...)
}

// rulesetFor returns the rulesets a command without a document works on:
// the pinned one, or else every ruleset, newest first.
func (f *ruleFlags) rulesetFor(cat *engine.Catalog, pinned *engine.Ruleset) []*engine.Ruleset {
	if pinned != nil {
		return []*engine.Ruleset{pinned}
	}
	return cat.Rulesets()
}

func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: celint %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, errReported
			}
			return nil, &usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// ruleFlags are the flags that choose rules: shared by every command.
type ruleFlags struct {
	spec  string
	rules []string
	// specFile and specPos are where a config file set spec; "" when
	// the command line did, or nothing.
	specFile  string
	specPos   loader.Pos
	costLimit uint64
	limits    loader.Limits // set by check's --max-* flags
	// eager compiles every embedded rule when it loads, for conformance;
	// other commands compile a rule when a document first needs it
	// (engine.Options.Lazy). A --rules folder always compiles eagerly.
	eager bool
}

// Which of the optional rule flags a command registers: --rules always,
// --spec when it works on one ruleset, --cost-limit when it evaluates rules.
const (
	withSpec = 1 << iota
	withCost
)

// register adds --rules to fs, and --spec and --cost-limit as which says,
// so that a command lists only the flags it uses.
func (f *ruleFlags) register(fs *flag.FlagSet, which int) {
	if which&withSpec != 0 {
		fs.StringVar(&f.spec, "spec", "", "use the ruleset pinned at this spec `tag` (e.g. v0.9.0-rc.3, or name@tag); default: the newest that accepts each document")
	}
	if which&withCost != 0 {
		fs.Uint64Var(&f.costLimit, "cost-limit", 0, "CEL cost limit of one evaluation (default 1000000)")
	}
	fs.Func("rules", "add the rule files (*.yaml) of `DIR`, and its fixtures/; a rule with the id of an embedded one replaces it. A DIR with a ruleset.yaml is a ruleset of its own, run beside the document's ruleset, or, when it 'extends' one, takes its place. Repeat to add several folders", func(dir string) error {
		f.rules = append(f.rules, dir)
		return nil
	})
}

// load loads the embedded rulesets and applies --rules and --spec.
func (f *ruleFlags) load() (*lint.Rulesets, error) {
	return lint.LoadRulesets(lint.Sources{
		Embedded: rulesets.Load,
		Folders:  f.rules,
		Spec:     f.spec, SpecFile: f.specFile, SpecPos: f.specPos,
		Options: engine.Options{CostLimit: f.costLimit, Limits: f.limits, Lazy: !f.eager},
	})
}

// catalog loads the rulesets as load does. It returns the catalog and the
// ruleset --spec pins (nil without --spec).
func (f *ruleFlags) catalog() (*engine.Catalog, *engine.Ruleset, error) {
	rs, err := f.load()
	if err != nil {
		return nil, nil, err
	}
	return rs.Catalog(), rs.Pinned(), nil
}

// rulesetFor returns the rulesets a command without a document works on:
// the pinned one, or else every ruleset, newest first.
func (f *ruleFlags) rulesetFor(cat *engine.Catalog, pinned *engine.Ruleset) []*engine.Ruleset {
	if pinned != nil {
		return []*engine.Ruleset{pinned}
	}
	return cat.Rulesets()
}

// flagSet is a command's flags, with what its help needs.
type flagSet struct {
	*flag.FlagSet
	synopsis string
	stdout   io.Writer
}

// newFlagSet returns the flags of a command. The flag package prints
// nothing itself: parseFlags reports a mistake in one line, and prints the
// help, on standard output, when it is asked for.
func newFlagSet(name, synopsis string, stdout io.Writer) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, synopsis: synopsis, stdout: stdout}
}

// printHelp prints the command's synopsis and its flags, if it has any.
func (fs *flagSet) printHelp() {
	fmt.Fprintf(fs.stdout, "Usage: celint %s\n", fs.synopsis)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprint(fs.stdout, "\nFlags:\n")
	fs.SetOutput(fs.stdout)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// errHelp means the help was asked for and printed: exit 0.
var errHelp = errors.New("help printed")

// parseFlags parses args, allowing flags after positional arguments.
func parseFlags(fs *flagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				fs.printHelp()
				return nil, errHelp
			}
			// A flag that may stand alone (--stats) is a "boolean" to the
			// flag package, whatever values it takes.
			msg := strings.Replace(err.Error(), "invalid boolean value", "invalid value", 1)
			return nil, &usageError{msg: msg, command: fs.Name()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// byteSize is a flag value of bytes, written as a number with an optional
// unit: B, KB (1000), KiB (1024), MB, MiB, GB, GiB, case-insensitive.
type byteSize int64

// String implements flag.Value.
func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

// Set implements flag.Value.
func (b *byteSize) Set(s string) error {
	units := []struct {
		suffix string
		n      int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1}}
	text := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(text, u.suffix) {
			text, mult = strings.TrimSpace(strings.TrimSuffix(text, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return fmt.Errorf("expected a size in bytes, such as 1048576, 10KB or 16MiB")
	}
	*b = byteSize(n * mult)
	return nil
}

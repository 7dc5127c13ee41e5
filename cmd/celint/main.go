// Command celint lints JSON and YAML documents with rules written as data.
//
// Usage:
//
//	celint check [flags] FILE|DIR|GLOB...   lint documents
//	celint conformance [flags]              check every rule against its examples
//	celint rules [flags]                    list the rules
//	celint explain [flags] RULE-ID[/CODE]   print one rule, or one code of a rule
//	celint docs [flags]                     write one Markdown page per rule
//	celint serve [flags]                    serve the browser playground on a loopback address
//	celint version                          print the version
//	celint completion bash|zsh|fish         print a shell completion script
//
// Exit codes: 0 clean; 1 diagnostics at or above --fail-on; 2 usage, input or
// rule errors.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/rulesets"
)

// version is set at build time with -ldflags "-X main.version=..."; a
// binary installed with 'go install' reports its module version instead.
var version = "dev"

// toolVersion returns the version to report.
func toolVersion() string {
	if version == "dev" {
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			return bi.Main.Version
		}
	}
	return version
}

// runVersion prints the version; it takes no arguments but -h.
func runVersion(args []string, stdout io.Writer) (int, error) {
	fset := newFlagSet("version", "version\n\nPrints the version, the revision it was built from, the Go version and the embedded rulesets.", stdout)
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) > 0 {
		return exitError, &usageError{command: "version", msg: fmt.Sprintf("version takes no arguments, got %q", rest)}
	}
	return exitOK, printVersion(stdout)
}

// printVersion prints the module version, the VCS revision the binary was
// built from, the Go version, and the embedded rulesets.
func printVersion(w io.Writer) error {
	fmt.Fprintln(w, "celint", toolVersion())
	if bi, ok := debug.ReadBuildInfo(); ok {
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			if settings["vcs.modified"] == "true" {
				rev += " (modified)"
			}
			fmt.Fprintln(w, "revision", rev, settings["vcs.time"])
		}
		fmt.Fprintln(w, "go", bi.GoVersion)
	}
	all, err := rulesets.Load(engine.Options{Lazy: true}) // names and counts: nothing to compile
	if err != nil {
		return fmt.Errorf("embedded rulesets: %w", err)
	}
	cat, err := engine.NewCatalog(all...)
	if err != nil {
		return err
	}
	for _, rs := range cat.Rulesets() {
		fmt.Fprintf(w, "ruleset %s (%d rules)", rs, len(rs.Rules))
		if a := rs.Accepts; a != nil {
			fmt.Fprintf(w, ": %s %s", a.Path, strings.Join(a.Versions, ", "))
		}
		if engine.IsPrerelease(rs.Tag) {
			fmt.Fprint(w, "; a pre-release, chosen only with --spec or for a version no release accepts")
		}
		fmt.Fprintln(w)
	}
	return nil
}

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

func main() {
	deferFirstGC(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a command-line mistake: exit code 2, with a hint where
// to find the usage.
type usageError struct {
	msg     string
	command string // the command whose flags are wrong; "" for none
}

func (e *usageError) Error() string { return e.msg }

const usage = `celint lints JSON and YAML documents with rules written as data.

Usage:
  celint check [flags] FILE|DIR|GLOB...   lint documents (directories are walked for .json, .yaml, .yml)
  celint conformance [flags]              check every rule against its own examples
  celint rules [flags]                    list the rules: id, level, surface, title
  celint explain [flags] RULE-ID[/CODE]   print one rule, or one code of a rule
  celint docs [flags]                     write one Markdown page per rule
  celint diff-rules [flags] FROM TO       list the rules and codes added, removed or changed between two pinned tags
  celint fix [flags] FILE|DIR|GLOB...     print the fixes of the findings as a unified diff, or --write them
  celint migrate --to TAG FILE|DIR|GLOB... upgrade descriptions to the version of TAG (a diff, or --write)
  celint lsp                              serve the Language Server Protocol on stdin/stdout, for editors
  celint serve [flags]                    serve the browser playground (celint in WebAssembly) on a loopback address
  celint version                          print the version, revision and embedded rulesets
  celint completion bash|zsh|fish         print a shell completion script

Run 'celint COMMAND -h' for a command's flags.
Exit codes: 0 clean; 1 diagnostics at or above --fail-on; 2 usage, input or rule errors.
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError
	}
	var err error
	code := exitOK
	switch args[0] {
	case "check":
		code, err = runCheck(ctx, args[1:], stdin, stdout, stderr)
	case "conformance":
		code, err = runConformance(ctx, args[1:], stdout, stderr)
	case "rules":
		code, err = runRules(args[1:], stdout, stderr)
	case "explain":
		code, err = runExplain(args[1:], stdout, stderr)
	case "diff-rules":
		code, err = runDiffRules(args[1:], stdout, stderr)
	case "fix":
		code, err = runFix(ctx, args[1:], stdout, stderr)
	case "migrate":
		code, err = runMigrate(ctx, args[1:], stdout, stderr)
	case "docs":
		code, err = runDocs(args[1:], stdout, stderr)
	case "lsp":
		code, err = runLSP(ctx, args[1:], stdin, stdout, stderr)
	case "serve":
		code, err = runServe(ctx, args[1:], stdout, stderr)
	case "completion":
		code, err = runCompletion(ctx, args[1:], stdout)
	case "version", "--version":
		code, err = runVersion(args[1:], stdout)
	case "help", "-h", "--help":
		if len(args) > 1 && args[0] == "help" && args[1] != "help" {
			return run(ctx, []string{args[1], "-h"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
	default:
		err = &usageError{msg: fmt.Sprintf("unknown command %q", args[0])}
	}
	if errors.Is(err, errHelp) {
		return exitOK
	}
	if err != nil {
		var ue *usageError
		switch {
		case errors.As(err, &ue) && ue.command != "":
			fmt.Fprintf(stderr, "%s\nRun 'celint %s -h' for its flags.\n", errorText(err), ue.command)
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "%s\nRun 'celint help' for the commands.\n", errorText(err))
		case !errors.Is(err, errReported):
			fmt.Fprintf(stderr, "%s\n", errorText(err))
		}
		return exitError
	}
	return code
}

// errorText is err as celint prints it on stderr: after "celint: ", with
// the text of rule files, file names and the YAML and CEL messages that
// echo them made safe for a terminal (control, bidi and invisible
// characters shown escaped; line feeds kept, as a list of located errors
// has one a line), and no line a CI runner would read as a workflow
// command (a file name that starts with "::", say).
func errorText(err error) string {
	return safetext.Guard(safetext.Block("celint: " + err.Error()))
}

// errReported means the error was already printed.
var errReported = errors.New("reported")

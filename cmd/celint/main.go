// Command celint lints JSON and YAML documents with rules written as data.
//
// Usage:
//
//	celint check [flags] FILE|DIR|GLOB...   lint documents
//	celint conformance [flags]              check every rule against its examples
//	celint rules [flags]                    list the rules
//	celint explain [flags] RULE-ID          print one rule
//	celint docs [flags]                     write one Markdown page per rule
//	celint version                          print the version
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

	"github.com/celint/celint/internal/safetext"
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

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a command-line mistake: exit code 2 with usage help.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

const usage = `celint lints JSON and YAML documents with rules written as data.

Usage:
  celint check [flags] FILE|DIR|GLOB...   lint documents (directories are walked for .json, .yaml, .yml)
  celint conformance [flags]              check every rule against its own examples
  celint rules [flags]                    list the rules: id, level, surface, title
  celint explain [flags] RULE-ID          print one rule
  celint docs [flags]                     write one Markdown page per rule
  celint version                          print the version

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
	case "docs":
		code, err = runDocs(args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "celint", toolVersion())
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		err = &usageError{fmt.Sprintf("unknown command %q", args[0])}
	}
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "%s\n\n%s", errorText(err), usage)
		} else if !errors.Is(err, errReported) {
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

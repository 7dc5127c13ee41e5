// Package report prints the diagnostics of one celint run in one of several
// formats: "text" (the default, for people), "json" (for programs), "sarif"
// (SARIF 2.1.0, for code-scanning services) and "github" (GitHub Actions
// workflow commands, which annotate pull requests).
//
// Each format is one small type behind the [Printer] interface; [New] picks
// one by name and [Formats] lists the names.
//
// # The json format
//
// The json format is a stable interface: fields are only ever added, and a
// change that is not an addition bumps "version". One run prints one object,
// indented by two spaces and followed by a newline:
//
//	{
//	  "version": 1,
//	  "tool": {
//	    "name": "celint",
//	    "version": "1.2.3"
//	  },
//	  "diagnostics": [
//	    {
//	      "file": "servers/weather.json",
//	      "ruleId": "mcp.tool.name-format",
//	      "severity": "error",
//	      "message": "tool name must match ^[a-z][a-z0-9_-]*$",
//	      "pointer": "/tools/0/name",
//	      "line": 3,
//	      "column": 15
//	    }
//	  ],
//	  "counts": {
//	    "errors": 1,
//	    "warnings": 0,
//	    "infos": 0,
//	    "ruleErrors": 0,
//	    "files": 2,
//	    "filesWithProblems": 1
//	  }
//	}
//
// The top-level fields:
//
//   - version (number): the version of this format, 1.
//   - tool.name (string): always "celint".
//   - tool.version (string): the version of celint; "" when unknown.
//   - config (string, present when a config file was used): the path of
//     that file, relative to the working folder when it can be.
//   - diagnostics (array, never null): the findings, in the order the caller
//     sorted them (by file, line, column, pointer, rule id, message).
//   - counts (object): the tallies of the run.
//
// Each diagnostic is an object with:
//
//   - file (string): the path of the document as given on the command line.
//   - ruleId (string): the id of the rule; input errors (a document that
//     could not be read or parsed) carry the id of the input check.
//   - severity (string): "error", "warning" or "info".
//   - message (string): the finding, in English.
//   - pointer (string): an RFC 6901 JSON Pointer to the offending value
//     within the document ("" is the whole document; "~1" escapes "/" and
//     "~0" escapes "~").
//   - line, column (numbers): the 1-based position of the offending value
//     (of its key, for a member); columns count Unicode code points; absent
//     when the problem concerns a file as a whole (it cannot be read, a
//     pattern matches nothing): no position is invented.
//   - endLine, endColumn (numbers, present when known): where the offending
//     value ends, just past its last character, so that an editor can mark
//     the range from line:column to endLine:endColumn.
//   - related (array, present when not empty): other positions the finding
//     concerns, each an object with message, pointer, line and column; for
//     example the references through which a referenced value was reached.
//   - url (string, present when known): the page that documents the rule.
//   - ruleError (boolean, present only when true): the rule itself failed
//     (evaluation error, cost budget exceeded), so the document was not fully
//     checked by that rule; the message says why, without a label.
//   - inputError (boolean, present only when true): the document could not be
//     read or parsed.
//
// The counts object has:
//
//   - errors, warnings, infos (numbers): the diagnostics by severity.
//   - ruleErrors (number): the diagnostics with ruleError, which are counted
//     under their severity too.
//   - files (number): the files linted.
//   - filesWithProblems (number): the files with at least one diagnostic.
//
// # The text format
//
// For people: the diagnostics grouped by file, one aligned row each
// (line:column, severity, message, rule id), the JSON Pointer on the next
// line, then the source line with its number and a caret under the column
// (tabs expand to 4 columns; columns count code points). Rule errors and
// input errors carry a "rule error: " or "input error: " label. A summary
// line ends the report: "✖ 3 problems (2 errors, 1 warning, 0 infos) in 1 of 2
// files" or "✔ no problems in 2 files". Colours only when asked for. Control,
// bidi and invisible characters of documents, file names and rules never
// reach the terminal raw: they are shown as "<U+202E>" (package safetext),
// and no line starts with "::" or carries "##[", which a CI runner would
// read as a workflow command (a file header that would is printed "./::…").
//
// # The sarif format
//
// One SARIF 2.1.0 log with one run and run.columnKind "unicodeCodePoints".
// tool.driver.rules describes every rule that ran, then any rule id met only
// in results (such as the input check). run.invocations holds one
// invocation: executionSuccessful is false when there was a rule error or an
// input error, and a problem with a file as a whole (one that cannot be
// read, a pattern that matches nothing: no line) is one of its
// toolExecutionNotifications, with its level, message, rule descriptor and
// the file's artifact location, not a result at an invented position. Each
// result names its rule by ruleId and ruleIndex, maps severities to the
// levels "error", "warning" and "note", and has one location: a relative URI
// (forward slashes, percent-escaped) under the uriBaseId "%SRCROOT%" (an
// absolute path becomes a file: URI without a base), a region of startLine
// and startColumn with endLine and endColumn when the end is known, and the
// JSON Pointer as a logical location of kind "member". Related positions
// are relatedLocations, each with an id, a message and the same parts.
// The partial fingerprint "celint/v2" is the first 32 hex digits of the
// SHA-256 of the rule id (with "/code" for a finding of a check with a
// code), the file (forward slashes) and the pointer, each followed by a NUL
// byte, so that a finding keeps its identity when lines move or its message
// is reworded ("celint/v1" included the message). Rule errors and input
// errors carry properties.ruleError or properties.inputError.
//
// The config file the run used, when there is one, is the one element of
// run.artifacts, with its location (as a result's) and the role
// "userSpecifiedConfiguration".
//
// # The github format
//
// One workflow command a line, "::error", "::warning" or "::notice" (for
// info), with the properties file, line and col (left out when unknown) and
// title (the rule id, with " (rule error)" or " (input error)" appended for
// those), and the message followed by the pointer in parentheses; control
// (ESC, DEL, C1), bidi and invisible characters shown as "<U+001B>", then
// escaped as @actions/core escapes. It prints nothing when there is nothing
// to report.
//
// # Terminal safety of json and sarif
//
// Both keep the original text. What encoding/json leaves raw and a
// terminal would act on (DEL, C1, bidi and invisible characters) is written
// as \u escapes, and "##[" as "#\u0023[": the same JSON values.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/celint/celint/engine"
)

// Rule is the metadata a printer may show for a rule id (SARIF rules, links).
type Rule struct {
	ID          string
	Title       string
	Description string
	HelpURI     string
	Severity    engine.Severity
}

// Input is everything one run prints.
type Input struct {
	// Diagnostics are already sorted deterministically by the caller.
	Diagnostics []engine.Diagnostic
	// Files is every file linted, in order, so that files without findings
	// can be counted.
	Files []string
	// Rules is the metadata of the rules that ran (SARIF tool.driver.rules).
	Rules []Rule
	// Sources holds file contents by file name, for code frames in text
	// output; a file may be missing.
	Sources map[string][]byte
	// ToolVersion is the version of celint.
	ToolVersion string
	// Config is the path of the config file the run used, relative to the
	// working folder when it can be; "" when none.
	Config string
	// Color turns on ANSI colours in text output.
	Color bool
}

// Printer writes the report of one run in one format.
type Printer interface {
	Print(w io.Writer, in Input) error
}

// toolName and toolURI identify celint in machine-readable formats.
const (
	toolName = "celint"
	toolURI  = "https://github.com/celint/celint"
)

var printers = []struct {
	name string
	new  func() Printer
}{
	{"text", func() Printer { return textPrinter{} }},
	{"json", func() Printer { return jsonPrinter{} }},
	{"sarif", func() Printer { return sarifPrinter{} }},
	{"github", func() Printer { return githubPrinter{} }},
}

// Formats lists the names New accepts, the default first.
func Formats() []string {
	names := make([]string, len(printers))
	for i, p := range printers {
		names[i] = p.name
	}
	return names
}

// New returns the printer of a format: "text" (also for ""), "json", "sarif"
// or "github".
func New(format string) (Printer, error) {
	if format == "" {
		format = "text"
	}
	for _, p := range printers {
		if p.name == format {
			return p.new(), nil
		}
	}
	return nil, fmt.Errorf("unknown output format %q: expected one of %s", format, strings.Join(Formats(), ", "))
}

// counts is the tally of a run shared by the text and json formats.
type counts struct {
	engine.Counts
	Files             int `json:"files"`
	FilesWithProblems int `json:"filesWithProblems"`
}

func (c counts) problems() int { return c.Errors + c.Warnings + c.Infos }

// tally counts the diagnostics of in by severity and the files, including
// any file named only by a diagnostic.
func tally(in Input) counts {
	c := counts{Counts: engine.Count(in.Diagnostics)}
	files := make(map[string]bool, len(in.Files))
	for _, f := range in.Files {
		files[f] = true
	}
	problems := make(map[string]bool)
	for _, d := range in.Diagnostics {
		files[d.File] = true
		problems[d.File] = true
	}
	c.Files = len(files)
	c.FilesWithProblems = len(problems)
	return c
}

// ruleLabel names a diagnostic's finding: the rule id, and its code when
// the finding has one ("id/code").
func ruleLabel(d engine.Diagnostic) string {
	if d.Code == "" {
		return d.RuleID
	}
	return d.RuleID + "/" + d.Code
}

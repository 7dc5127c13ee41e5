// Package report prints the diagnostics of one celint run in one of several
// formats: "text" (the default, for people), "json" (for programs), "jsonl"
// (JSON Lines, for programs that read a report as it comes), "sarif"
// (SARIF 2.1.0, for code-scanning services), "github" (GitHub Actions
// workflow commands, which annotate pull requests) and "codequality"
// (a GitLab Code Quality report, shown in merge requests).
//
// Each format is one small type behind the [Printer] interface; [New] picks
// one by name and [Formats] lists the names. [NewStream] prints a report
// one file at a time, as the files are linted: text, jsonl, github and
// codequality write each file's part when it comes, and keep nothing of it; json and
// sarif, single documents whose first parts depend on every file, keep the
// diagnostics until the end, and then encode the document piece by piece.
//
// # Findings not shown
//
// A caller that bounds the diagnostics of a file (celint check
// --max-diagnostics) ends the file's diagnostics with one entry of rule id
// "celint.limit" ([LimitRuleID]) saying how many more there are, with no
// line or column, at the highest severity of those it stands for. It is not
// a finding: the counts of every format leave it out and count instead
// the findings it stands for (Input.NotShown, File.NotShown), so that
// errors, warnings and infos are the run's true totals. The text summary
// then ends with "; N not shown", and the json counts have notShown.
// Likewise a caller that shows errors only (celint check --quiet) counts
// the findings it leaves out (File.Quieted, Input.Quieted): the text
// summary then ends with "; N hidden by --quiet", and the json counts have
// quieted.
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
//	      "file": "items/weather.json",
//	      "ruleId": "acme.item.name-format",
//	      "severity": "error",
//	      "message": "item name must match ^[a-z][a-z0-9_-]*$",
//	      "pointer": "/items/0/name",
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
//   - files (array, never null): the files checked, in order, each an
//     object with file (the path, as in a diagnostic) and rulesets (the
//     rulesets that checked it, as name@tag, the one chosen for the
//     version the document declares first; empty for a file no ruleset
//     checked, such as one that could not be read).
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
//   - fix (array, present when the rule declares one for the finding): the
//     edits that mend it, JSON Patch (RFC 6902) operations with op
//     ("replace", "remove", "add" or "move"), path (an RFC 6901 pointer from
//     the document's root), from (for move: where the value is taken from)
//     and value (for replace and add). Each finding's edits are computed on
//     the document as it is: the fixes of findings that touch the same
//     place are not made together (celint fix makes them in rounds);
//     the sarif format carries them as text replacements.
//
// The counts object has:
//
//   - errors, warnings, infos (numbers): the diagnostics by severity,
//     including those not shown (the celint.limit entries are not counted).
//   - ruleErrors (number): the diagnostics with ruleError, which are counted
//     under their severity too.
//   - files (number): the files linted.
//   - filesWithProblems (number): the files with at least one diagnostic.
//   - notShown (number, present when not 0): the findings counted above
//     that the diagnostics leave out, each file's stood for by its
//     celint.limit entry.
//   - quieted (number, present when not 0): the findings counted above
//     that the diagnostics leave out because only errors are shown
//     (--quiet).
//
// # The jsonl format
//
// JSON Lines: one compact JSON object a line, each followed by a newline.
// Each diagnostic is a line of its own, an object with the members of a
// diagnostic of the json format, file after file as they are linted. The
// last line is the summary, an object with the version, tool, files and
// counts members of the json format (and no ruleId): a report without it
// was cut short.
//
// # The text format
//
// For people: the diagnostics grouped by file, one aligned row each
// (line:column, severity, message, rule id), the JSON Pointer on the next
// line, then the source line with its number and a caret under the column
// (tabs expand to 4 columns; columns count code points). Rule errors and
// input errors carry a "rule error: " or "input error: " label. A file's
// header names the rulesets that checked it. A summary line ends the
// report: "✖ 3 problems (2 errors, 1 warning, 0 infos) in 1 of 2 files with
// acme@v2" or "✔ no problems in 2 files with acme@v1 (1), acme@v2 (1)"
// (the rulesets that checked the files, with their numbers of files when
// there are several), followed by "; N not shown"
// when findings were left out, and "; N hidden by --quiet" when findings
// below error were. Colours only when asked for. Control,
// bidi and invisible characters of documents, file names and rules never
// reach the terminal raw: they are shown as "<U+202E>" (package safetext),
// and no line starts with "::" or carries "##[", which a CI runner would
// read as a workflow command (a file header that would is printed "./::…").
//
// # The sarif format
//
// One SARIF 2.1.0 log with one run and run.columnKind "unicodeCodePoints".
// tool.driver.rules describes every rule that ran, then any rule id met only
// in results (such as the input check). A rule that ran has its title as
// shortDescription, its description as fullDescription, its page as
// helpUri, and its documentation as help: help.text is what celint explain
// prints of it, help.markdown the page celint docs writes, without its
// front matter and with the title as a heading. run.invocations holds one
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
// A finding with a fix (the json format's fix) has one element in fixes:
// a description naming its edits ("Remove /tags/1"), and one
// artifactChange of the result's file whose replacements turn the file,
// as it was checked, into the file with that finding's edits made alone
// (by loader.Edits, with the options the file was read with: comments and
// layout elsewhere kept). Every replacement refers to the file before any
// of them is made; they are in the order of the file and do not overlap,
// one for each separate place the edits change. Each has a deletedRegion
// with startLine, startColumn, endLine and endColumn (the end just past
// the last character deleted; the start again for an insertion) and
// charOffset and charLength, all counting code points as columnKind says,
// and lines ending at "\r\n", a lone "\r" or "\n"; and insertedContent,
// whose text (empty for a deletion) takes the region's place. A
// replacement is as short as it can be, never splits a character or a
// "\r\n", and deletes or inserts whole lines when the same change can be
// written so. A fix that cannot be made (its edits are refused) is left
// out, and so are a file's fixes once making them has read 16 MiB of it,
// each reading the whole file (a file of 1 MiB has the fixes of its first
// 16 findings with edits, a file of more than 16 MiB none): the finding
// is a result all the same.
//
// When a run shows suppressed findings (celint check --include-suppressed),
// each is a result among the others, in report order, with one element
// in suppressions: of kind "inSource" for a finding a suppression comment
// in the document hides, "external" for one a baseline hides. Without it,
// as in every other format, they are left out. A suppressed finding has
// no fix, and no count includes it.
//
// The config file the run used, when there is one, is the first element of
// run.artifacts, with its location (as a result's) and the role
// "userSpecifiedConfiguration". Each file checked follows, with the role
// "analysisTarget" and, in its properties, rulesets: the rulesets that
// checked it, as in the json format.
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
// # The codequality format
//
// A GitLab Code Quality report (artifacts:reports:codequality): one JSON
// array, indented by two spaces and followed by a newline, "[]" when there
// is nothing to report, of one object a diagnostic, in report order:
//
//   - description (string): the message, after "rule error: " or
//     "input error: " for those.
//   - check_name (string): the rule id, with "/code" for a finding of a
//     check with a code.
//   - fingerprint (string): the first 32 hex digits of the SHA-256 of the
//     check_name, the path and the finding's path in the document, each
//     followed by a NUL byte. The finding's path is its JSON Pointer with
//     each array item that the ruleset identifies by a member
//     (context.identity) named by it, as baselines name it: the
//     fingerprint stays the same when lines move, messages are reworded or
//     identified items are inserted above. A report never repeats a
//     fingerprint: the nth repetition of one (the same rule at the same
//     place with another message) has n, in decimal, added to what is
//     hashed.
//   - severity (string): "info", "minor" (warning), "major" (error), or
//     "critical" for a rule error or an input error.
//   - location.path (string): the file as given on the command line, with
//     forward slashes and no leading "./"; GitLab expects it relative to
//     the repository's root, so run celint from there with relative paths.
//   - location.lines.begin (number): the line of the finding; 1 for a
//     problem with a file as a whole, which GitLab needs a line for.
//
// Strings are escaped as in the json format, so that no text of a document
// can end a string or the array.
//
// # Terminal safety of json, jsonl, sarif and codequality
//
// They keep the original text. What encoding/json leaves raw and a
// terminal would act on (DEL, C1, bidi and invisible characters) is written
// as \u escapes, and "##[" as "#\u0023[": the same JSON values.
package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// Rule is the metadata a printer may show for a rule id (SARIF rules, links).
type Rule struct {
	ID          string
	Title       string
	Description string
	HelpURI     string
	Severity    engine.Severity
	// Help, when not nil, renders the rule's documentation as plain text
	// and as Markdown, for the formats that carry it (sarif); it is called
	// only by those. A rule whose Help fails is printed without it.
	Help func() (text, markdown string, err error)
}

// The kinds of suppression of a Suppressed finding, as SARIF names them.
const (
	// InSource: a suppression comment in the document suppresses it.
	InSource = "inSource"
	// External: a baseline suppresses it.
	External = "external"
)

// Suppressed is a finding that a suppression comment or a baseline hides,
// given to the printers only when a run asks for suppressed findings
// (celint check --include-suppressed): the sarif format prints it as a
// result with a suppression of its Kind; the other formats leave it out,
// and no count includes it.
type Suppressed struct {
	engine.Diagnostic
	// Kind is InSource or External.
	Kind string
}

// LimitRuleID is the rule id of the entry that ends a file's diagnostics
// when some of its findings are not shown; see the package comment.
const LimitRuleID = "celint.limit"

// isLimit reports whether d is a celint.limit entry: that rule id, no
// position, and neither a rule error nor an input error.
func isLimit(d engine.Diagnostic) bool {
	return d.RuleID == LimitRuleID && d.Line == 0 && !d.RuleError && !d.InputError
}

// Input is everything one run prints.
type Input struct {
	// Diagnostics are already sorted deterministically by the caller.
	Diagnostics []engine.Diagnostic
	// NotShown counts the findings left out of Diagnostics, which the
	// counts include (see the package comment).
	NotShown engine.Counts
	// Quieted counts, by file name, the findings left out because only
	// errors are shown (--quiet); the counts include them too.
	Quieted map[string]engine.Counts
	// Suppressed are the findings that suppression comments and baselines
	// hide, sorted as Diagnostics are, when the run shows them; no count
	// includes them.
	Suppressed []Suppressed
	// Files is every file linted, in order, so that files without findings
	// can be counted.
	Files []string
	// Rules is the metadata of the rules that ran (SARIF tool.driver.rules).
	Rules []Rule
	// Sources holds file contents by file name, for code frames in text
	// output and the fixes of SARIF results; a file may be missing.
	Sources map[string][]byte
	// LoadOptions are the options each file was read with, by file name:
	// the fixes of SARIF results are made with them (loader.Edits), with
	// loader.DefaultOptions for a file missing.
	LoadOptions map[string]loader.Options
	// ToolVersion is the version of celint.
	ToolVersion string
	// Config is the path of the config file the run used, relative to the
	// working folder when it can be; "" when none.
	Config string
	// Rulesets name the rulesets that checked each file (name@tag), by
	// file name, the one chosen for its version first.
	Rulesets map[string][]string
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

// printers are the formats: the printer of each, and how a report in it
// is written one file at a time.
var printers = []struct {
	name   string
	new    func() Printer
	stream func(w io.Writer, in Input) Stream
}{
	{"text", func() Printer { return textPrinter{} }, newTextStream},
	{"json", func() Printer { return jsonPrinter{} }, func(w io.Writer, in Input) Stream { return &wholeStream{w: w, in: in, p: jsonPrinter{}} }},
	{"jsonl", func() Printer { return jsonlPrinter{} }, newJSONLStream},
	{"sarif", func() Printer { return sarifPrinter{} }, newSARIFStream},
	{"github", func() Printer { return githubPrinter{} }, newGithubStream},
	{"codequality", func() Printer { return codeQualityPrinter{} }, newCodeQualityStream},
}

// Formats lists the names New accepts, the default first.
func Formats() []string {
	names := make([]string, len(printers))
	for i, p := range printers {
		names[i] = p.name
	}
	return names
}

// New returns the printer of a format: "text" (also for ""), "json",
// "jsonl", "sarif", "github" or "codequality".
func New(format string) (Printer, error) {
	i, err := formatIndex(format)
	if err != nil {
		return nil, err
	}
	return printers[i].new(), nil
}

func formatIndex(format string) (int, error) {
	if format == "" {
		format = "text"
	}
	for i, p := range printers {
		if p.name == format {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown output format %q: expected one of %s", format, strings.Join(Formats(), ", "))
}

// File is one file's part of a report.
type File struct {
	// Name is the file's name; the diagnostics are all of it.
	Name string
	// Checked is true for a file that was linted, which counts among the
	// files even without diagnostics; false for a name that is no file
	// linted (a pattern that matches nothing).
	Checked bool
	// Diagnostics are the file's, sorted, with its celint.limit entry last
	// when some were not shown.
	Diagnostics []engine.Diagnostic
	// NotShown counts the findings left out of Diagnostics.
	NotShown engine.Counts
	// Quieted counts the findings left out because only errors are shown.
	Quieted engine.Counts
	// Suppressed are the file's suppressed findings, sorted, when the run
	// shows them (Input.Suppressed).
	Suppressed []Suppressed
	// Source is the file's contents, for code frames and the fixes of
	// SARIF results; nil when unknown.
	Source []byte
	// LoadOptions are the options the file was read with, with which the
	// fixes of SARIF results are made; nil for loader.DefaultOptions.
	LoadOptions *loader.Options
	// Rulesets name the rulesets that checked the file (name@tag), the one
	// chosen for its version first; nil when none did.
	Rulesets []string
}

// Stream writes a report one file at a time, the files in the order of
// the report (by name, as engine.SortDiagnostics orders them).
type Stream interface {
	// File adds the part of one file; each file comes once.
	File(f File) error
	// Close ends the report with what follows the files (the summary);
	// rules is the metadata of the rules that ran (Input.Rules).
	Close(rules []Rule) error
}

// NewStream starts a report in format on w. in holds what the report
// says besides its files (ToolVersion, Color); its Diagnostics, NotShown,
// Suppressed, Files, Rules, Sources, LoadOptions and Rulesets are left
// out: the files come through Stream.File, the rules with Stream.Close.
func NewStream(format string, w io.Writer, in Input) (Stream, error) {
	i, err := formatIndex(format)
	if err != nil {
		return nil, err
	}
	in.Diagnostics, in.NotShown, in.Quieted, in.Files, in.Rules, in.Sources, in.LoadOptions, in.Rulesets = nil, engine.Counts{}, nil, nil, nil, nil, nil, nil
	in.Suppressed = nil
	return printers[i].stream(w, in), nil
}

// printAll writes in through s: the printers of the streamed formats are
// their streams given one file after the other.
func printAll(s Stream, in Input) error {
	notShown := in.NotShown
	files := make(map[string]bool, len(in.Files))
	for _, f := range in.Files {
		files[f] = true
	}
	suppressed := map[string][]Suppressed{}
	for _, sd := range in.Suppressed {
		suppressed[sd.File] = append(suppressed[sd.File], sd)
	}
	for _, group := range groupByFile(in.Diagnostics) {
		name := group[0].File
		f := File{Name: name, Checked: files[name], Diagnostics: group, Quieted: in.Quieted[name], Suppressed: suppressed[name], Source: in.Sources[name], Rulesets: in.Rulesets[name]}
		delete(suppressed, name)
		if opts, ok := in.LoadOptions[name]; ok {
			f.LoadOptions = &opts
		}
		// The counts of what is not shown go with the first file.
		f.NotShown, notShown = notShown, engine.Counts{}
		if err := s.File(f); err != nil {
			return err
		}
		delete(files, name)
	}
	for _, name := range in.Files {
		if files[name] {
			if err := s.File(File{Name: name, Checked: true, NotShown: notShown, Quieted: in.Quieted[name], Suppressed: suppressed[name], Rulesets: in.Rulesets[name]}); err != nil {
				return err
			}
			notShown = engine.Counts{}
			delete(files, name)
			delete(suppressed, name)
		}
	}
	// The suppressed findings of files named nowhere else.
	for _, name := range slices.Sorted(maps.Keys(suppressed)) {
		if err := s.File(File{Name: name, Suppressed: suppressed[name]}); err != nil {
			return err
		}
	}
	if notShown != (engine.Counts{}) {
		if err := s.File(File{NotShown: notShown}); err != nil {
			return err
		}
	}
	return s.Close(in.Rules)
}

// groupByFile splits ds by file, in the order each file first appears.
func groupByFile(ds []engine.Diagnostic) [][]engine.Diagnostic {
	var groups [][]engine.Diagnostic
	index := make(map[string]int)
	for _, d := range ds {
		i, ok := index[d.File]
		if !ok {
			i = len(groups)
			index[d.File] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], d)
	}
	return groups
}

// wholeStream keeps the files of a report in a format that is one
// document, and prints it when the report closes.
type wholeStream struct {
	w  io.Writer
	in Input
	p  Printer
}

func (s *wholeStream) File(f File) error {
	s.in.Diagnostics = append(s.in.Diagnostics, f.Diagnostics...)
	s.in.Suppressed = append(s.in.Suppressed, f.Suppressed...)
	s.in.NotShown = s.in.NotShown.Add(f.NotShown)
	if f.Quieted != (engine.Counts{}) {
		if s.in.Quieted == nil {
			s.in.Quieted = map[string]engine.Counts{}
		}
		s.in.Quieted[f.Name] = s.in.Quieted[f.Name].Add(f.Quieted)
	}
	if f.Checked {
		s.in.Files = append(s.in.Files, f.Name)
	}
	if len(f.Rulesets) > 0 {
		if s.in.Rulesets == nil {
			s.in.Rulesets = map[string][]string{}
		}
		s.in.Rulesets[f.Name] = f.Rulesets
	}
	return nil
}

func (s *wholeStream) Close(rules []Rule) error {
	s.in.Rules = rules
	return s.p.Print(s.w, s.in)
}

// counts is the tally of a run shared by the text and json formats.
type counts struct {
	engine.Counts
	Files             int `json:"files"`
	FilesWithProblems int `json:"filesWithProblems"`
	NotShown          int `json:"notShown,omitempty"`
	Quieted           int `json:"quieted,omitempty"`
}

func (c counts) problems() int { return c.Errors + c.Warnings + c.Infos }

// tally counts the diagnostics of in by severity and the files, including
// any file named only by a diagnostic.
func tally(in Input) counts {
	var t tallier
	for _, f := range in.Files {
		t.file(f, false)
	}
	for _, group := range groupByFile(in.Diagnostics) {
		t.add(group)
	}
	t.notShown(in.NotShown)
	for _, name := range slices.Sorted(maps.Keys(in.Quieted)) {
		t.quieted(name, in.Quieted[name])
	}
	return t.counts()
}

// tallier counts a report's diagnostics and files as they come.
type tallier struct {
	c        counts
	files    map[string]bool // true: the file has diagnostics
	inputErr int
	rulesets map[string]int // files checked by each ruleset
}

// checkedWith counts a checked file under each ruleset that checked it.
func (t *tallier) checkedWith(rulesets []string) {
	for _, rs := range rulesets {
		if t.rulesets == nil {
			t.rulesets = map[string]int{}
		}
		t.rulesets[rs]++
	}
}

// rulesetsPhrase says which rulesets checked the files: "acme@v2" when
// one did, "acme@v1 (1), acme@v2 (2)" when several
// did, each with its number of files; "" when none did.
func (t *tallier) rulesetsPhrase() string {
	names := slices.Sorted(maps.Keys(t.rulesets))
	if len(names) == 1 {
		return names[0]
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s (%d)", n, t.rulesets[n])
	}
	return strings.Join(parts, ", ")
}

// file counts a file, and whether it has problems.
func (t *tallier) file(name string, problems bool) {
	if t.files == nil {
		t.files = map[string]bool{}
	}
	t.files[name] = t.files[name] || problems
}

// add counts the diagnostics of one file, and the file.
func (t *tallier) add(ds []engine.Diagnostic) {
	for _, d := range ds {
		if isLimit(d) {
			continue // it stands for findings that notShown counts
		}
		switch d.Severity {
		case engine.Error:
			t.c.Errors++
		case engine.Warning:
			t.c.Warnings++
		default:
			t.c.Infos++
		}
		if d.RuleError {
			t.c.RuleErrors++
		}
		if d.InputError {
			t.inputErr++
		}
	}
	if len(ds) > 0 {
		t.file(ds[0].File, true)
	}
}

// notShown counts findings left out of the diagnostics.
func (t *tallier) notShown(c engine.Counts) {
	t.c.Counts = t.c.Counts.Add(c)
	t.c.NotShown += c.Errors + c.Warnings + c.Infos
}

// quieted counts findings of file name left out because only errors are
// shown: they are problems of the file all the same.
func (t *tallier) quieted(name string, c engine.Counts) {
	n := c.Errors + c.Warnings + c.Infos
	if n == 0 {
		return
	}
	t.c.Counts = t.c.Counts.Add(c)
	t.c.Quieted += n
	t.file(name, true)
}

func (t *tallier) counts() counts {
	c := t.c
	c.Files, c.FilesWithProblems = len(t.files), 0
	for _, problems := range t.files {
		if problems {
			c.FilesWithProblems++
		}
	}
	return c
}

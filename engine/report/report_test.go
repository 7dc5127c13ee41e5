package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// weatherJSON has a non-ASCII line with the column after the non-ASCII text
// (line 5) and a tab before the column (line 3).
const weatherJSON = `{
  "name": "Wéather Sèrvice",
	"version": "1.0",
  "tools": {
    "get/forecast": {"summary": "Prévisions météo", "description": ""}
  }
}
`

const myToolsYAML = `name: my-tools
tools:
  - name: lookup
    inputSchema: 7
`

// sampleInput is the one input of the golden files: an error, a warning, an
// info and a rule error across two files, a third file without findings;
// the error and the warning have fixes.
func sampleInput() Input {
	ds := []engine.Diagnostic{
		{
			File: "servers/weather.json", RuleID: "mcp.server.name-format", Severity: engine.Error,
			Message: `server name must match ^[a-z0-9-]+$, got "Wéather Sèrvice"`,
			Pointer: "/name", Line: 2, Column: 11, EndLine: 2, EndColumn: 28,
			URL: "https://example.com/rules/mcp.server.name-format",
			Fix: []loader.Edit{{Op: loader.Replace, Pointer: "/name", Value: "weather-service"}},
		},
		{
			File: "servers/weather.json", RuleID: "mcp.server.version-semver", Severity: engine.Info,
			Message: "version 1.0 is not a semantic version: 100% of servers use MAJOR.MINOR.PATCH",
			Pointer: "/version", Line: 3, Column: 13,
		},
		{
			File: "servers/weather.json", RuleID: "mcp.tool.description", Severity: engine.Warning,
			Message: "tool description should not be empty",
			Pointer: "/tools/get~1forecast/description", Line: 5, Column: 53, EndLine: 5, EndColumn: 55,
			Related: []engine.Related{{Message: "referenced here", Pointer: "/tools/get~1forecast", Line: 5, Column: 15}},
			Fix:     []loader.Edit{{Op: loader.Replace, Pointer: "/tools/get~1forecast/description", Value: "Prévisions à 7 jours"}},
		},
		{
			File: "servers/my tools.yaml", RuleID: "mcp.tool.input-schema", Severity: engine.Error,
			Message: "no such key: type",
			Pointer: "/tools/0", Line: 3, Column: 5, RuleError: true,
		},
	}
	engine.SortDiagnostics(ds)
	return Input{
		Diagnostics: ds,
		Files:       []string{"servers/weather.json", "servers/my tools.yaml", "servers/clean.json"},
		Rulesets: map[string][]string{
			"servers/weather.json":  {"mcp@v2.0.0"},
			"servers/my tools.yaml": {"mcp@v1.0.0", "house@v1"},
			"servers/clean.json":    {"mcp@v2.0.0"},
		},
		Rules: []Rule{
			{ID: "mcp.server.name-format", Title: "Server names are kebab-case", Description: "The server name is lower-case letters, digits and hyphens.", HelpURI: "https://example.com/rules/mcp.server.name-format", Severity: engine.Error},
			{ID: "mcp.server.version-semver", Title: "Versions are semantic", Severity: engine.Info},
			{ID: "mcp.tool.description", Title: "Tools are described", Description: "Every tool has a non-empty description.", Severity: engine.Warning},
			{ID: "mcp.tool.input-schema", Title: "Tool input schemas are objects", Severity: engine.Error},
			{ID: "mcp.tool.unused", Severity: engine.Warning},
		},
		Sources: map[string][]byte{
			"servers/weather.json":  []byte(weatherJSON),
			"servers/my tools.yaml": []byte(myToolsYAML),
		},
		LoadOptions: map[string]loader.Options{
			"servers/weather.json":  loader.DefaultOptions(),
			"servers/my tools.yaml": loader.DefaultOptions(),
		},
		ToolVersion: "0.1.0",
	}
}

func render(t *testing.T, format string, in Input) string {
	t.Helper()
	p, err := New(format)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := p.Print(&buf, in); err != nil {
		t.Fatalf("%s: Print: %v", format, err)
	}
	return buf.String()
}

func TestGolden(t *testing.T) {
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			got := render(t, format, sampleInput())
			path := filepath.Join("testdata", "golden."+format)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", format, firstDiff(string(want), got))
			}
		})
	}
}

// firstDiff describes the first line where got differs from want.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %q\n got %q", i+1, w, g)
		}
	}
	return "(no line differs)"
}

func TestNew(t *testing.T) {
	if got, want := Formats(), []string{"text", "json", "jsonl", "sarif", "github", "codequality"}; !slices.Equal(got, want) {
		t.Errorf("Formats() = %v, want %v", got, want)
	}
	p, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(textPrinter); !ok {
		t.Errorf(`New("") = %T, want the text printer`, p)
	}
	_, err = New("xml")
	if err == nil {
		t.Fatal(`New("xml") succeeded`)
	}
	for _, f := range Formats() {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not list %q", err, f)
		}
	}
}

func TestEmpty(t *testing.T) {
	in := Input{Files: []string{"a.json", "b.yaml"}, ToolVersion: "0.1.0"}
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			got := render(t, format, in)
			switch format {
			case "text":
				if want := "✔ no problems in 2 files\n"; got != want {
					t.Errorf("got %q, want %q", got, want)
				}
			case "github":
				if got != "" {
					t.Errorf("got %q, want nothing", got)
				}
			case "json":
				var r map[string]any
				if err := json.Unmarshal([]byte(got), &r); err != nil {
					t.Fatal(err)
				}
				if ds, ok := r["diagnostics"].([]any); !ok || len(ds) != 0 {
					t.Errorf("diagnostics = %#v, want []", r["diagnostics"])
				}
				want := map[string]any{"errors": 0.0, "warnings": 0.0, "infos": 0.0, "ruleErrors": 0.0, "files": 2.0, "filesWithProblems": 0.0}
				if fmt.Sprint(r["counts"]) != fmt.Sprint(want) {
					t.Errorf("counts = %v, want %v", r["counts"], want)
				}
				if !strings.HasSuffix(got, "}\n") {
					t.Errorf("output does not end in a newline: %q", got)
				}
			case "jsonl":
				want := `{"version":1,"tool":{"name":"celint","version":"0.1.0"},"files":[{"file":"a.json","rulesets":[]},{"file":"b.yaml","rulesets":[]}],"counts":{"errors":0,"warnings":0,"infos":0,"ruleErrors":0,"files":2,"filesWithProblems":0}}` + "\n"
				if got != want {
					t.Errorf("got %q, want %q", got, want)
				}
			case "sarif":
				if !strings.Contains(got, `"results": []`) || !strings.Contains(got, `"rules": []`) {
					t.Errorf("results or rules are not []:\n%s", got)
				}
				validateSARIF(t, []byte(got))
			}
		})
	}
	// No files at all.
	if got, want := render(t, "text", Input{}), "✔ no problems in 0 files\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSummary(t *testing.T) {
	d := func(file string, s engine.Severity) engine.Diagnostic {
		return engine.Diagnostic{File: file, RuleID: "r", Severity: s, Message: "m", Line: 1, Column: 1}
	}
	tests := []struct {
		files []string
		ds    []engine.Diagnostic
		want  string
	}{
		{[]string{"a"}, nil, "✔ no problems in 1 file"},
		{[]string{"a"}, []engine.Diagnostic{d("a", engine.Error)}, "✖ 1 problem (1 error, 0 warnings, 0 infos) in 1 of 1 file"},
		{[]string{"a", "b"}, []engine.Diagnostic{d("a", engine.Warning), d("a", engine.Info)}, "✖ 2 problems (0 errors, 1 warning, 1 info) in 1 of 2 files"},
		{[]string{"a", "b"}, []engine.Diagnostic{d("a", engine.Error), d("b", engine.Error), d("b", engine.Warning), d("b", engine.Warning), d("b", engine.Info), d("b", engine.Info)},
			"✖ 6 problems (2 errors, 2 warnings, 2 infos) in 2 of 2 files"},
		// A file named only by a diagnostic is counted.
		{nil, []engine.Diagnostic{d("a", engine.Info)}, "✖ 1 problem (0 errors, 0 warnings, 1 info) in 1 of 1 file"},
	}
	for _, tt := range tests {
		got := render(t, "text", Input{Files: tt.files, Diagnostics: tt.ds})
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if last := lines[len(lines)-1]; last != tt.want {
			t.Errorf("summary = %q, want %q", last, tt.want)
		}
	}

	rule := d("a", engine.Error)
	rule.RuleError = true
	input := d("b", engine.Error)
	input.InputError = true
	got := render(t, "text", Input{Files: []string{"a", "b"}, Diagnostics: []engine.Diagnostic{rule, rule, input}})
	if want := "✖ 3 problems (3 errors, 0 warnings, 0 infos) in 2 of 2 files, including 2 rule errors and 1 input error\n"; !strings.HasSuffix(got, want) {
		t.Errorf("got %q, want it to end in %q", got, want)
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestTextColor(t *testing.T) {
	in := sampleInput()
	plain := render(t, "text", in)
	in.Color = true
	colored := render(t, "text", in)
	if !strings.Contains(colored, ansiRed) || !strings.Contains(colored, ansiYellow) || !strings.Contains(colored, ansiBlue) {
		t.Errorf("colour output lacks severity colours:\n%q", colored)
	}
	if strings.Contains(plain, "\x1b") {
		t.Errorf("plain output has escape sequences:\n%q", plain)
	}
	if got := ansi.ReplaceAllString(colored, ""); got != plain {
		t.Errorf("colour output without its colours differs from the plain output:\n%s", firstDiff(plain, got))
	}
}

func TestTextFrame(t *testing.T) {
	base := engine.Diagnostic{File: "a.json", RuleID: "r", Severity: engine.Warning, Message: "m", Pointer: "/x", Line: 2, Column: 3}
	src := map[string][]byte{"a.json": []byte("{\r\n\t\"x\": 1\r\n}")}
	tests := []struct {
		name    string
		d       func(engine.Diagnostic) engine.Diagnostic
		sources map[string][]byte
		want    string // the lines after the row
	}{
		{"tab and CRLF", func(d engine.Diagnostic) engine.Diagnostic { return d }, src,
			"    at /x\n    2 |     \"x\": 1\n      |      ^\n"},
		{"no source", func(d engine.Diagnostic) engine.Diagnostic { return d }, nil,
			"    at /x\n"},
		{"line out of range", func(d engine.Diagnostic) engine.Diagnostic { d.Line = 4; return d }, src,
			"    at /x\n"},
		{"no column", func(d engine.Diagnostic) engine.Diagnostic { d.Column = 0; return d }, src,
			"    at /x\n    2 |     \"x\": 1\n"},
		{"column past the end", func(d engine.Diagnostic) engine.Diagnostic { d.Line, d.Column = 3, 9; return d }, src,
			"    at /x\n    3 | }\n      |  ^\n"},
		{"root pointer", func(d engine.Diagnostic) engine.Diagnostic { d.Pointer, d.Line = "", 1; d.Column = 1; return d }, src,
			"    1 | {\n      | ^\n"},
	}
	for _, tt := range tests {
		got := render(t, "text", Input{Diagnostics: []engine.Diagnostic{tt.d(base)}, Sources: tt.sources})
		lines := strings.SplitAfter(got, "\n")
		// Header, row, frame..., blank line, summary.
		frame := strings.Join(lines[2:len(lines)-3], "")
		if frame != tt.want {
			t.Errorf("%s: frame = %q, want %q\nin %q", tt.name, frame, tt.want, got)
		}
	}
}

func TestExpandLine(t *testing.T) {
	tests := []struct {
		line   string
		column int
		text   string
		caret  int
	}{
		{"abc", 1, "abc", 0},
		{"abc", 3, "abc", 2},
		{"abc", 4, "abc", 3},
		{"abc", 10, "abc", 3},
		{"abc", 0, "abc", -1},
		{"héllo", 3, "héllo", 2},
		{"日本語x", 4, "日本語x", 3},
		{"\tx", 2, "    x", 4},
		{"ab\tx", 4, "ab  x", 4},
		{"a\x1b[31mb", 3, "a<U+001B>[31mb", 9},
		{"a\u202Eb", 3, "a<U+202E>b", 9},
		{"\u2066x\u2069", 3, "<U+2066>x<U+2069>", 9},
		{"a\u200Bb\u2028c", 5, "a<U+200B>b<U+2028>c", 18},
		{"a\rb", 3, "a<U+000D>b", 9},
	}
	for _, tt := range tests {
		text, caret := expandLine(tt.line, tt.column)
		if text != tt.text || caret != tt.caret {
			t.Errorf("expandLine(%q, %d) = %q, %d; want %q, %d", tt.line, tt.column, text, caret, tt.text, tt.caret)
		}
	}
}

func TestTextSanitizes(t *testing.T) {
	d := engine.Diagnostic{File: "a\x1b[2J.json", RuleID: "r", Severity: engine.Error, Message: "bad\nvalue \x1b[31mred", Line: 1, Column: 1}
	got := render(t, "text", Input{Diagnostics: []engine.Diagnostic{d}})
	if strings.Contains(got, "\x1b") {
		t.Errorf("escape sequence from the input reached the terminal: %q", got)
	}
	if !strings.Contains(got, "bad value <U+001B>[31mred") {
		t.Errorf("message not sanitized as expected: %q", got)
	}
}

func TestTextLabels(t *testing.T) {
	ds := []engine.Diagnostic{
		{File: "a", RuleID: "r1", Severity: engine.Error, Message: "boom", Line: 1, Column: 1, RuleError: true},
		{File: "a", RuleID: "r2", Severity: engine.Error, Message: "cost budget exceeded", Line: 2, Column: 1, RuleError: true},
		{File: "b", RuleID: "celint.input", Severity: engine.Error, Message: "unexpected end of JSON input", Line: 1, Column: 1, InputError: true},
	}
	got := render(t, "text", Input{Diagnostics: ds})
	for _, want := range []string{"error  rule error: boom  ", "error  rule error: cost budget exceeded  ", "error  input error: unexpected end of JSON input  celint.input"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "rule error: rule error") {
		t.Errorf("label doubled:\n%s", got)
	}
}

func TestJSONFields(t *testing.T) {
	var r struct {
		Version     int
		Tool        map[string]string
		Diagnostics []map[string]any
		Counts      map[string]int
	}
	if err := json.Unmarshal([]byte(render(t, "json", sampleInput())), &r); err != nil {
		t.Fatal(err)
	}
	if r.Version != 1 || r.Tool["name"] != "celint" || r.Tool["version"] != "0.1.0" {
		t.Errorf("version %d, tool %v", r.Version, r.Tool)
	}
	want := map[string]int{"errors": 2, "warnings": 1, "infos": 1, "ruleErrors": 1, "files": 3, "filesWithProblems": 2}
	if fmt.Sprint(r.Counts) != fmt.Sprint(want) {
		t.Errorf("counts = %v, want %v", r.Counts, want)
	}
	for i, d := range r.Diagnostics {
		for _, k := range []string{"file", "ruleId", "severity", "message", "pointer", "line", "column"} {
			if _, ok := d[k]; !ok {
				t.Errorf("diagnostic %d lacks %q", i, k)
			}
		}
		if _, ok := d["inputError"]; ok {
			t.Errorf("diagnostic %d has inputError though false", i)
		}
		if d["ruleId"] == "mcp.tool.input-schema" && d["ruleError"] != true {
			t.Errorf("rule error lacks ruleError: %v", d)
		}
	}
}

func TestGithubEscape(t *testing.T) {
	if got, want := githubEscapeData("50% done\r\nnext: a,b"), "50%25 done%0D%0Anext: a,b"; got != want {
		t.Errorf("data: got %q, want %q", got, want)
	}
	if got, want := githubEscapeProperty("C:\\dir,x/50%\n"), "C%3A\\dir%2Cx/50%25%0A"; got != want {
		t.Errorf("property: got %q, want %q", got, want)
	}
	d := engine.Diagnostic{File: "dir/a,b:c.json", RuleID: "x:y", Severity: engine.Info, Message: "line one\nline two 100%", Pointer: "/a~1b", Line: 3, Column: 7}
	if got, want := githubCommand(d), "::notice file=dir/a%2Cb%3Ac.json,line=3,col=7,title=x%3Ay::line one%0Aline two 100%25 (/a~1b)"; got != want {
		t.Errorf("command:\n got %q\nwant %q", got, want)
	}
	d = engine.Diagnostic{File: "a.json", RuleID: "celint.input", Severity: engine.Error, Message: "cannot read", InputError: true}
	if got, want := githubCommand(d), "::error file=a.json,title=celint.input (input error)::cannot read"; got != want {
		t.Errorf("command without position:\n got %q\nwant %q", got, want)
	}
}

func TestClipLongLines(t *testing.T) {
	long := strings.Repeat("a", 1000) + "X" + strings.Repeat("b", 1000)
	text, caret := clip(long, 1000)
	if n := len([]rune(text)); n > maxFrame+2 {
		t.Errorf("clipped line has %d code points", n)
	}
	if []rune(text)[caret] != 'X' {
		t.Errorf("caret at %d points at %q, want X", caret, string([]rune(text)[caret]))
	}
	if !strings.HasPrefix(text, "…") || !strings.HasSuffix(text, "…") {
		t.Errorf("cuts not marked: %q", text)
	}
	if got, c := clip("short", 2); got != "short" || c != 2 {
		t.Errorf("short line changed: %q %d", got, c)
	}
	text, caret = clip(long, 5)
	if []rune(text)[caret] != 'a' || strings.HasPrefix(text, "…") {
		t.Errorf("caret near the start: %q %d", text, caret)
	}
}

// TestTextFrameLongLine: on a minified document's one long line, each
// finding's frame shows the window around its column, with the caret under
// the column's character, whichever order the findings come in.
func TestTextFrameLongLine(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"a":[`)
	for i := 0; i < 20000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"é%05d"`, i) // a two-byte rune in every element
	}
	b.WriteString(`]}`)
	line := b.String()
	runes := []rune(line)
	src := map[string][]byte{"m.json": []byte(line)}
	for _, col := range []int{len(runes) - 3, 2, 70001, 1000, len(runes) + 5} {
		d := engine.Diagnostic{File: "m.json", RuleID: "r", Severity: engine.Error, Message: "m", Line: 1, Column: col}
		got := render(t, "text", Input{Diagnostics: []engine.Diagnostic{d}, Sources: src})
		lines := strings.Split(got, "\n")
		var text, caret string
		for i, l := range lines {
			if strings.HasPrefix(l, "    1 | ") {
				text, caret = strings.TrimPrefix(l, "    1 | "), strings.TrimPrefix(lines[i+1], "      | ")
			}
		}
		if n := utf8.RuneCountInString(text); n > maxFrame+2 {
			t.Errorf("column %d: frame of %d runes", col, n)
		}
		at := utf8.RuneCountInString(caret) - 1
		tr := []rune(text)
		want := ' '
		if col <= len(runes) {
			want = runes[col-1]
		}
		if at < 0 || at > len(tr) || at < len(tr) && tr[at] != want || at == len(tr) && col <= len(runes) {
			t.Errorf("column %d: caret at %d of %q, want under %q", col, at, text, want)
		}
		if col > 200 && !strings.HasPrefix(text, "…") {
			t.Errorf("column %d: the cut start is not marked: %q", col, text[:20])
		}
	}
}

// TestTextFrameLineBreaks checks that the loader's line:col and the code
// frame agree, as an editor shows the file, for LF, CRLF and lone CR line
// breaks in JSON and YAML: the frame shows the line of the error, with the
// caret under the offending character.
func TestTextFrameLineBreaks(t *testing.T) {
	for _, c := range []struct {
		file  string
		lines []string // the third line holds the error, at "?"
		pos   string
	}{
		{"a.json", []string{"{", `  "a": 1,`, `  "b": ?`, "}"}, "3:8"},
		{"a.yaml", []string{"a: 1", "b: 2", "c: [1, ?]"}, "3:8"},
	} {
		for _, nl := range []struct{ name, s string }{{"LF", "\n"}, {"CRLF", "\r\n"}, {"CR", "\r"}} {
			src := []byte(strings.Join(c.lines, nl.s) + nl.s)
			if c.file == "a.yaml" {
				// A YAML syntax error without a column: use a limit instead.
				src = bytes.Replace(src, []byte("?"), []byte("3"), 1)
			}
			opts := loader.DefaultOptions()
			if c.file == "a.yaml" {
				opts.Limits.Values = 5
			}
			_, err := loader.Parse(c.file, src, opts)
			var e *loader.Error
			if !errors.As(err, &e) {
				t.Fatalf("%s %s: %v", c.file, nl.name, err)
			}
			if e.Pos.String() != c.pos {
				t.Errorf("%s %s: error at %v, want %s (%v)", c.file, nl.name, e.Pos, c.pos, err)
			}
			d := engine.Diagnostic{File: c.file, RuleID: "r", Severity: engine.Error, Message: "m", Line: int(e.Pos.Line), Column: int(e.Pos.Col)}
			got := render(t, "text", Input{Diagnostics: []engine.Diagnostic{d}, Sources: map[string][]byte{c.file: src}})
			line := c.lines[2]
			if c.file == "a.yaml" {
				line = strings.Replace(line, "?", "3", 1)
			}
			want := "    3 | " + line + "\n      | " + strings.Repeat(" ", int(e.Pos.Col)-1) + "^\n"
			if !strings.Contains(got, want) {
				t.Errorf("%s %s: frame not found: want %q in\n%s", c.file, nl.name, want, got)
			}
		}
	}
}

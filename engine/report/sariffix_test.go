package report

import (
	"encoding/json"
	"math"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// sarifFixLog is what a test reads of a SARIF log: the results and their
// fixes.
type sarifFixLog struct {
	Runs []struct {
		ColumnKind string
		Results    []struct {
			RuleID    string
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI, URIBaseID string }
				}
			}
			Fixes []struct {
				Description     struct{ Text string }
				ArtifactChanges []struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Replacements     []sarifTestReplacement
				}
			}
		}
	}
}

type sarifTestReplacement struct {
	DeletedRegion struct {
		StartLine, StartColumn, EndLine, EndColumn int
		CharOffset, CharLength                     *int
	}
	InsertedContent *struct{ Text string }
}

// readFixLog decodes a SARIF log with its fixes.
func readFixLog(t *testing.T, out string) sarifFixLog {
	t.Helper()
	var log sarifFixLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || log.Runs[0].ColumnKind != "unicodeCodePoints" {
		t.Fatalf("runs %+v", log.Runs)
	}
	return log
}

// lineStarts are the code-point offsets where the lines of text start,
// lines ending at "\r\n", a lone '\r' or '\n' (as SARIF and the loader
// count them), worked out on the code points, apart from the printer.
func lineStarts(text []rune) []int {
	starts := []int{0}
	for i, r := range text {
		if r == '\n' || r == '\r' && (i+1 == len(text) || text[i+1] != '\n') {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// applySARIF makes the replacements of a fix on src, all referring to src,
// once by charOffset and charLength and once by lines and columns, and
// checks that both ways name the same regions, in order, none
// overlapping. It returns the result.
func applySARIF(t *testing.T, src string, reps []sarifTestReplacement) string {
	t.Helper()
	text := []rune(src)
	starts := lineStarts(text)
	at := func(line, col int) int {
		if line < 1 || line > len(starts) || col < 1 {
			t.Fatalf("position %d:%d is not in the file", line, col)
		}
		off := starts[line-1] + col - 1
		if off > len(text) || line < len(starts) && off >= starts[line] {
			t.Fatalf("position %d:%d is past the end of its line", line, col)
		}
		return off
	}
	var out []rune
	last := 0
	for i, r := range reps {
		reg := r.DeletedRegion
		if reg.CharOffset == nil || reg.CharLength == nil || r.InsertedContent == nil {
			t.Fatalf("replacement %d: charOffset, charLength or insertedContent missing: %+v", i, r)
		}
		start, end := at(reg.StartLine, reg.StartColumn), at(reg.EndLine, reg.EndColumn)
		if start != *reg.CharOffset || end-start != *reg.CharLength {
			t.Fatalf("replacement %d: lines and columns %d:%d-%d:%d are characters %d-%d, charOffset %d charLength %d",
				i, reg.StartLine, reg.StartColumn, reg.EndLine, reg.EndColumn, start, end, *reg.CharOffset, *reg.CharLength)
		}
		if start < last || end < start {
			t.Fatalf("replacement %d (%d-%d) overlaps the one before it or is out of order (up to %d)", i, start, end, last)
		}
		out = append(out, text[last:start]...)
		out = append(out, []rune(r.InsertedContent.Text)...)
		last = end
	}
	return string(append(out, text[last:]...))
}

// TestSARIFFixReplacements: the fix of a result, its replacements made
// on the original source (by character offsets, and by lines and columns),
// gives the source loader.Edits makes, for YAML and JSON documents with
// comments, non-ASCII text, multi-line values and "\r\n" line breaks; a
// fix whose edits are in separate places has a replacement for each.
func TestSARIFFixReplacements(t *testing.T) {
	tests := []struct {
		name, file, src string
		edits           []loader.Edit
		replacements    int // how many replacements the fix has; 0: any
	}{
		{
			name: "yaml comments kept", file: "a.yaml",
			src:          "# a server\nname: old-name # the name\nversion: 1.0.0\n",
			edits:        []loader.Edit{{Op: loader.Replace, Pointer: "/name", Value: "new-name"}},
			replacements: 1,
		},
		{
			name: "yaml non-ASCII before the edit on its line", file: "a.yaml",
			src:          "title: \"🙂 café\" # ✓ déjà\ntags: [α, β, γ] # 日本語\nend: true\n",
			edits:        []loader.Edit{{Op: loader.Remove, Pointer: "/tags/1"}},
			replacements: 1,
		},
		{
			name: "yaml a shared lead byte", file: "a.yaml",
			src:          "a: é1\nb: x\n",
			edits:        []loader.Edit{{Op: loader.Replace, Pointer: "/a", Value: "è1"}},
			replacements: 1,
		},
		{
			name: "yaml block sequence item removed", file: "a.yaml",
			src:          "tools:\n  - name: a # first\n    description: Ä\n  - name: b\n    description: B\n  - name: c\n",
			edits:        []loader.Edit{{Op: loader.Remove, Pointer: "/tools/1"}},
			replacements: 1,
		},
		{
			name: "yaml member added to a nested mapping", file: "a.yaml",
			src:   "tools:\n  - name: ñandú\n    inputSchema:\n      type: object\n# trailing comment\n",
			edits: []loader.Edit{{Op: loader.Add, Pointer: "/tools/0/description", Value: "Ünïcödé\nzwei Zeilen"}},
		},
		{
			name: "yaml block scalar replaced", file: "a.yaml",
			src:   "description: |\n  line one\n  line two\nname: x\n",
			edits: []loader.Edit{{Op: loader.Replace, Pointer: "/description", Value: "one line"}},
		},
		{
			name: "yaml crlf", file: "a.yaml",
			src:          "a: 1\r\nb: 2\r\nc: 3\r\n",
			edits:        []loader.Edit{{Op: loader.Replace, Pointer: "/b", Value: 20}},
			replacements: 1,
		},
		{
			name: "yaml lone cr", file: "a.yaml",
			src:   "a: 1\rb: é\rc: 3\r",
			edits: []loader.Edit{{Op: loader.Replace, Pointer: "/c", Value: "ü"}},
		},
		{
			name: "yaml edits far apart", file: "a.yaml",
			src: "first: 1 # één\nmiddle:\n  - x\n  - y\n  - z\nlast: 2 # ✓\n",
			edits: []loader.Edit{
				{Op: loader.Replace, Pointer: "/first", Value: 10},
				{Op: loader.Replace, Pointer: "/last", Value: "twenty"},
			},
			replacements: 2,
		},
		{
			name: "yaml key renamed", file: "a.yaml",
			src:          "tools:\n  - nmae: t # typo\n    description: d\n",
			edits:        []loader.Edit{{Op: loader.Move, From: "/tools/0/nmae", Pointer: "/tools/0/name"}},
			replacements: 1,
		},
		{
			name: "json indented, edits far apart", file: "a.json",
			src: "{\n  \"name\": \"Wéather\",\n  \"tags\": [\n    \"a\",\n    \"b\",\n    \"c\"\n  ],\n  \"version\": \"1.0\"\n}\n",
			edits: []loader.Edit{
				{Op: loader.Remove, Pointer: "/tags/1"},
				{Op: loader.Replace, Pointer: "/version", Value: "1.0.0"},
			},
			replacements: 2,
		},
		{
			name: "json member added, multi-line value", file: "a.json",
			src:   "{\n\t\"tools\": [\n\t\t{\"name\": \"😀\"}\n\t]\n}\n",
			edits: []loader.Edit{{Op: loader.Add, Pointer: "/info", Value: map[string]any{"name": "ß", "version": "1.0.0"}}},
		},
		{
			name: "json on one line", file: "a.json",
			src:   `{"a": "é", "b": [1, 2, 3], "c": {"d": "ü"}}`,
			edits: []loader.Edit{{Op: loader.Remove, Pointer: "/b/0"}, {Op: loader.Replace, Pointer: "/c/d", Value: "ö"}},
		},
		{
			name: "json crlf", file: "a.json",
			src:          "{\r\n  \"a\": \"x\",\r\n  \"b\": \"y\"\r\n}\r\n",
			edits:        []loader.Edit{{Op: loader.Remove, Pointer: "/b"}},
			replacements: 1,
		},
		{
			name: "json whole document", file: "a.json",
			src:   "{\"a\": 1}\n",
			edits: []loader.Edit{{Op: loader.Replace, Pointer: "", Value: map[string]any{"b": "ç"}}},
		},
	}
	sch := compileSARIFSchema(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := loader.DefaultOptions()
			want, err := loader.Edits(tc.file, []byte(tc.src), opts, tc.edits)
			if err != nil {
				t.Fatalf("the edits cannot be made: %v", err)
			}
			d := engine.Diagnostic{File: tc.file, RuleID: "r", Severity: engine.Warning, Message: "m", Pointer: tc.edits[0].Pointer, Line: 1, Column: 1, Fix: tc.edits}
			in := Input{
				Diagnostics: []engine.Diagnostic{d},
				Files:       []string{tc.file},
				Sources:     map[string][]byte{tc.file: []byte(tc.src)},
				LoadOptions: map[string]loader.Options{tc.file: opts},
			}
			out := render(t, "sarif", in)
			if err := validateSARIFWith(sch, []byte(out)); err != nil {
				t.Errorf("not valid SARIF 2.1.0: %v", err)
			}
			log := readFixLog(t, out)
			res := log.Runs[0].Results
			if len(res) != 1 || len(res[0].Fixes) != 1 || len(res[0].Fixes[0].ArtifactChanges) != 1 {
				t.Fatalf("want one result with one fix of one artifact:\n%s", out)
			}
			change := res[0].Fixes[0].ArtifactChanges[0]
			if change.ArtifactLocation != res[0].Locations[0].PhysicalLocation.ArtifactLocation {
				t.Errorf("the fix changes %+v, the result is in %+v", change.ArtifactLocation, res[0].Locations[0].PhysicalLocation.ArtifactLocation)
			}
			if got := applySARIF(t, tc.src, change.Replacements); got != string(want) {
				t.Errorf("the replacements give\n%q\nwant\n%q", got, want)
			}
			if n := len(change.Replacements); tc.replacements > 0 && n != tc.replacements {
				t.Errorf("%d replacements, want %d: %+v", n, tc.replacements, change.Replacements)
			}
		})
	}
}

// TestTextChanges: for pairs of texts with non-ASCII characters and the
// three line breaks, the changes textChanges finds turn the first into
// the second, in order and without overlapping, and none of their ends
// falls inside a character or a "\r\n".
func TestTextChanges(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	pieces := []string{"a", "b", "é", "è", "日", "🙂", "\n", "\r\n", "\r", " ", "x: 1\n", "- y\n", "# ✓\n"}
	random := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[rnd.Intn(len(pieces))])
		}
		return b.String()
	}
	mutate := func(s string) string {
		for range 1 + rnd.Intn(3) {
			i := rnd.Intn(len(s) + 1)
			for i < len(s) && !utf8.RuneStart(s[i]) {
				i++
			}
			j := i + rnd.Intn(4)
			for j < len(s) && !utf8.RuneStart(s[j]) {
				j++
			}
			s = s[:i] + random(rnd.Intn(3)) + s[min(j, len(s)):]
		}
		return s
	}
	for n := range 3000 {
		old := random(1 + rnd.Intn(40))
		new := mutate(old)
		changes := textChanges([]byte(old), []byte(new))
		if got := string(applyChanges([]byte(old), changes)); got != new {
			t.Fatalf("%d: %q to %q: the changes %+v give %q", n, old, new, changes, got)
		}
		if old == new && len(changes) != 0 {
			t.Fatalf("%d: changes %+v for equal texts", n, changes)
		}
		for i, c := range changes {
			if i > 0 && c.start <= changes[i-1].end {
				t.Fatalf("%d: %q to %q: changes %+v overlap or touch", n, old, new, changes)
			}
			if splits([]byte(old), c.start) || splits([]byte(old), c.end) || !utf8.ValidString(c.text) {
				t.Fatalf("%d: %q to %q: change %+v splits a character or a line break", n, old, new, c)
			}
		}
	}
}

// TestSARIFFixLeftOut: a finding whose fix cannot be made (loader.Edits
// refuses it, or the source is unknown or is not the document) is a
// result without fixes; nothing panics.
func TestSARIFFixLeftOut(t *testing.T) {
	const src = "{\n  \"a\": [1, 2],\n  \"b\": \"x\"\n}\n"
	tests := []struct {
		name   string
		source []byte
		edits  []loader.Edit
	}{
		{"no such member", []byte(src), []loader.Edit{{Op: loader.Replace, Pointer: "/nope/0", Value: 1}}},
		{"no such item", []byte(src), []loader.Edit{{Op: loader.Remove, Pointer: "/a/7"}}},
		{"malformed pointer", []byte(src), []loader.Edit{{Op: loader.Remove, Pointer: "a"}}},
		{"add over a member", []byte(src), []loader.Edit{{Op: loader.Add, Pointer: "/b", Value: 1}}},
		{"a value JSON has not", []byte(src), []loader.Edit{{Op: loader.Replace, Pointer: "/b", Value: math.NaN()}}},
		{"a value that is no value", []byte(src), []loader.Edit{{Op: loader.Replace, Pointer: "/b", Value: func() {}}}},
		{"move onto itself", []byte(src), []loader.Edit{{Op: loader.Move, From: "/b", Pointer: "/b"}}},
		{"the second edit refused", []byte(src), []loader.Edit{{Op: loader.Remove, Pointer: "/b"}, {Op: loader.Remove, Pointer: "/b"}}},
		{"a change that changes nothing", []byte(src), []loader.Edit{{Op: loader.Replace, Pointer: "/b", Value: "x"}}},
		{"no source", nil, []loader.Edit{{Op: loader.Remove, Pointer: "/b"}}},
		{"a source that does not parse", []byte("{\"a\": [1, 2,]}"), []loader.Edit{{Op: loader.Remove, Pointer: "/a"}}},
		{"a source that is not UTF-8", []byte("{\"a\": \"\xff\"}"), []loader.Edit{{Op: loader.Remove, Pointer: "/a"}}},
	}
	sch := compileSARIFSchema(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{
				Diagnostics: []engine.Diagnostic{
					{File: "a.json", RuleID: "r", Severity: engine.Error, Message: "m", Pointer: "/b", Line: 3, Column: 3, Fix: tc.edits},
					{File: "a.json", RuleID: "s", Severity: engine.Error, Message: "m", Pointer: "/b", Line: 3, Column: 3,
						Fix: []loader.Edit{{Op: loader.Replace, Pointer: "/b", Value: "y"}}},
				},
				Files:   []string{"a.json"},
				Sources: map[string][]byte{"a.json": tc.source},
			}
			out := render(t, "sarif", in)
			if err := validateSARIFWith(sch, []byte(out)); err != nil {
				t.Errorf("not valid SARIF 2.1.0: %v", err)
			}
			res := readFixLog(t, out).Runs[0].Results
			if len(res) != 2 || res[0].RuleID != "r" || len(res[0].Fixes) != 0 {
				t.Fatalf("want the result of r without fixes:\n%s", out)
			}
			// The other finding of the file keeps its fix, when the
			// source is there to make it.
			if fixable := tc.source != nil && strings.HasPrefix(string(tc.source), src); fixable != (len(res[1].Fixes) == 1) {
				t.Errorf("the fix of the other finding: %d fixes\n%s", len(res[1].Fixes), out)
			}
		})
	}
}

// TestSARIFFixBudget: the fixes of a file are made while the sizes of
// the source they read add up to the budget, in the order of the
// results: a file larger than sarifFixBytes gets none (and is not read),
// a smaller one gets as many as the budget holds.
func TestSARIFFixBudget(t *testing.T) {
	big := []byte("{\"a\": \"" + strings.Repeat("x", sarifFixBytes) + "\", \"b\": 1}\n")
	d := engine.Diagnostic{File: "big.json", RuleID: "r", Severity: engine.Error, Message: "m", Pointer: "/b", Line: 1, Column: 2,
		Fix: []loader.Edit{{Op: loader.Replace, Pointer: "/b", Value: 2}}}
	in := Input{Diagnostics: []engine.Diagnostic{d}, Files: []string{"big.json"}, Sources: map[string][]byte{"big.json": big}}
	if res := readFixLog(t, render(t, "sarif", in)).Runs[0].Results; len(res) != 1 || len(res[0].Fixes) != 0 {
		t.Errorf("a file of %d bytes has fixes: %+v", len(big), res)
	}

	src := []byte("{\"a\": 1, \"b\": 2, \"c\": 3}\n")
	fx := fixer{name: "small.json", src: src, budget: 2*len(src) + 1}
	var made int
	for _, p := range []string{"/a", "/nope", "/b", "/c"} {
		d := engine.Diagnostic{File: "small.json", RuleID: "r", Line: 1, Column: 2, Fix: []loader.Edit{{Op: loader.Remove, Pointer: p}}}
		if fx.fix(d) != nil {
			made++
		}
	}
	// The refused fix at /nope counts: it read the file.
	if made != 1 {
		t.Errorf("%d fixes made within a budget of two, want 1 (the first, the second refused)", made)
	}
}

// TestSARIFFixDescription: a fix's description names its edits, at most
// fixDescribed of them, and shortens long pointers.
func TestSARIFFixDescription(t *testing.T) {
	long := "/" + strings.Repeat("é", fixPointerBytes)
	tests := []struct {
		edits []loader.Edit
		want  string
	}{
		{[]loader.Edit{{Op: loader.Remove, Pointer: "/tags/1"}}, "Remove /tags/1"},
		{[]loader.Edit{{Op: loader.Replace, Pointer: ""}}, "Replace the whole document"},
		{[]loader.Edit{{Op: loader.Move, From: "/a/nmae", Pointer: "/a/name"}, {Op: loader.Add, Pointer: "/a/b"}}, "Move /a/nmae to /a/name; add /a/b"},
		{[]loader.Edit{{Op: loader.Remove, Pointer: "/a"}, {Op: loader.Remove, Pointer: "/b"}, {Op: loader.Remove, Pointer: "/c"}, {Op: loader.Remove, Pointer: "/d"}, {Op: loader.Remove, Pointer: "/e"}},
			"Remove /a; remove /b; remove /c; and 2 more edits"},
		{[]loader.Edit{{Op: loader.Replace, Pointer: long}}, "Replace " + long[:fixPointerBytes-1] + "…"},
	}
	for _, tt := range tests {
		if got := fixDescription(tt.edits); got != tt.want {
			t.Errorf("fixDescription(%+v) = %q, want %q", tt.edits, got, tt.want)
		}
	}
}

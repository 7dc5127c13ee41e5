package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
)

// hostileText is text from a document, a file name or a rule file that
// tries to act on a terminal or a CI log.
var hostileText = []struct {
	name, text, shown string // shown: how the text format shows it within a line
}{
	{"workflow command", "::error title=Security alert::Your PAT leaked", "::error title=Security alert::Your PAT leaked"},
	{"indented workflow command", "\u00a0 ::warning::x", "\u00a0 ::warning::x"},
	{"legacy command", "a ##[error]forged", "a #<U+0023>[error]forged"},
	{"clear screen", "\x1b[2J\x1b[H", "<U+001B>[2J<U+001B>[H"},
	{"OSC title and BEL", "\x1b]0;pwned\x07", "<U+001B>]0;pwned<U+0007>"},
	{"DEL and C1 CSI", "x\x7f\u009b31m", "x<U+007F><U+009B>31m"},
	{"right-to-left override", "access\u202E\u2066 level\u2069\u2066", "access<U+202E><U+2066> level<U+2069><U+2066>"},
	{"zero-width", "pass\u200Bword\u200C\u200D\u200E\u200F", "pass<U+200B>word<U+200C><U+200D><U+200E><U+200F>"},
	{"line separators", "one\u2028two\u2029", "one<U+2028>two<U+2029>"},
}

// checkHumanOutput fails t when out, an output for people, carries a raw
// hidden character or a line a CI runner would read as a command.
func checkHumanOutput(t *testing.T, what, out string, allowCommands bool) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && safetext.Hidden(r) {
			t.Errorf("%s: raw %U reached the output:\n%q", what, r, out)
		}
	}
	if allowCommands {
		return
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " \t\u00a0"), "::") || strings.Contains(l, "##[") {
			t.Errorf("%s: line is a workflow command: %q", what, l)
		}
	}
}

// TestTextHostile: hostile text in a file name, a message, a rule id, a
// pointer or a source line reaches the text format visibly escaped, and no
// line it prints starts with "::".
func TestTextHostile(t *testing.T) {
	for _, tc := range hostileText {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.text + ".json"
			d := engine.Diagnostic{File: file, RuleID: "r", Severity: engine.Error, Message: "bad " + tc.text,
				Pointer: "/" + tc.text, Line: 1, Column: 2, Related: []engine.Related{{Message: tc.text, Pointer: "/x", Line: 1, Column: 1}}}
			in := Input{Diagnostics: []engine.Diagnostic{d}, Files: []string{file},
				Sources: map[string][]byte{file: []byte("\"" + tc.text + "\"\n")}}
			got := render(t, "text", in)
			checkHumanOutput(t, "text", got, false)
			lines := strings.Split(got, "\n")
			if tc.text[0] == ':' && lines[0] != "./"+tc.text+".json" {
				t.Errorf("header = %q, want %q", lines[0], "./"+tc.text+".json")
			}
			for _, want := range []string{"bad " + tc.shown, "at /" + tc.shown, `1 | "` + tc.shown + `"`} {
				if !strings.Contains(got, want) {
					t.Errorf("output lacks %q:\n%s", want, got)
				}
			}
			in.Color = true
			checkHumanOutput(t, "text with colour", ansi.ReplaceAllString(render(t, "text", in), ""), false)
		})
	}
}

// TestGithubHostile: the github format prints one command a line, celint's
// own, with ESC, DEL, C1, bidi and invisible characters of every field
// escaped.
func TestGithubHostile(t *testing.T) {
	for _, tc := range hostileText {
		t.Run(tc.name, func(t *testing.T) {
			d := engine.Diagnostic{File: tc.text + ".json", RuleID: "r", Code: "c", Severity: engine.Warning,
				Message: tc.text + "\nsecond " + tc.text, Pointer: "/" + tc.text, Line: 1, Column: 2}
			got := render(t, "github", Input{Diagnostics: []engine.Diagnostic{d, d}})
			checkHumanOutput(t, "github", got, true)
			lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("got %d lines, want 2:\n%s", len(lines), got)
			}
			for _, l := range lines {
				// "##[" may stay: the runner reads a line that starts with a
				// command of its own as that command alone.
				if !strings.HasPrefix(l, "::warning file=") || strings.Count(l, "::") < 2 {
					t.Errorf("line is not celint's command: %q", l)
				}
			}
		})
	}
}

// TestJSONHostile: the json, jsonl, sarif and codequality formats keep the original
// text — the output decodes to the very strings given — while no raw
// character a terminal acts on, nor "##[", is printed.
func TestJSONHostile(t *testing.T) {
	for _, tc := range hostileText {
		for _, format := range []string{"json", "jsonl", "sarif", "codequality"} {
			t.Run(format+"/"+tc.name, func(t *testing.T) {
				d := engine.Diagnostic{File: "a.json", RuleID: "r", Severity: engine.Error, Message: tc.text, Pointer: "/x", Line: 1, Column: 1}
				in := Input{Diagnostics: []engine.Diagnostic{d}, Rules: []Rule{{ID: "r", Title: tc.text, Description: tc.text, Severity: engine.Error}}}
				got := render(t, format, in)
				checkHumanOutput(t, format, got, false)
				docs := []string{got}
				if format == "jsonl" {
					docs = strings.Split(strings.TrimSuffix(got, "\n"), "\n")
				}
				var v []any
				for _, doc := range docs {
					if !json.Valid([]byte(doc)) {
						t.Fatalf("not valid JSON:\n%s", doc)
					}
					var x any
					_ = json.Unmarshal([]byte(doc), &x)
					v = append(v, x)
				}
				if n := countString(v, tc.text); n == 0 {
					t.Errorf("the original text %q is not in the output:\n%s", tc.text, got)
				}
			})
		}
	}
}

// countString counts the strings equal to s in a decoded JSON value.
func countString(v any, s string) int {
	switch v := v.(type) {
	case string:
		if v == s {
			return 1
		}
	case []any:
		n := 0
		for _, e := range v {
			n += countString(e, s)
		}
		return n
	case map[string]any:
		n := 0
		for _, e := range v {
			n += countString(e, s)
		}
		return n
	}
	return 0
}

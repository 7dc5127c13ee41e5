package ruledoc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/loader"
)

// TestHostileRuleText: escape sequences, bidi and invisible characters in
// a rule's metadata, its ruleset's title, its source text and its example
// reach neither `explain` nor the Markdown pages raw; they are shown
// escaped, and no line of `explain` starts a workflow command.
func TestHostileRuleText(t *testing.T) {
	for _, tc := range []struct{ name, text, shown string }{
		{"clear screen", "\x1b[2J\x1b[H", "<U+001B>[2J<U+001B>[H"},
		{"OSC and BEL", "\x1b]0;pwned\x07", "<U+001B>]0;pwned<U+0007>"},
		{"C1 and DEL", "\u009b31m\x7f", "<U+009B>31m<U+007F>"},
		{"bidi", "ok\u202E\u2066evil\u2069", "ok<U+202E><U+2066>evil<U+2069>"},
		{"invisible", "a\u200Bb\u200D\u2028c\u2029d", "a<U+200B>b<U+200D><U+2028>c<U+2029>d"},
		{"workflow command", "::error title=Security alert::forged", "::error title=Security alert::forged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, _ := json.Marshal(tc.text)
			inline, err := loader.Parse("inline.json", []byte(`{"k": `+string(k)+`}`), loader.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			rs, r := testRuleset(t, loader.ExamplesSpec{Invalid: []loader.ExampleSpec{{Title: tc.text, Document: inline.Root}}})
			rs.Title = tc.text
			r.Doc.Title = tc.text
			r.Doc.Description = tc.text + " described.\n\n" + tc.text + " again."
			r.Doc.Requirement = tc.text
			r.Doc.Surface = tc.text
			r.Doc.Owner = tc.text
			r.Doc.Aliases = []string{tc.text}
			r.Doc.RequiredBy = []loader.RequiredBy{{Document: tc.text, Section: "1", Quote: tc.text, Requirements: []string{tc.text}}}
			r.Doc.BasedOn = []loader.BasedOn{{Title: tc.text, Note: tc.text, Sources: []string{tc.text}}}
			r.Text = []byte("rules:\n  - id: t.rule\n    title: \"" + tc.text + "\"\n    given: x\n")

			text, err := Text(rs, r)
			if err != nil {
				t.Fatal(err)
			}
			page, err := Page(rs, r)
			if err != nil {
				t.Fatal(err)
			}
			for what, out := range map[string]string{"explain": string(text), "page": string(page), "index": string(Index(rs))} {
				for _, c := range out {
					if c != '\n' && safetext.Hidden(c) {
						t.Errorf("%s: raw %U:\n%q", what, c, out)
					}
				}
			}
			for _, l := range strings.Split(string(text), "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "::") {
					t.Errorf("explain: line is a workflow command: %q", l)
				}
			}
			if !strings.Contains(string(text), `title: "`+tc.shown+`"`) {
				t.Errorf("explain lacks the escaped source %q:\n%s", tc.shown, text)
			}
			if tc.text[0] != ':' && !strings.Contains(string(text), "\n"+tc.shown+"\n") {
				t.Errorf("explain lacks the escaped title %q:\n%s", tc.shown, text)
			}
		})
	}
}

// TestWriteAllRefusesLinks: a page path that is a symbolic link (a docs
// folder from a pull request) is refused with an error naming it; the file
// the link points to is untouched.
func TestWriteAllRefusesLinks(t *testing.T) {
	rs := seedRuleset(t)
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, "0.9.0-rc.3", "mcpdesc", "index.md")
	if err := os.MkdirAll(filepath.Dir(index), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, index); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if _, err := WriteAll(rs, dir); err == nil || !strings.Contains(err.Error(), index+": cannot write over a symbolic link") {
		t.Errorf("WriteAll: %v, want an error naming %s", err, index)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep me" {
		t.Errorf("the link's target was written: %q", data)
	}
}

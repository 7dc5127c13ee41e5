package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/celint/celint/engine"
)

// suppressedInput is sampleInput with two suppressed findings: one a
// suppression comment hides, one a baseline hides.
func suppressedInput() Input {
	in := sampleInput()
	in.Suppressed = []Suppressed{
		{Diagnostic: engine.Diagnostic{File: "servers/my tools.yaml", RuleID: "mcp.tool.unused", Severity: engine.Warning,
			Message: "tool lookup is never used", Pointer: "/tools/0/name", Line: 3, Column: 11}, Kind: InSource},
		{Diagnostic: engine.Diagnostic{File: "servers/weather.json", RuleID: "mcp.tool.description", Code: "short", Severity: engine.Warning,
			Message: "tool description is short", Pointer: "/tools/get~1forecast", Line: 5, Column: 5}, Kind: External},
	}
	return in
}

// TestSuppressedGolden: the sarif log of a run that shows suppressed
// findings has them as results in report order, with suppressions of
// kind inSource and external, and is valid SARIF.
func TestSuppressedGolden(t *testing.T) {
	got := render(t, "sarif", suppressedInput())
	validateSARIF(t, []byte(got))
	path := filepath.Join("testdata", "golden-suppressed.sarif")
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
		t.Errorf("differs from %s (go test -update rewrites it):\n%s", path, firstDiff(string(want), got))
	}

	var log struct {
		Runs []struct {
			Results []struct {
				RuleID       string
				Suppressions []struct{ Kind string }
			}
		}
	}
	if err := json.Unmarshal([]byte(got), &log); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, r := range log.Runs[0].Results {
		switch len(r.Suppressions) {
		case 0:
		case 1:
			kinds[r.RuleID] = r.Suppressions[0].Kind
		default:
			t.Errorf("%s: %d suppressions, want 1", r.RuleID, len(r.Suppressions))
		}
	}
	if want := map[string]string{"mcp.tool.unused": "inSource", "mcp.tool.description": "external"}; len(kinds) != 2 ||
		kinds["mcp.tool.unused"] != want["mcp.tool.unused"] || kinds["mcp.tool.description"] != want["mcp.tool.description"] {
		t.Errorf("suppressions by rule %v, want %v", kinds, want)
	}
	if n := len(log.Runs[0].Results); n != 6 {
		t.Errorf("%d results, want the 4 findings and the 2 suppressed", n)
	}

	// Streamed a file at a time, as celint check writes it: the same log.
	in := suppressedInput()
	var buf bytes.Buffer
	s, err := NewStream("sarif", &buf, Input{ToolVersion: in.ToolVersion})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"servers/clean.json", "servers/my tools.yaml", "servers/weather.json"} {
		f := File{Name: name, Checked: true, Source: in.Sources[name], Rulesets: in.Rulesets[name]}
		if opts, ok := in.LoadOptions[name]; ok {
			f.LoadOptions = &opts
		}
		for _, d := range in.Diagnostics {
			if d.File == name {
				f.Diagnostics = append(f.Diagnostics, d)
			}
		}
		for _, sd := range in.Suppressed {
			if sd.File == name {
				f.Suppressed = append(f.Suppressed, sd)
			}
		}
		if err := s.File(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(in.Rules); err != nil {
		t.Fatal(err)
	}
	if buf.String() != got {
		t.Errorf("the stream differs from Print:\n%s", firstDiff(got, buf.String()))
	}
}

// TestSuppressedLeftOut: every format but sarif prints the same with the
// suppressed findings as without them, streamed or not, and so does
// sarif when there are none: the default output of no format changes.
func TestSuppressedLeftOut(t *testing.T) {
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			plain := render(t, format, sampleInput())
			with := render(t, format, suppressedInput())
			if format == "sarif" {
				if with == plain {
					t.Error("sarif does not show the suppressed findings")
				}
				want, err := os.ReadFile(filepath.Join("testdata", "golden.sarif"))
				if err != nil {
					t.Fatal(err)
				}
				if plain != string(want) {
					t.Errorf("sarif without suppressed findings differs from golden.sarif:\n%s", firstDiff(string(want), plain))
				}
				return
			}
			if with != plain {
				t.Errorf("the suppressed findings change the output:\n%s", firstDiff(plain, with))
			}
		})
	}
}

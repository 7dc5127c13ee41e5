package report

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/celint/celint/engine"
)

// TestSARIFHelp: a rule's Help becomes its help.text and help.markdown in
// the sarif format, hostile text included, the log valid; a rule whose
// Help fails has no help; and no other format calls Help.
func TestSARIFHelp(t *testing.T) {
	called := 0
	in := Input{
		Diagnostics: []engine.Diagnostic{{File: "a.json", RuleID: "r", Severity: engine.Error, Message: "m", Line: 1, Column: 1}},
		Rules: []Rule{
			{ID: "r", Severity: engine.Error, Help: func() (string, string, error) {
				called++
				return "r (must)\n::error::forged\x1b[2J", "# R\n\n**Must.** \u202e", nil
			}},
			{ID: "s", Severity: engine.Warning, Help: func() (string, string, error) { return "", "", errors.New("no fixture") }},
		},
	}
	for _, format := range Formats() {
		if format != "sarif" {
			render(t, format, in)
		}
	}
	if called != 0 {
		t.Errorf("Help called %d times by formats other than sarif", called)
	}
	out := render(t, "sarif", in)
	validateSARIF(t, []byte(out))
	checkHumanOutput(t, "sarif", out, false)
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID   string
						Help *struct{ Text, Markdown string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	rules := log.Runs[0].Tool.Driver.Rules
	if len(rules) != 2 || rules[0].Help == nil || rules[1].Help != nil {
		t.Fatalf("rules %+v, want r with help and s without", rules)
	}
	if h := rules[0].Help; h.Text != "r (must)\n::error::forged\x1b[2J" || h.Markdown != "# R\n\n**Must.** \u202e" {
		t.Errorf("help %+v is not the rule's", *h)
	}
	if called != 1 {
		t.Errorf("Help called %d times, want once", called)
	}
}

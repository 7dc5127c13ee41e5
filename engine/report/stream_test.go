package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
)

// TestStreamWritesAsFilesCome: the text, jsonl, github and codequality
// streams write a file's part when it is given, before the next file; json
// and sarif, single documents, write nothing until the report closes.
// Every stream writes what Print writes for the same input.
func TestStreamWritesAsFilesCome(t *testing.T) {
	in := sampleInput()
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			s, err := NewStream(format, &buf, Input{ToolVersion: in.ToolVersion})
			if err != nil {
				t.Fatal(err)
			}
			groups := groupByFile(in.Diagnostics)
			for i, group := range groups {
				before := buf.Len()
				opts := in.LoadOptions[group[0].File]
				if err := s.File(File{Name: group[0].File, Checked: true, Diagnostics: group, Source: in.Sources[group[0].File], LoadOptions: &opts, Rulesets: in.Rulesets[group[0].File]}); err != nil {
					t.Fatal(err)
				}
				wrote := buf.Len() > before
				switch format {
				case "json", "sarif":
					if wrote {
						t.Errorf("file %d: %d bytes written before the end", i, buf.Len())
					}
				default:
					if !wrote || !strings.Contains(buf.String()[before:], lastMessageOf(group, format)) {
						t.Errorf("file %d: its part is not written yet:\n%s", i, buf.String())
					}
				}
			}
			if err := s.File(File{Name: "servers/clean.json", Checked: true, Rulesets: in.Rulesets["servers/clean.json"]}); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(in.Rules); err != nil {
				t.Fatal(err)
			}
			if want := render(t, format, in); buf.String() != want {
				t.Errorf("the stream differs from Print:\n%s", firstDiff(want, buf.String()))
			}
		})
	}
}

// lastMessageOf is how the last diagnostic of group shows in format.
func lastMessageOf(group []engine.Diagnostic, format string) string {
	msg := group[len(group)-1].Message
	if format == "jsonl" || format == "codequality" {
		b, _ := json.Marshal(msg)
		return strings.Trim(string(b), `"`)
	}
	return msg
}

// TestNotShown: a file whose findings were cut ends with a celint.limit
// entry, which no format counts; the counts are the true totals, and say
// how many findings are not shown: the text summary, the json and jsonl
// counts; sarif makes the entry, which has no line, a notification.
func TestNotShown(t *testing.T) {
	shown := []engine.Diagnostic{
		{File: "a.json", RuleID: "r", Severity: engine.Warning, Message: "m", Pointer: "/a", Line: 1, Column: 2},
		{File: "a.json", RuleID: LimitRuleID, Severity: engine.Error, Message: "5 more findings not shown (4 errors, 1 info; raise --max-diagnostics)"},
	}
	in := Input{
		Diagnostics: shown,
		NotShown:    engine.Counts{Errors: 4, Infos: 1},
		Files:       []string{"a.json", "b.json"},
		ToolVersion: "0.1.0",
	}
	wantCounts := `{"errors":4,"warnings":1,"infos":1,"ruleErrors":0,"files":2,"filesWithProblems":1,"notShown":5}`
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			got := render(t, format, in)
			switch format {
			case "text":
				for _, want := range []string{
					"  1:2  warning  m                                                                      r\n",
					"  -    error    5 more findings not shown (4 errors, 1 info; raise --max-diagnostics)  celint.limit\n",
					"✖ 6 problems (4 errors, 1 warning, 1 info) in 1 of 2 files; 5 not shown\n",
				} {
					if !strings.Contains(got, want) {
						t.Errorf("output lacks %q:\n%s", want, got)
					}
				}
			case "json", "jsonl":
				var v struct{ Counts json.RawMessage }
				lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
				doc := got
				if format == "jsonl" {
					doc = lines[len(lines)-1]
					if len(lines) != 3 {
						t.Errorf("%d lines, want 3:\n%s", len(lines), got)
					}
				}
				if err := json.Unmarshal([]byte(doc), &v); err != nil {
					t.Fatal(err)
				}
				var c bytes.Buffer
				_ = json.Compact(&c, v.Counts)
				if c.String() != wantCounts {
					t.Errorf("counts %s, want %s", c.String(), wantCounts)
				}
				if !strings.Contains(got, `"ruleId": "celint.limit"`) && !strings.Contains(got, `"ruleId":"celint.limit"`) {
					t.Errorf("no celint.limit entry:\n%s", got)
				}
			case "sarif":
				validateSARIF(t, []byte(got))
				var log struct {
					Runs []struct {
						Results     []any
						Invocations []struct {
							ExecutionSuccessful        bool
							ToolExecutionNotifications []struct {
								Level   string
								Message struct{ Text string }
							}
						}
					}
				}
				if err := json.Unmarshal([]byte(got), &log); err != nil {
					t.Fatal(err)
				}
				run := log.Runs[0]
				inv := run.Invocations[0]
				if len(run.Results) != 1 || !inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 1 ||
					inv.ToolExecutionNotifications[0].Level != "error" || !strings.HasPrefix(inv.ToolExecutionNotifications[0].Message.Text, "5 more") {
					t.Errorf("results %v, invocation %+v", run.Results, inv)
				}
			case "github":
				if want := "::error file=a.json,title=celint.limit::5 more findings not shown (4 errors, 1 info; raise --max-diagnostics)\n"; !strings.HasSuffix(got, want) {
					t.Errorf("got %q, want it to end in %q", got, want)
				}
			case "codequality":
				var issues []struct {
					CheckName string `json:"check_name"`
					Severity  string
					Location  struct{ Lines struct{ Begin int } }
				}
				if err := json.Unmarshal([]byte(got), &issues); err != nil {
					t.Fatal(err)
				}
				if len(issues) != 2 || issues[1].CheckName != LimitRuleID || issues[1].Severity != "major" || issues[1].Location.Lines.Begin != 1 {
					t.Errorf("issues %+v, want the finding then the celint.limit entry, major, at line 1", issues)
				}
			default:
				t.Errorf("format %s is not tested", format)
			}
		})
	}
}

// TestJSONLargeArray: the json and sarif documents, written an element at
// a time, are those of encoding them whole, for many diagnostics with
// text that needs escaping.
func TestJSONLargeArray(t *testing.T) {
	var ds []engine.Diagnostic
	for i := range 300 {
		ds = append(ds, engine.Diagnostic{File: fmt.Sprintf("f%03d.json", i/100), RuleID: "r", Severity: engine.Severity(i % 3),
			Message: fmt.Sprintf("m %d \u202e ##[x] \"q\" <&>", i), Pointer: "/x", Line: 1 + i%7, Column: 1})
	}
	in := Input{Diagnostics: ds, Files: []string{"f000.json"}, ToolVersion: "1"}
	got := render(t, "json", in)
	r := jsonReport{Version: jsonVersion, Tool: jsonTool{Name: toolName, Version: "1"}, Files: jsonFiles(in), Counts: tally(in)}
	for _, d := range ds {
		r.Diagnostics = append(r.Diagnostics, newJSONDiagnostic(d))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	if want := string(safetext.JSON(buf.Bytes())); got != want {
		t.Errorf("json differs from the whole encoding:\n%s", firstDiff(want, got))
	}
	validateSARIF(t, []byte(render(t, "sarif", in)))
}

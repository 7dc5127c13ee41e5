package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/report"
)

// hostileCase is a document built to hurt: each must end in a located input
// error (exit code 2) without stopping the other files of the same run.
type hostileCase struct {
	name string
	file string
	data func(t *testing.T, path string) // writes the file
	want []string                        // substrings of the message
	line int                             // expected line (0: any)
}

func bytesOf(b []byte) func(*testing.T, string) {
	return func(t *testing.T, p string) {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func hostileCases() []hostileCase {
	bomb := "mcpdesc: \"0.9.0\"\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	for i, prev := 0, "a"; i < 8; i++ {
		name := string(rune('b' + i))
		bomb += name + ": &" + name + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n"
		prev = name
	}
	deepJSON := `{"mcpdesc": "0.9.0", "x": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}"
	deepYAML := "mcpdesc: \"0.9.0\"\nx: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"
	return []hostileCase{
		{name: "alias bomb", file: "bomb.yaml", data: bytesOf([]byte(bomb)), want: []string{"alias"}, line: 3},
		{name: "deep JSON", file: "deep.json", data: bytesOf([]byte(deepJSON)), want: []string{"depth", "--max-depth"}, line: 1},
		{name: "deep YAML", file: "deep.yaml", data: bytesOf([]byte(deepYAML)), want: []string{"depth", "--max-depth"}, line: 2},
		{name: "200 MB file", file: "huge.json", data: func(t *testing.T, p string) {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(200 << 20); err != nil { // sparse: costs no disk
				t.Fatal(err)
			}
		}, want: []string{"limit of 16777216 bytes", "--max-bytes"}},
		{name: "invalid UTF-8", file: "badutf8.json", data: bytesOf([]byte("{\"mcpdesc\": \"0.9.0\",\n \"x\": \"\xff\xfe\"}")), want: []string{"UTF-8"}, line: 2},
		{name: "two UTF-8 BOMs", file: "bom.json", data: bytesOf(append([]byte{0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF}, `{"mcpdesc": "0.9.0"}`...)), want: []string{"byte order mark"}, line: 1},
		{name: "UTF-16", file: "utf16.json", data: bytesOf([]byte{0xFF, 0xFE, '{', 0, '}', 0}), want: []string{"UTF-16"}, line: 1},
		{name: "duplicate JSON keys", file: "dup.json", data: bytesOf([]byte("{\"mcpdesc\": \"0.9.0\",\n \"info\": {}, \"info\": {}}")), want: []string{"duplicate", "info"}, line: 2},
		{name: "NaN literal", file: "nan.json", data: bytesOf([]byte(`{"mcpdesc": "0.9.0", "x": NaN}`)), want: []string{"NaN"}, line: 1},
		{name: "Infinity literal", file: "inf.json", data: bytesOf([]byte(`{"mcpdesc": "0.9.0", "x": -Infinity}`)), want: []string{"Infinity"}, line: 1},
		{name: "beyond float64", file: "big.json", data: bytesOf([]byte(`{"mcpdesc": "0.9.0", "x": 1e400}`)), want: []string{"1e400"}, line: 1},
		{name: "beyond int64", file: "bigint.json", data: bytesOf([]byte(`{"mcpdesc": "0.9.0", "x": 123456789012345678901234567890}`)), want: []string{"64-bit"}, line: 1},
		{name: "YAML infinity", file: "inf.yaml", data: bytesOf([]byte("mcpdesc: \"0.9.0\"\nx: -.inf\n")), want: []string{"non-finite"}, line: 2},
		{name: "empty file", file: "empty.json", data: bytesOf(nil), want: []string{"empty"}, line: 1},
		{name: "empty YAML stream", file: "empty.yaml", data: bytesOf([]byte("# nothing\n")), want: []string{"no document"}, line: 1},
		{name: "only a scalar", file: "scalar.json", data: bytesOf([]byte(`"hello"`)), want: []string{"not a description: it has no mcpdesc member"}, line: 1},
		{name: "top-level array", file: "array.json", data: bytesOf([]byte(`[{"mcpdesc": "0.9.0"}]`)), want: []string{"not a description: it has no mcpdesc member"}, line: 1},
		// Refused before a tree exists, or at
		// the value, in one run with the others.
		{name: "4 MiB flow sequence", file: "flow.yaml", data: bytesOf([]byte("mcpdesc: \"0.9.0\"\nx: [" + strings.Repeat("0,", 2<<20) + "0]\n")), want: []string{"values"}, line: 2},
		{name: "underflowing number", file: "tiny.json", data: bytesOf([]byte("{\"mcpdesc\": \"0.9.0\",\n \"x\": 1e-400}")), want: []string{"1e-400", "would become 0"}, line: 2},
		{name: "200,000-digit number", file: "digits.json", data: bytesOf([]byte("{\"mcpdesc\": \"0.9.0\",\n \"x\": 1." + strings.Repeat("2345678901", 20_000) + "}")), want: []string{"cannot be held exactly", "it would become 1.2345678901234567"}, line: 2},
		{name: "inexact number", file: "inexact.yaml", data: bytesOf([]byte("mcpdesc: \"0.9.0\"\nx: 9007199254740993.0\n")), want: []string{"9007199254740992"}, line: 2},
		{name: "U+2028 in a YAML comment", file: "ls.yaml", data: bytesOf([]byte("mcpdesc: \"0.9.0\"\n# a\u2028b: 1\n")), want: []string{"U+2028"}, line: 2},
	}
}

// TestHostileDocuments runs every hostile document and one ordinary file in
// a single check: each hostile file gets one located input error, the
// ordinary file is still linted, and the run exits with code 2.
func TestHostileDocuments(t *testing.T) {
	dir := t.TempDir()
	cases := hostileCases()
	args := []string{"check", "--format", "json"}
	for _, c := range cases {
		p := filepath.Join(dir, c.file)
		c.data(t, p)
		args = append(args, p)
	}
	args = append(args, example)
	start := time.Now()
	code, out, errOut := runCLI(t, args...)
	t.Logf("%d hostile files and one ordinary file in %v", len(cases), time.Since(start))
	if code != 2 {
		t.Errorf("exit %d, want 2; stderr: %s", code, errOut)
	}
	var v struct {
		Diagnostics []struct {
			File, RuleID, Message string
			Line, Column          int
			InputError            bool
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	byFile := map[string][]string{}
	for _, d := range v.Diagnostics {
		byFile[filepath.Base(d.File)] = append(byFile[filepath.Base(d.File)], d.Message)
		// A problem at a place has a line and column; one with the file as
		// a whole (too large, not a regular file) has neither, never an
		// invented 1:1.
		if d.InputError && (d.Line < 0 || (d.Line == 0) != (d.Column == 0)) {
			t.Errorf("%s: input error with half a position: %+v", d.File, d)
		}
	}
	for _, c := range cases {
		msgs := byFile[c.file]
		if len(msgs) != 1 {
			t.Errorf("%s: got %d diagnostics %q, want one input error", c.name, len(msgs), msgs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(msgs[0], w) {
				t.Errorf("%s: message %q lacks %q", c.name, msgs[0], w)
			}
		}
		if c.line > 0 {
			for _, d := range v.Diagnostics {
				if filepath.Base(d.File) == c.file && d.Line != c.line {
					t.Errorf("%s: reported at line %d, want %d", c.name, d.Line, c.line)
				}
			}
		}
	}
	if got := byFile[filepath.Base(example)]; len(got) != 1 || !strings.Contains(got[0], "confirmed") {
		t.Errorf("the ordinary file was not linted alongside: %q", got)
	}
}

// TestTenMillionValues is refused by the value limit, which the message
// names with its flag; raising the size limit lets it reach that limit.
func TestTenMillionValues(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 20 MB file")
	}
	p := filepath.Join(t.TempDir(), "values.json")
	var b bytes.Buffer
	b.Grow(20 << 20)
	b.WriteString(`{"mcpdesc": "0.9.0", "x": [0`)
	for i := 1; i < 10_000_000; i++ {
		b.WriteString(",0")
	}
	b.WriteString("]}")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "check", p)
	if code != 2 || !strings.Contains(out, "--max-bytes") {
		t.Errorf("default limits: exit %d\n%s", code, out)
	}
	start := time.Now()
	code, out, _ = runCLI(t, "check", "--max-bytes", "67108864", p)
	t.Logf("refused in %v", time.Since(start))
	if code != 2 || !strings.Contains(out, "--max-values") {
		t.Errorf("raised size limit: exit %d\n%s", code, out)
	}
}

// TestHostileDocumentsEach runs each hostile document alone: exit code 2,
// and the time it took is logged (go test -v) for docs/reliability.md.
func TestHostileDocumentsEach(t *testing.T) {
	dir := t.TempDir()
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.file)
			c.data(t, p)
			start := time.Now()
			code, out, _ := runCLI(t, "check", p)
			t.Logf("%-22s exit %d in %8.2f ms", c.name, code, float64(time.Since(start).Microseconds())/1000)
			if code != 2 || !strings.Contains(out, "input error") {
				t.Errorf("exit %d\n%s", code, out)
			}
		})
	}
}

// TestHostileSchemas: a document's own schema that applies itself twice
// to the same member (allOf, anyOf, oneOf, $dynamicRef, patternProperties)
// with an example nested 40 levels deep would take the JSON Schema
// validator 2^40 steps. The validation is measured before it runs and
// refused at the cost limit: one rule error where the rule validates, in
// a fraction of a second. The same schemas on a shallow example are
// validated as usual.
func TestHostileSchemas(t *testing.T) {
	ref := func(r string) string {
		return `{"` + r + `": "#` + map[string]string{"$ref": "", "$dynamicRef": "m"}[r] + `"}`
	}
	shapes := map[string]string{
		"allOf":      `{"type": "object", "allOf": [{"properties": {"a": ` + ref("$ref") + `}}, {"properties": {"a": ` + ref("$ref") + `}}]}`,
		"anyOf":      `{"type": "object", "anyOf": [{"properties": {"a": ` + ref("$ref") + `}, "required": ["z"]}, {"properties": {"a": ` + ref("$ref") + `}}]}`,
		"oneOf":      `{"type": "object", "oneOf": [{"properties": {"a": ` + ref("$ref") + `}}, {"properties": {"a": ` + ref("$ref") + `}, "required": ["z"]}]}`,
		"dynamicRef": `{"type": "object", "$dynamicAnchor": "m", "allOf": [{"properties": {"a": ` + ref("$dynamicRef") + `}}, {"properties": {"a": ` + ref("$dynamicRef") + `}}]}`,
		"pattern":    `{"type": "object", "properties": {"a": ` + ref("$ref") + `}, "patternProperties": {"^a$": ` + ref("$ref") + `}}`,
	}
	doc := func(schema string, depth int) []byte {
		input := strings.Repeat(`{"a": `, depth) + "{}" + strings.Repeat("}", depth)
		return []byte(`{"mcpdesc": "0.9.0", "$schema": "https://mcpdesc.org/schema/mcp-description/0.9.0-rc.3.json",
 "info": {"name": "x", "version": "1.0.0"}, "protocolVersions": ["2025-11-25"],
 "transports": [{"type": "stdio", "command": "x"}],
 "tools": [{"name": "t", "inputSchema": ` + schema + `,
  "examples": {"e": {"input": ` + input + `, "result": {"content": [{"type": "text", "text": "ok"}]}}}}]}`)
	}
	for name, schema := range shapes {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			deep, shallow := filepath.Join(dir, "deep.json"), filepath.Join(dir, "shallow.json")
			bytesOf(doc(schema, 40))(t, deep)
			bytesOf(doc(schema, 6))(t, shallow)
			start := time.Now()
			code, out, errOut := runCLI(t, "check", "--format", "json", deep, shallow)
			t.Logf("%s: %v", name, time.Since(start))
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr: %s", code, errOut)
			}
			var v struct {
				Diagnostics []struct {
					File, RuleID, Message, Pointer string
					RuleError                      bool
				}
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var deepErrs, shallowErrs int
			for _, d := range v.Diagnostics {
				switch {
				case d.RuleError && d.File == deep:
					deepErrs++
					if !strings.Contains(d.Message, "cost limit") || d.Pointer != "/tools/0" {
						t.Errorf("deep: rule error %q at %q, want the cost limit at /tools/0", d.Message, d.Pointer)
					}
				case d.RuleError:
					shallowErrs++
					t.Errorf("shallow: rule error %q", d.Message)
				}
			}
			if deepErrs != 1 || shallowErrs != 0 {
				t.Errorf("rule errors: %d on the deep example, %d on the shallow one; want 1 and 0:\n%s", deepErrs, shallowErrs, out)
			}
		})
	}
}

// TestHostileIgnorePatterns: a pattern with four '**' over a folder 400
// levels deep, in a config file and in --ignore, is matched in time
// proportional to pattern × path (the test timeout is the check); a
// --ignore value that a config file would refuse is a usage error.
func TestHostileIgnorePatterns(t *testing.T) {
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	deep := strings.Repeat("a/", 400)
	write(t, dir, deep+"kept.yaml", string(src))
	write(t, dir, deep+"b/zz/gone.yaml", string(src))
	write(t, dir, deep+"b/yy/flag.yaml", string(src))
	const pattern = "**/a/**/a/**/a/**/b/zz"
	write(t, dir, ".celint.yaml", `ignore: ["`+pattern+`"]`+"\n")
	t.Chdir(dir)
	code, out, errOut := runCLI(t, "check", "--format", "json", "--ignore", "**/a/**/a/**/a/**/b/yy", ".")
	if code != exitFindings || !strings.Contains(out, "kept.yaml") || strings.Contains(out, "gone.yaml") || strings.Contains(out, "flag.yaml") {
		t.Errorf("exit %d: want kept.yaml checked, gone.yaml and flag.yaml ignored\n%.2000s%s", code, out, errOut)
	}
	for _, tt := range []struct{ pattern, want string }{
		{"**/a/**/a/**/a/**/a/**/b", `--ignore: pattern "**/a/**/a/**/a/**/a/**/b": at most 4 '**' in a pattern, found 5`},
		{"", "--ignore: an empty pattern matches nothing"},
		{"a/[b", `--ignore: pattern "a/[b": syntax error in pattern`},
	} {
		code, out, errOut := runCLI(t, "check", "--no-config", "--ignore", tt.pattern, ".")
		if code != exitError || out != "" || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") > 2 {
			t.Errorf("--ignore %q: exit %d, want %d and %q\nstdout: %.500s\nstderr: %s", tt.pattern, code, exitError, tt.want, out, errOut)
		}
	}
}

// manyFindings returns a description whose n tools each break four
// rules, with one warning (no $schema) before them all.
func manyFindings(n int) []byte {
	tools := make([]any, n)
	for i := range tools {
		tools[i] = map[string]any{
			"name": fmt.Sprintf("t%d", i), "inputSchema": map[string]any{"type": "object", "additionalProperties": false},
			"annotations": map[string]any{"title": 1}, "execution": map[string]any{"taskSupport": "x"},
			"icons": []any{map[string]any{}}, "outputSchema": map[string]any{"type": "array"},
		}
	}
	doc := map[string]any{"mcpdesc": "0.9.0", "info": map[string]any{"name": "x", "version": "1.0.0"},
		"protocolVersions": []string{"2025-06-18"}, "transports": []any{map[string]any{"type": "stdio", "command": "x"}}, "tools": tools}
	data, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		panic(err)
	}
	return data
}

// jsonReport is the json report, as far as these tests read it.
type jsonReport struct {
	Files []struct {
		File     string
		Rulesets []string
	}
	Diagnostics []engine.Diagnostic
	Counts      map[string]int
}

func decodeReport(t *testing.T, out string) jsonReport {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%.2000s", err, out)
	}
	return r
}

// TestMaxDiagnostics: with --max-diagnostics N, a file with more findings
// reports its first N, in report order, then one celint.limit entry at the
// highest severity of the rest saying how many more there are; the counts
// of every format are the true totals and say how many are not shown, and
// the exit code sees the findings not shown. Without the flag, a file
// shows at most 1000.
func TestMaxDiagnostics(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "many.json", string(manyFindings(300)))
	code, out, errOut := runCLI(t, "check", "--format", "json", "--max-diagnostics", "0", p)
	all := decodeReport(t, out)
	if code != exitFindings || len(all.Diagnostics) < 1200 || all.Counts["warnings"] != 1 {
		t.Fatalf("uncapped: exit %d, %d diagnostics, counts %v\n%s", code, len(all.Diagnostics), all.Counts, errOut)
	}
	total := len(all.Diagnostics)
	for _, max := range []int{1, 7, 1000} {
		for _, args := range [][]string{{"--max-diagnostics", fmt.Sprint(max)}, {"--max-diagnostics", fmt.Sprint(max), "--jobs", "4"}} {
			if max == 1000 {
				args = []string{} // the default
			}
			code, out, errOut := runCLI(t, append(append([]string{"check", "--format", "json"}, args...), p)...)
			r := decodeReport(t, out)
			if code != exitFindings {
				t.Errorf("%v: exit %d, want 1 (the errors not shown fail the run)\n%s", args, code, errOut)
			}
			if len(r.Diagnostics) != max+1 {
				t.Fatalf("%v: %d diagnostics, want %d and the limit entry", args, len(r.Diagnostics), max)
			}
			for i, d := range r.Diagnostics[:max] {
				if d.Message != all.Diagnostics[i].Message || d.Pointer != all.Diagnostics[i].Pointer {
					t.Errorf("%v: diagnostic %d is %v, want %v", args, i, d, all.Diagnostics[i])
				}
			}
			last := r.Diagnostics[max]
			want := fmt.Sprintf("%d more findings not shown (%d errors; raise --max-diagnostics)", total-max, total-max)
			if last.RuleID != "celint.limit" || last.Severity != engine.Error || last.Line != 0 || last.Message != want {
				t.Errorf("%v: last entry %+v, want an error %q", args, last, want)
			}
			wantCounts := maps.Clone(all.Counts)
			wantCounts["notShown"] = total - max
			if !maps.Equal(r.Counts, wantCounts) {
				t.Errorf("%v: counts %v, want %v", args, r.Counts, wantCounts)
			}
		}
	}
	// Shown, only the warning that sorts first: the errors after it still
	// fail the run, and the summaries count them.
	code, out, _ = runCLI(t, "check", "--max-diagnostics", "1", p)
	summary := fmt.Sprintf("✖ %d problems (%d errors, 1 warning, 0 infos) in 1 of 1 file with mcpdesc@v0.9.0-rc.3; %d not shown\n", total, total-1, total-1)
	if code != exitFindings || !strings.Contains(out, "\n  1:1  warning  ") || !strings.Contains(out, fmt.Sprintf("\n  -    error    %d more findings not shown", total-1)) ||
		!strings.HasSuffix(out, summary) || strings.Count(out, "error  ") != 1 {
		t.Errorf("text: exit %d\n%s\nwant it to end in %q", code, out, summary)
	}
	code, out, _ = runCLI(t, "check", "--format", "jsonl", "--max-diagnostics", "1", "--fail-on", "never", p)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitOK || len(lines) != 3 || !strings.Contains(lines[1], `"ruleId":"celint.limit"`) ||
		!strings.Contains(lines[2], fmt.Sprintf(`"errors":%d,"warnings":1,`, total-1)) || !strings.Contains(lines[2], fmt.Sprintf(`"notShown":%d}`, total-1)) {
		t.Errorf("jsonl: exit %d\n%s", code, out)
	}
	// --max-warnings counts the warnings of every file, shown or not.
	if code, _, errOut := runCLI(t, "check", "--quiet", "--fail-on", "never", "--max-warnings", "0", "--max-diagnostics", "1", p); code != exitFindings || !strings.Contains(errOut, "1 warning, more than --max-warnings 0") {
		t.Errorf("--max-warnings: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "check", "--max-diagnostics", "-1", p); code != exitError || !strings.Contains(errOut, "--max-diagnostics") {
		t.Errorf("--max-diagnostics -1: exit %d %s", code, errOut)
	}
}

// TestStreamedReportInFileOrder: files linted by four workers, named in any
// order and among them a pattern that matches nothing, are reported in the
// order of the report, each with its findings together, the text report
// the same with one worker, and what the text printer prints of the whole
// run's json report at once.
func TestStreamedReportInFileOrder(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	var args, files []string
	for i, name := range []string{"k", "c", "m", "a", "x", "b", "q", "d", "n", "e", "z", "f"} {
		text := string(src)
		if i%3 == 0 {
			text = strings.Replace(text, "required: [confirmed]", "required: []", 1) // fixes the example's error
		}
		if i%4 == 1 {
			text = "# celint-disable-next-line no.such.rule\n" + text
		}
		p := write(t, dir, name+".yaml", text)
		args, files = append(args, p), append(files, p)
	}
	many := write(t, dir, "many.json", string(manyFindings(30)))
	args = append(args, filepath.Join(dir, "l*.nothing"), many)
	files = append(files, many)
	code, streamed, errOut := runCLI(t, append([]string{"check", "--jobs", "4", "--max-diagnostics", "20"}, args...)...)
	if code != exitError {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var headers []string
	for _, l := range strings.Split(streamed, "\n") {
		if strings.HasPrefix(l, dir) {
			headers = append(headers, l)
		}
	}
	if !slices.IsSorted(headers) || len(headers) != 11 || !slices.Contains(headers, filepath.Join(dir, "l*.nothing")) {
		t.Errorf("file headers not in order, or not each once:\n%s", strings.Join(headers, "\n"))
	}
	if _, one, _ := runCLI(t, append([]string{"check", "--jobs", "1", "--max-diagnostics", "20"}, args...)...); one != streamed {
		t.Errorf("--jobs 1 differs:\n%s\n--jobs 4:\n%s", one, streamed)
	}
	_, out, _ := runCLI(t, append([]string{"check", "--format", "json", "--jobs", "4", "--max-diagnostics", "20"}, args...)...)
	r := decodeReport(t, out)
	in := report.Input{Diagnostics: r.Diagnostics, Files: files, Sources: map[string][]byte{}, Rulesets: map[string][]string{}}
	for _, f := range r.Files {
		in.Rulesets[f.File] = f.Rulesets
	}
	for _, f := range files {
		in.Sources[f], _ = os.ReadFile(f)
	}
	in.NotShown.Errors = r.Counts["notShown"]
	var whole strings.Builder
	p, _ := report.New("text")
	if err := p.Print(&whole, in); err != nil {
		t.Fatal(err)
	}
	if whole.String() != streamed {
		t.Errorf("the streamed text report differs from the whole report printed at once:\n%s\nstreamed:\n%s", whole.String(), streamed)
	}
}

// TestSuppressionCommentsNamingThousandsOfRules: comments naming thousands
// of rules that report nothing give one warning per comment for the
// rules beyond the thousandth and one for the rules unused, each naming
// ten of them: the report stays small, and the run quick.
func TestSuppressionCommentsNamingThousandsOfRules(t *testing.T) {
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 5000)
	for i := range ids {
		ids[i] = fmt.Sprintf("a%d", i+1)
	}
	comment := "# celint-disable-next-line " + strings.Join(ids, ", ") + "\n"
	spaced := "# celint-disable-file " + strings.Join(ids, " ") + "\n"
	doc := string(src) + strings.Repeat(comment, 40) + strings.Repeat(spaced, 10) // 1.6 MB of comments
	p := write(t, t.TempDir(), "commented.yaml", doc)
	start := time.Now()
	code, out, errOut := runCLI(t, "check", "--format", "json", p)
	took := time.Since(start)
	r := decodeReport(t, out)
	byCode := map[string]int{}
	for _, d := range r.Diagnostics {
		if d.RuleID == "celint.suppression" {
			byCode[d.Code]++
		}
	}
	if code != exitFindings || byCode["unused"] != 40 || byCode["malformed"] != 50 {
		t.Errorf("exit %d, suppression warnings %v; want 40 unused and 50 malformed\n%s", code, byCode, errOut)
	}
	if len(out) > 100<<10 {
		t.Errorf("report of %d bytes for %d bytes of comments", len(out), len(doc)-len(src))
	}
	t.Logf("%d bytes of comments: %d bytes of report in %v", len(doc)-len(src), len(out), took)
}

// TestOutputIsAlsoChecked: a report that would be written over a file the
// run checks is refused before anything is linted: the file is left as it
// was, and nothing else is left in its folder.
func TestOutputIsAlsoChecked(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	p := write(t, dir, "report.yaml", string(src))
	code, out, errOut := runCLI(t, "check", "--no-config", "--output", p, p)
	data, _ := os.ReadFile(p)
	if code != exitError || out != "" || !strings.Contains(errOut, "a document this run checks") || string(data) != string(src) {
		t.Errorf("exit %d, stdout %q, stderr %s, the document now:\n%s", code, out, errOut, data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want the report alone", len(entries))
	}
	if code, _, errOut := runCLI(t, "check", "--no-config", "--output", filepath.Join(dir, "no", "such", "r.txt"), p); code != exitError || !strings.Contains(errOut, "--output") {
		t.Errorf("a report in a missing folder: exit %d %s", code, errOut)
	}
}

// TestBaselineBeyondMaxDiagnostics: --write-baseline records every
// finding, not only those shown, and --baseline hides findings before
// --max-diagnostics counts them: a baselined file with thousands of
// findings passes, with nothing not shown.
func TestBaselineBeyondMaxDiagnostics(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "many.json", string(manyFindings(300)))
	base := filepath.Join(dir, "base.json")
	code, _, errOut := runCLI(t, "check", "--max-diagnostics", "5", "--write-baseline", base, p)
	if code != exitOK || !strings.Contains(errOut, "recorded 1801 findings in") {
		t.Fatalf("write: exit %d %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "check", "--max-diagnostics", "5", "--baseline", base, p)
	if code != exitOK || out != "✔ no problems in 1 file with mcpdesc@v0.9.0-rc.3\n" || !strings.Contains(errOut, "1801 findings hidden, 0 recorded findings are gone") {
		t.Errorf("read: exit %d\n%s%s", code, out, errOut)
	}
}

// TestBOMDocuments: a YAML or JSON description that starts with a UTF-8
// byte order mark is checked as without it, its findings at the same
// line:col.
func TestBOMDocuments(t *testing.T) {
	dir := project(t)
	src, _ := os.ReadFile("server.yaml")
	_, asJSON, _ := runCLI(t, "check", "--no-config", "--format", "json", "server.yaml")
	if !strings.Contains(asJSON, `"line": 58`) {
		t.Fatalf("the example's finding moved:\n%s", asJSON)
	}
	doc := strings.ReplaceAll(cleanDoc, "\n", "")
	for _, tc := range []struct{ name, text string }{
		{"bom.yaml", string(src)},
		{"plain.yaml", string(src)},
		{"bom.json", doc},
		{"plain.json", doc},
	} {
		text := tc.text
		if strings.HasPrefix(tc.name, "bom") {
			text = "\uFEFF" + text
		}
		write(t, dir, tc.name, text)
	}
	for _, pair := range [][2]string{{"bom.yaml", "plain.yaml"}, {"bom.json", "plain.json"}} {
		code1, out1, errOut1 := runCLI(t, "check", "--no-config", pair[0])
		code2, out2, _ := runCLI(t, "check", "--no-config", pair[1])
		if code1 != code2 || strings.ReplaceAll(out1, pair[0], pair[1]) != out2 {
			t.Errorf("%s: exit %d, %s\n%s\nwant as %s: exit %d\n%s", pair[0], code1, errOut1, out1, pair[1], code2, out2)
		}
	}
}

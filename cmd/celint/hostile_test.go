package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		{name: "UTF-8 BOM", file: "bom.json", data: bytesOf(append([]byte{0xEF, 0xBB, 0xBF}, `{"mcpdesc": "0.9.0"}`...)), want: []string{"byte order mark"}, line: 1},
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
		// Issue 11, items 4, 6 and 7: refused before a tree exists, or at
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
		return []byte(`{"mcpdesc": "0.9.0", "$schema": "https://mcpdesc.org/schema/mcp-description/0.8.0.json",
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

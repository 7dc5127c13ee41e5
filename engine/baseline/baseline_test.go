package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/celint/celint/engine"
)

// diag is a finding of rule in file at pointer, on line.
func diag(file, rule, code, pointer string, line int, msg string) engine.Diagnostic {
	return engine.Diagnostic{
		File: file, RuleID: rule, Code: code, Pointer: pointer,
		Line: line, Column: 3, Severity: engine.Warning, Message: msg,
	}
}

func ruleError(file, rule string) engine.Diagnostic {
	d := diag(file, rule, "", "", 1, "rule failed")
	d.RuleError = true
	return d
}

func inputError(file string) engine.Diagnostic {
	d := diag(file, "", "", "", 1, "cannot parse")
	d.InputError = true
	return d
}

// write returns b written.
func write(t *testing.T, b *Baseline) string {
	t.Helper()
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.String()
}

// roundTrip writes b and reads it back.
func roundTrip(t *testing.T, b *Baseline) *Baseline {
	t.Helper()
	out := write(t, b)
	got, err := Read("baseline.json", []byte(out))
	if err != nil {
		t.Fatalf("Read of Write's output: %v\n%s", err, out)
	}
	return got
}

// messages lists the messages of ds, to compare Kept compactly.
func messages(ds []engine.Diagnostic) []string {
	ms := []string{}
	for _, d := range ds {
		ms = append(ms, d.Message)
	}
	return ms
}

func TestRoundTripHidesEverything(t *testing.T) {
	ds := []engine.Diagnostic{
		diag("a.yaml", "r1", "", "/x", 3, "m1"),
		diag("a.yaml", "r1", "", "/x", 4, "m2"), // same key twice
		diag("a.yaml", "r1", "c", "/x", 5, "m3"),
		diag("b.yaml", "r2", "", "", 1, "m4"), // root pointer
		diag("sub/c.json", "r1", "", "/a~1b/0", 9, "m5"),
		ruleError("a.yaml", "r3"),
		inputError("d.yaml"),
	}
	b := roundTrip(t, New(ds, "."))
	res := b.Apply(ds, ".")
	if res.Hidden != 5 || res.Gone != 0 || len(res.GoneKeys) != 0 {
		t.Errorf("Hidden %d, Gone %d, GoneKeys %v; want 5, 0, none", res.Hidden, res.Gone, res.GoneKeys)
	}
	if got, want := messages(res.Kept), []string{"rule failed", "cannot parse"}; !slices.Equal(got, want) {
		t.Errorf("Kept %q, want only the rule and input errors %q", got, want)
	}
}

func TestApply(t *testing.T) {
	recorded := []engine.Diagnostic{
		diag("a.yaml", "r", "", "/x", 10, "old text"),
		diag("a.yaml", "r", "", "/y", 11, "y"),
		diag("a.yaml", "r", "", "/y", 12, "y"),
		diag("a.yaml", "r", "c", "/z", 13, "z"),
	}
	tests := []struct {
		name     string
		run      []engine.Diagnostic
		kept     []string
		hidden   int
		gone     int
		goneKeys []Key
	}{
		{
			name: "same run",
			run:  recorded,
			kept: []string{}, hidden: 4,
		},
		{
			name: "line moved and message reworded, same pointer: hidden",
			run: []engine.Diagnostic{
				diag("a.yaml", "r", "", "/x", 40, "new text"),
				diag("a.yaml", "r", "", "/y", 41, "y"),
				diag("a.yaml", "r", "", "/y", 42, "y"),
				diag("a.yaml", "r", "c", "/z", 43, "z"),
			},
			kept: []string{}, hidden: 4,
		},
		{
			name: "pointer changed: new, and the old one is gone",
			run: []engine.Diagnostic{
				diag("a.yaml", "r", "", "/x2", 10, "x2"),
				diag("a.yaml", "r", "", "/y", 11, "y"),
				diag("a.yaml", "r", "", "/y", 12, "y"),
				diag("a.yaml", "r", "c", "/z", 13, "z"),
			},
			kept: []string{"x2"}, hidden: 3, gone: 1,
			goneKeys: []Key{{File: "a.yaml", Rule: "r", Pointer: "/x"}},
		},
		{
			name: "code, rule or file changed: new",
			run: []engine.Diagnostic{
				diag("a.yaml", "r", "other", "/z", 13, "code"),
				diag("a.yaml", "r2", "c", "/z", 13, "rule"),
				diag("b.yaml", "r", "c", "/z", 13, "file"),
			},
			kept: []string{"code", "rule", "file"}, hidden: 0, gone: 4,
			goneKeys: []Key{
				{File: "a.yaml", Rule: "r", Pointer: "/x"},
				{File: "a.yaml", Rule: "r", Pointer: "/y"},
				{File: "a.yaml", Rule: "r", Code: "c", Pointer: "/z"},
			},
		},
		{
			name: "multiset: recorded twice, found three times keeps the last in the document",
			run: []engine.Diagnostic{
				diag("a.yaml", "r", "", "/y", 30, "last (30)"),
				diag("a.yaml", "r", "", "/y", 10, "zz first (10)"),
				diag("a.yaml", "r", "", "/y", 20, "second (20)"),
			},
			kept: []string{"last (30)"}, hidden: 2, gone: 2,
			goneKeys: []Key{
				{File: "a.yaml", Rule: "r", Pointer: "/x"},
				{File: "a.yaml", Rule: "r", Code: "c", Pointer: "/z"},
			},
		},
		{
			name: "multiset: recorded twice, found once: one gone",
			run: []engine.Diagnostic{
				diag("a.yaml", "r", "", "/x", 10, "x"),
				diag("a.yaml", "r", "", "/y", 11, "y"),
				diag("a.yaml", "r", "c", "/z", 13, "z"),
			},
			kept: []string{}, hidden: 3, gone: 1,
			goneKeys: []Key{{File: "a.yaml", Rule: "r", Pointer: "/y"}},
		},
		{
			name: "nothing found: everything gone",
			run:  nil,
			kept: []string{}, hidden: 0, gone: 4,
			goneKeys: []Key{
				{File: "a.yaml", Rule: "r", Pointer: "/x"},
				{File: "a.yaml", Rule: "r", Pointer: "/y"},
				{File: "a.yaml", Rule: "r", Code: "c", Pointer: "/z"},
			},
		},
		{
			name: "kept in the order given",
			run: []engine.Diagnostic{
				diag("z.yaml", "r", "", "/n", 1, "n1"),
				diag("a.yaml", "r", "", "/x", 10, "x"),
				diag("b.yaml", "r", "", "/n", 5, "n2"),
				diag("a.yaml", "r", "", "/n", 2, "n3"),
			},
			kept: []string{"n1", "n2", "n3"}, hidden: 1, gone: 3,
			goneKeys: []Key{
				{File: "a.yaml", Rule: "r", Pointer: "/y"},
				{File: "a.yaml", Rule: "r", Code: "c", Pointer: "/z"},
			},
		},
	}
	b := roundTrip(t, New(recorded, "."))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := b.Apply(tt.run, ".")
			if got := messages(res.Kept); !slices.Equal(got, tt.kept) {
				t.Errorf("Kept %q, want %q", got, tt.kept)
			}
			if res.Hidden != tt.hidden || res.Gone != tt.gone {
				t.Errorf("Hidden %d, Gone %d; want %d, %d", res.Hidden, res.Gone, tt.hidden, tt.gone)
			}
			if !slices.Equal(res.GoneKeys, tt.goneKeys) {
				t.Errorf("GoneKeys %v, want %v", res.GoneKeys, tt.goneKeys)
			}
			if res.Hidden+len(res.Kept) != len(tt.run) {
				t.Errorf("Hidden %d + Kept %d != %d diagnostics", res.Hidden, len(res.Kept), len(tt.run))
			}
		})
	}
}

func TestErrorsNeverRecordedNorHidden(t *testing.T) {
	errs := []engine.Diagnostic{ruleError("a.yaml", "r"), inputError("b.yaml")}

	// Not recorded: a baseline of only errors is empty.
	if got, want := write(t, New(errs, ".")), "{\n  \"version\": 1,\n  \"findings\": []\n}\n"; got != want {
		t.Errorf("New of rule and input errors wrote\n%s\nwant\n%s", got, want)
	}

	// Not hidden, even by a baseline that records their very keys.
	b, err := Read("b.json", []byte(`{"version": 1, "findings": [
		{"file": "a.yaml", "rule": "r", "code": "", "pointer": "", "count": 1},
		{"file": "b.yaml", "rule": "x", "code": "", "pointer": "", "count": 1}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	inErr := inputError("b.yaml")
	inErr.RuleID = "x"
	run := []engine.Diagnostic{errs[0], inErr}
	res := b.Apply(run, ".")
	if res.Hidden != 0 || len(res.Kept) != 2 || res.Gone != 2 {
		t.Errorf("Hidden %d, Kept %d, Gone %d; want 0, 2, 2", res.Hidden, len(res.Kept), res.Gone)
	}
}

func TestNilBaselineHidesNothing(t *testing.T) {
	var b *Baseline
	ds := []engine.Diagnostic{diag("a.yaml", "r", "", "/x", 1, "x")}
	res := b.Apply(ds, ".")
	if res.Hidden != 0 || len(res.Kept) != 1 || res.Gone != 0 {
		t.Errorf("nil baseline: %+v", res)
	}
}

const golden = `{
  "version": 1,
  "findings": [
    {
      "file": "a.yaml",
      "rule": "r1",
      "code": "",
      "pointer": "",
      "count": 1,
      "message": "root <&> \"quoted\""
    },
    {
      "file": "a.yaml",
      "rule": "r1",
      "code": "",
      "pointer": "/x",
      "count": 2,
      "message": "first of two"
    },
    {
      "file": "a.yaml",
      "rule": "r1",
      "code": "c",
      "pointer": "/x",
      "count": 1,
      "message": "coded"
    },
    {
      "file": "a.yaml",
      "rule": "r2",
      "code": "",
      "pointer": "/a",
      "count": 1,
      "message": "r2"
    },
    {
      "file": "b/c.json",
      "rule": "r1",
      "code": "",
      "pointer": "/é",
      "count": 1,
      "message": "é"
    }
  ]
}
`

func TestWriteGolden(t *testing.T) {
	ds := []engine.Diagnostic{
		diag("b/c.json", "r1", "", "/é", 1, "é"),
		diag("a.yaml", "r1", "", "/x", 9, "another, later"),
		diag("a.yaml", "r2", "", "/a", 2, "r2"),
		ruleError("a.yaml", "r9"),
		diag("a.yaml", "r1", "c", "/x", 5, "coded"),
		diag("a.yaml", "r1", "", "/x", 4, "first of two"),
		diag("a.yaml", "r1", "", "", 1, `root <&> "quoted"`),
	}
	rev := slices.Clone(ds)
	slices.Reverse(rev)
	a, b := write(t, New(ds, ".")), write(t, New(rev, "."))
	if a != b {
		t.Errorf("Write differs with the order of the findings:\n%s\nand\n%s", a, b)
	}
	if a != golden {
		t.Errorf("Write wrote\n%s\nwant\n%s", a, golden)
	}
	// Reading and writing again gives the same bytes, message included.
	if again := write(t, roundTrip(t, New(ds, "."))); again != golden {
		t.Errorf("Write after Read wrote\n%s\nwant\n%s", again, golden)
	}
}

func TestReadIgnoresMessage(t *testing.T) {
	b, err := Read("b.json", []byte(`{"version": 1, "findings": [
		{"file": "a.yaml", "rule": "r", "pointer": "/x", "count": 1, "message": "not this text"}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	res := b.Apply([]engine.Diagnostic{diag("a.yaml", "r", "", "/x", 1, "other text")}, ".")
	if res.Hidden != 1 {
		t.Errorf("Hidden %d, want 1: the message is not part of the key", res.Hidden)
	}
}

func TestReadErrors(t *testing.T) {
	const f = `{"file": "a", "rule": "r", "pointer": "", "count": 1}`
	tests := []struct {
		name string
		in   string
		want string
		as   any // an error type that errors.As must find, or nil
	}{
		{
			name: "syntax error",
			in:   "{\n  \"version\": 1\n  \"findings\": []\n}",
			want: `b.json:3:3: invalid JSON: invalid character '"' after object key:value pair`,
			as:   new(*json.SyntaxError),
		},
		{
			name: "syntax error after a multi-byte character",
			in:   "{\"version\": 1, \"findings\": [{\"file\": \"é\",}]}",
			want: `b.json:1:42: invalid JSON: invalid character '}' looking for beginning of object key string`,
			as:   new(*json.SyntaxError),
		},
		{
			name: "syntax error after CRLF",
			in:   "{\r\n\"version\": 1,\r\n x}",
			want: `b.json:3:2: invalid JSON: invalid character 'x' looking for beginning of object key string`,
			as:   new(*json.SyntaxError),
		},
		{
			name: "truncated",
			in:   "{\"version\": 1,\n\"findings\": [",
			want: `b.json:2:14: invalid JSON: unexpected end of JSON input`,
			as:   new(*json.SyntaxError),
		},
		{
			name: "empty",
			in:   "",
			want: `b.json:1:1: invalid JSON: unexpected end of JSON input`,
			as:   new(*json.SyntaxError),
		},
		{
			name: "trailing data",
			in:   `{"version": 1, "findings": []} []`,
			want: `b.json:1:32: invalid JSON: invalid character '[' after top-level value`,
			as:   new(*json.SyntaxError),
		},
		{
			name: "version of the wrong type",
			in:   "{\n  \"version\": \"1\",\n  \"findings\": []\n}",
			want: `b.json:2:14: "version" must be an integer, not a string`,
			as:   new(*json.UnmarshalTypeError),
		},
		{
			name: "count of the wrong type",
			in:   "{\"version\": 1, \"findings\": [\n  {\"file\": \"a\", \"rule\": \"r\", \"pointer\": \"\", \"count\": 1.5}\n]}",
			want: `b.json:2:54: "count" must be an integer, not the number 1.5`,
			as:   new(*json.UnmarshalTypeError),
		},
		{
			name: "file of the wrong type",
			in:   "{\"version\": 1, \"findings\": [\n  {\"file\": [\"a\"], \"rule\": \"r\", \"pointer\": \"\", \"count\": 1}\n]}",
			want: `b.json:2:12: "file" must be a string, not an array`,
			as:   new(*json.UnmarshalTypeError),
		},
		{
			name: "null version",
			in:   `{"version": null, "findings": []}`,
			want: `b.json:1:13: "version" must be an integer, not null`,
		},
		{
			name: "not an object",
			in:   "\n  [1]",
			want: `b.json:2:3: the baseline must be a JSON object, not an array`,
		},
		{
			name: "findings not an array",
			in:   `{"version": 1, "findings": {}}`,
			want: `b.json:1:28: "findings" must be an array, not an object`,
		},
		{
			name: "finding not an object",
			in:   `{"version": 1, "findings": [` + f + `, "a"]}`,
			want: `b.json:1:84: a finding must be a JSON object, not a string`,
		},
		{
			name: "unknown version",
			in:   `{"version": 2, "findings": []}`,
			want: `b.json:1:13: unknown baseline version 2 (known versions: 1)`,
		},
		{
			name: "missing version",
			in:   `{"findings": []}`,
			want: `b.json:1:1: missing member "version" (known versions: 1)`,
		},
		{
			name: "missing findings",
			in:   `{"version": 1}`,
			want: `b.json:1:1: missing member "findings"`,
		},
		{
			name: "unknown top-level member",
			in:   "{\"version\": 1,\n \"findings\": [],\n \"ignore\": true}",
			want: `b.json:3:2: unknown member "ignore" in the baseline (known members: findings, version)`,
		},
		{
			name: "top-level member in the wrong case",
			in:   `{"Version": 1, "findings": []}`,
			want: `b.json:1:2: unknown member "Version" in the baseline (known members: findings, version)`,
		},
		{
			name: "duplicate top-level member",
			in:   `{"version": 1, "version": 1, "findings": []}`,
			want: `b.json:1:16: member "version" given twice in the baseline; first at 1:2`,
		},
		{
			name: "unknown member of a finding",
			in:   `{"version": 1, "findings": [{"file": "a", "rule": "r", "line": 3}]}`,
			want: `b.json:1:56: unknown member "line" in a finding (known members: code, count, file, message, pointer, rule)`,
		},
		{
			name: "finding lacks a member",
			in:   `{"version": 1, "findings": [{"file": "a", "pointer": "", "count": 1}]}`,
			want: `b.json:1:29: finding lacks member "rule"`,
		},
		{
			name: "empty rule",
			in:   `{"version": 1, "findings": [{"file": "a", "rule": "", "pointer": "", "count": 1}]}`,
			want: `b.json:1:51: "rule" is empty`,
		},
		{
			name: "not a pointer",
			in:   `{"version": 1, "findings": [{"file": "a", "rule": "r", "pointer": "x", "count": 1}]}`,
			want: `b.json:1:67: "pointer" is not a JSON pointer: it must be empty or start with "/"`,
		},
		{
			name: "count zero",
			in:   `{"version": 1, "findings": [{"file": "a", "rule": "r", "pointer": "", "count": 0}]}`,
			want: `b.json:1:80: "count" is 0; it must be at least 1`,
		},
		{
			name: "same key twice",
			in:   "{\"version\": 1, \"findings\": [\n  " + f + ",\n  " + f + "\n]}",
			want: `b.json:3:3: finding has the same file, rule, code and pointer as the finding at 2:3; give one finding with the total count`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Read("b.json", []byte(tt.in))
			if err == nil {
				t.Fatalf("Read(%q) = %v, nil; want error %q", tt.in, b, tt.want)
			}
			if b != nil {
				t.Errorf("Read returned a baseline with its error")
			}
			if err.Error() != tt.want {
				t.Errorf("Read(%q) error\n%s\nwant\n%s", tt.in, err, tt.want)
			}
			if tt.as != nil && !errors.As(err, tt.as) {
				t.Errorf("errors.As(%v, %T) is false", err, tt.as)
			}
		})
	}
}

func TestReadAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		keys map[Key]int
	}{
		{"no findings", `{"version": 1, "findings": []}`, map[Key]int{}},
		{"members in any order, code left out", `{"findings": [{"count": 2, "pointer": "/p", "rule": "r", "file": "a"}], "version": 1}`,
			map[Key]int{{File: "a", Rule: "r", Pointer: "/p"}: 2}},
		{"escapes", `{"version": 1, "findings": [{"file": "a\u00e9", "rule": "r", "code": "c", "pointer": "/a~1b", "count": 1}]}`,
			map[Key]int{{File: "aé", Rule: "r", Code: "c", Pointer: "/a~1b"}: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Read("b.json", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			got := map[Key]int{}
			for k, r := range b.records {
				got[k] = r.count
			}
			if !reflect.DeepEqual(got, tt.keys) {
				t.Errorf("read %v, want %v", got, tt.keys)
			}
		})
	}
}

func TestKeyOf(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.FromSlash("/proj")
	if vol := filepath.VolumeName(wd); vol != "" {
		root = vol + root
	}
	abs := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	tests := []struct {
		name, file, dir, want string
	}{
		{"relative, dir here", "api/a.yaml", ".", "api/a.yaml"},
		{"relative, empty dir", "api/a.yaml", "", "api/a.yaml"},
		{"relative, uncleaned", "./api//a.yaml", ".", "api/a.yaml"},
		{"relative inside a relative dir", filepath.FromSlash("api/v1/a.yaml"), "api", "v1/a.yaml"},
		{"relative outside a relative dir", "a.yaml", "api", "../a.yaml"},
		{"relative, dir above", "a.yaml", "..", filepath.Base(wd) + "/a.yaml"},
		{"absolute inside dir", abs("api/a.yaml"), root, "api/a.yaml"},
		{"absolute inside dir, dir with trailing slash", abs("api/a.yaml"), root + string(filepath.Separator), "api/a.yaml"},
		{"absolute outside dir stays", abs("other/a.yaml"), abs("api"), filepath.ToSlash(abs("other/a.yaml"))},
		{"relative inside an absolute dir (the working directory)", "api/a.yaml", wd, "api/a.yaml"},
		{"absolute inside a relative dir (the working directory)", filepath.Join(wd, "api", "a.yaml"), ".", "api/a.yaml"},
		{"absolute outside a relative dir stays", abs("a.yaml"), ".", filepath.ToSlash(abs("a.yaml"))},
		{"no file", "", "api", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := diag(tt.file, "r", "c", "/p", 7, "m")
			got := KeyOf(d, tt.dir)
			want := Key{File: tt.want, Rule: "r", Code: "c", Pointer: "/p"}
			if got != want {
				t.Errorf("KeyOf(file %q, dir %q) = %+v, want %+v", tt.file, tt.dir, got, want)
			}
		})
	}
}

// TestDirs checks that a baseline made with one view of the paths applies
// with another: absolute paths when recording, relative ones when applying
// from the baseline's folder.
func TestDirs(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	recorded := []engine.Diagnostic{
		diag(filepath.Join(wd, "api", "a.yaml"), "r", "", "/x", 1, "x"),
		diag(filepath.Join(wd, "b.yaml"), "r", "", "/y", 1, "y"),
	}
	b := roundTrip(t, New(recorded, wd))
	if out := write(t, b); !strings.Contains(out, `"file": "api/a.yaml"`) || strings.Contains(out, wd) {
		t.Errorf("baseline does not hold paths relative to its folder:\n%s", out)
	}
	run := []engine.Diagnostic{
		diag(filepath.Join("api", "a.yaml"), "r", "", "/x", 5, "x"),
		diag("b.yaml", "r", "", "/y", 5, "y"),
	}
	if res := b.Apply(run, "."); res.Hidden != 2 {
		t.Errorf("applied from the baseline's folder: Hidden %d, want 2; kept %v", res.Hidden, res.Kept)
	}
	// From the folder above, with the baseline in the working directory's
	// folder named relatively: the same findings.
	if res := b.Apply(recorded, filepath.Join("..", filepath.Base(wd))); res.Hidden != 2 {
		t.Errorf("applied with a relative dir: Hidden %d, want 2; kept %v", res.Hidden, res.Kept)
	}
	// With the wrong dir nothing matches.
	if res := b.Apply(run, "api"); res.Hidden != 0 || res.Gone != 2 {
		t.Errorf("applied with the wrong dir: Hidden %d, Gone %d; want 0, 2", res.Hidden, res.Gone)
	}
}

func TestPosition(t *testing.T) {
	data := []byte("ab\nçd\r\nx\ry")
	tests := []struct {
		off, line, col int
	}{
		{-1, 1, 1}, {0, 1, 1}, {2, 1, 3}, {3, 2, 1},
		{5, 2, 2},            // after the two bytes of ç
		{6, 2, 3}, {7, 2, 4}, // the "\r" of "\r\n" is on line 2, as in the loader
		{8, 3, 1}, {10, 4, 1}, {11, 4, 2}, {99, 4, 2},
	}
	for _, tt := range tests {
		if line, col := position(data, tt.off); line != tt.line || col != tt.col {
			t.Errorf("position(%d) = %d:%d, want %d:%d", tt.off, line, col, tt.line, tt.col)
		}
	}
}

func TestGoneSaturates(t *testing.T) {
	in := `{"version": 1, "findings": [
		{"file": "a", "rule": "r", "pointer": "", "count": 9223372036854775807},
		{"file": "b", "rule": "r", "pointer": "", "count": 9223372036854775807}
	]}`
	b, err := Read("b.json", []byte(in))
	if err != nil {
		t.Skip("int is not 64 bits:", err)
	}
	if res := b.Apply(nil, "."); res.Gone <= 0 {
		t.Errorf("Gone %d overflowed", res.Gone)
	}
}

// TestRecorderAsNew: findings recorded one at a time, in any order and
// from several goroutines, make the baseline New makes of them, byte for
// byte (the message of a key is that of its first occurrence in document
// order); rule errors and input errors are not recorded.
func TestRecorderAsNew(t *testing.T) {
	ds := []engine.Diagnostic{
		diag("a.yaml", "r1", "", "/x", 4, "second"),
		diag("a.yaml", "r1", "", "/x", 3, "first"),
		diag("a.yaml", "r1", "c", "/x", 5, "m3"),
		diag("sub/c.json", "r1", "", "/a~1b/0", 9, "m5"),
		diag("b.yaml", "r2", "", "", 1, "b"),
		diag("b.yaml", "r2", "", "", 1, "a"),
		ruleError("a.yaml", "r3"),
		inputError("d.yaml"),
	}
	want := write(t, New(ds, "."))
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1, 0}, {2, 5, 0, 7, 3, 1, 6, 4}} {
		r := NewRecorder(".")
		var wg sync.WaitGroup
		for _, i := range order {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.Add(ds[i])
			}()
		}
		wg.Wait()
		if got := write(t, r.Baseline()); got != want {
			t.Errorf("order %v:\n%s\nwant\n%s", order, got, want)
		}
		if r.Len() != 6 {
			t.Errorf("order %v: %d recorded, want 6", order, r.Len())
		}
	}
}

// TestFilter: a filter hides, one finding at a time, what Apply hides of
// the same findings when the run has no more of a key than recorded, and
// counts the same hidden and gone findings; of a key found more often than
// recorded, it hides the first asked about.
func TestFilter(t *testing.T) {
	recorded := []engine.Diagnostic{
		diag("a.yaml", "r", "", "/x", 10, "x"),
		diag("a.yaml", "r", "", "/y", 11, "y"),
		diag("a.yaml", "r", "", "/y", 11, "y2"),
		diag("a.yaml", "r", "c", "/z", 13, "z"),
	}
	b := roundTrip(t, New(recorded, "."))
	run := []engine.Diagnostic{
		diag("a.yaml", "r", "", "/y", 41, "y"),
		ruleError("a.yaml", "r"),
		diag("a.yaml", "r", "", "/x", 40, "moved"),
		diag("a.yaml", "r", "", "/new", 42, "new"),
		inputError("a.yaml"),
	}
	res := b.Apply(run, ".")
	f := b.Filter(".")
	f.Checked("a.yaml")
	var kept []engine.Diagnostic
	for _, d := range run {
		if !f.Hide(d) {
			kept = append(kept, d)
		}
	}
	got := f.Result()
	if !slices.Equal(messages(kept), messages(res.Kept)) || got.Hidden != res.Hidden || got.Gone != res.Gone || !slices.Equal(got.GoneKeys, res.GoneKeys) {
		t.Errorf("filter: kept %q, %+v; Apply: kept %q, %+v", messages(kept), got, messages(res.Kept), res)
	}
	f = b.Filter(".")
	var hidden []string
	for _, m := range []string{"c", "a", "b"} {
		if f.Hide(diag("a.yaml", "r", "", "/y", 11, m)) {
			hidden = append(hidden, m)
		}
	}
	if !slices.Equal(hidden, []string{"c", "a"}) {
		t.Errorf("hidden %q, want the first two asked about", hidden)
	}
	// Only the files checked have findings gone.
	b = roundTrip(t, New(append(recorded, diag("b.yaml", "r", "", "/x", 1, "x")), "."))
	for _, tc := range []struct {
		checked []string
		gone    int
	}{{nil, 0}, {[]string{"a.yaml"}, 4}, {[]string{"b.yaml"}, 1}, {[]string{"./a.yaml", "b.yaml"}, 5}} {
		f := b.Filter(".")
		for _, c := range tc.checked {
			f.Checked(c)
		}
		if got := f.Result(); got.Gone != tc.gone || len(got.GoneKeys) > tc.gone {
			t.Errorf("checked %q: gone %d %v, want %d", tc.checked, got.Gone, got.GoneKeys, tc.gone)
		}
	}
	if (*Baseline)(nil).Filter(".").Hide(run[0]) {
		t.Error("a nil baseline's filter hid a finding")
	}
}

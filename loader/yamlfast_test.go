package loader

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/celint/celint/internal/benchgen"
	"github.com/celint/celint/internal/sharedtest"
)

// fastYAMLOptions are the option sets the fast path is compared under: the
// defaults, and everything allowed.
var fastYAMLOptions = []Options{
	DefaultOptions(),
	{Limits: Limits{Values: 20_000, Depth: 64}},
}

// compareFastYAML parses data by the fast path and by yaml/v4 and returns
// whether the fast path accepted it, and the first difference when it did
// ("" when the documents are the same).
func compareFastYAML(data []byte, opts Options) (accepted bool, diff string) {
	data = slices.Clip(data) // so that reading past its end panics, as it would on a file's bytes
	opts.Limits = opts.Limits.withDefaults()
	if checkEncoding("f.yaml", data) != nil || checkYAMLChars("f.yaml", data) != nil {
		return false, ""
	}
	fb := &builder{file: "f.yaml", opts: opts}
	root, ok := parseBlockYAML(fb, data)
	if !ok {
		return false, ""
	}
	fast, _ := newDocument("f.yaml", "yaml", root, data, fb.values, fb.depth)
	sb := &builder{file: "f.yaml", opts: opts}
	sroot, err := parseYAMLWith(sb, data, false, false)
	if err != nil {
		return true, "the fast path accepted what yaml/v4's front end refuses: " + err.Error()
	}
	slow, _ := newDocument("f.yaml", "yaml", sroot, data, sb.values, sb.depth)
	return true, sameDocument(fast, slow)
}

// blockYAML re-encodes a JSON or YAML document as block YAML, as an
// encoder writes it, two or four spaces an indent level.
func blockYAML(t *testing.T, data []byte, indent int) []byte {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil
	}
	var unflow func(*yaml.Node)
	unflow = func(n *yaml.Node) {
		n.Style &^= yaml.FlowStyle
		for _, c := range n.Content {
			unflow(c)
		}
	}
	unflow(&n)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(indent)
	if err := enc.Encode(&n); err != nil {
		return nil
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFastYAMLAgrees: every document the block-YAML fast path accepts is
// the document yaml/v4's front end builds, node by node (positions,
// styles, values, member order, counts), under each option set; and the
// fast path accepts the documents it is for. The documents: the
// hand-written cases below, the repository's and the shared folder's YAML
// files, and every JSON and YAML file of the shared folder re-encoded as
// block YAML.
func TestFastYAMLAgrees(t *testing.T) {
	cases := map[string]bool{ // document → whether the fast path takes it when everything is allowed
		"a: 1\n":                                 true,
		"a: 1":                                   true,
		"  a: 1\n  b: 2\n":                       true,
		"# c\na: x # c\n\n  # c\nb: 'it''s'\n":   true,
		"a:\n  b:\n    c: \"q\\\"\\u00e9\\n\"\n": true,
		"a:\n- 1\n- 2\nb: 3\n":                   true,
		"- a: 1\n  b:\n  - x\n  c: 2\n- - y\n  - z\n-   k: v\n": true,
		"a:\n  -\n    b: 1\n":                                       true,
		"a:\n  value\nb: -1\nc: -x\n":                               true,
		"é: ü\n\"é😀\": 'ä': x\n":                                    false, // "'ä': x" is not a value
		"é: ü\n\"é😀\": 'ä'\nk: é😀 x: y\n":                           false,
		"é: ü\n\"é😀\": 'ä'\nk: é😀:y\n":                              true,
		"1: a\ntrue: b\nnull: c\n~: d\n0x1F: e\n.inf: f\n":          true,
		"a: .inf\nb: .nan\nc: 1e3\nd: 0.5\ne: 2026-08-25\nf: 0b1\n": true,
		"a: 1\na: 2\n":                       true,
		"url: https://x.example/a#b?c\n":     true,
		"a: b:c\n":                           true,
		"a: b: c\n":                          false,
		"a: {}\nb: []\nc:\n- {} # c\n- []\n": true,
		"a: [ ]\n":                           true,
		"a: {} x\n":                          false,
		"a: []#c\n":                          false,
		"a: [1, 2]\n":                        true,
		"a: [1, 'x', \"y\", [], {}, [2, [3]], {b: c d, 'e': [f], \"g\": {h: 1e3}}] # c\n": true,
		"- {a: 1, a: 2}\n- [ -1 , .5 , null, ~, true ]\n":                                 true,
		"a: [1, 2,]\n":    false,
		"a: [1, , 2]\n":   false,
		"a: [1\n  , 2]\n": true,
		"a: [1, # c\n\n  # c\n     2, {b: 3,\n  c: [4]}\n  ] # c\nd: 5\n": true,
		"- {a: 1,\n   b: 2}\n- [x,\n  y]\n":                               true,
		"a: [1,\n2]\n":                                                    false,
		"a: [1,\n  2\n":                                                   false,
		"a: [1,#c\n  2]\n":                                                false,
		"a: [b\n  c]\n":                                                   false,
		"a: {b:\n  1}\n":                                                  false,
		"a: [1,\n  2] x\n":                                                false,
		"a: [a: b]\n":                                                     false,
		"a: {b}\n":                                                        false,
		"a: {b: }\n":                                                      false,
		"a: {b:c}\n":                                                      false,
		"a: {\"b\":c}\n":                                                  false,
		"- [0?]\n":                                                        false,
		"a: {b?: 1}\n":                                                    false,
		"a: b?c\n":                                                        true,
		"a: [x:y]\n":                                                      false,
		"a: [b #c]\n":                                                     false,
		"a: [b#c]\n":                                                      true,
		"a: [&x 1]\n":                                                     false,
		"a: [? b]\n":                                                      false,
		"a: [1] x\n":                                                      false,
		"a: [1]#x\n":                                                      false,
		"a: [é, {ü: 'ö'}]\n":                                              true,
		"[1, 2]\n":                                                        false,
		"a: {<<: {b: 1}}\n":                                               false,
		"a: {1: x, null: y}\n":                                            true,
		"a: {b: 1}\n":                                                     true,
		"a: &x 1\nb: *x\n":                                                false,
		"a: !!str 1\n":                                                    false,
		"a: |\n  x\n":                                                     true,
		"a: >\n  x\n":                                                     true,
		"a: |-\n  x\n\n  y\n\n\nb: 1\n":                                   true,
		"a: |+\n  x\n\n   y\n  \n\nb: 1\n":                                true,
		"a: >\n  x\n  y\n\n  z\n   w\n  v\n# c\nb: >- # c\n  q\n": true,
		"- >+\n  x\n  \n- |\n   y\n  z\n":                         false,
		"- >+\n  x\n  \n- |\n   y\n   z":                          true,
		"a:\n  - b: |\n      x\n    c: 1\n":                       true,
		"a: |2\n   x\n":                                           false,
		"a: |\n\n  x\n":                                           false,
		"a: |\nb: 1\n":                                            false,
		"a: |x\n  y\n":                                            false,
		"---\na: |\n  x\n  ---\n":                                 true,
		"a: |\n x\n\ty\n":                                         false,
		"a:\n":                                                    true,
		"a:\nb: 1\n":                                              true,
		"- \n- a\n":                                               true,
		"a:   # c\nb: 1\n":                                        true,
		"k:\n  a:\n  b: 1\n":                                      true,
		"- a:\n  b:\n-\n-  # c\n- x\n":                            true,
		"a:\n\n\n# c\n":                                           true,
		"a:\n  # c\nb:\n- \n  # c\n- x\n":                         true,
		"a: x\n  y\n":                                             true,
		"a: x\n  y  z \n\n\n   w\nb: 1\n":                         true,
		"- x\n y\n- k: v\n   w\n  l: 1\n":                         true,
		"a: x\n  # c\n  y\n":                                      false,
		"a: x\n  y: z\n":                                          false,
		"a: x\n  y #c\n":                                          false,
		"a: x\n  - y\n":                                           false,
		"a: 1\n  2\n":                                             true,
		"a: x #c\n  y\n":                                          false,
		"a:\n  x\n  y\nb: 2\n":                                    true,
		"a: x\n\n":                                                true,
		"a: x\n  \n  y\n  ":                                       true,
		"a: 'x\n  y'\n":                                           true,
		"a: 'x  \n\n\n   y '' z  \n  w'\nb: 1\n":                  true,
		"- \"a \\u00e9 \n  b\\t \n\n  c\" # c\n- 'x\n y'\n": true,
		"a: 'x\ny'\n":                            false,
		"a: \"x\\\n  y\"\n":                      false,
		"a: 'x\n  y' z\n":                        false,
		"a: 'x\n  y\n":                           false,
		"a: 'x\n  y\n  'b: 1\n":                  false,
		"'a\n  b': 1\n":                          false,
		"a: \"x\n  \"\n":                         true,
		"a: \"x\n  y\"\n":                        true,
		"---\na: 1\n":                            true,
		"# c\n--- # c\n\na: 1\n":                 true,
		"---\n---\na: 1\n":                       false,
		"--- a: 1\n":                             false,
		"a: 1\n---\nb: 2\n":                      false,
		"%":                                      false,
		"-":                                      true,
		"--":                                     false,
		"a: 1\n%":                                false,
		"a: 1\n--":                               false,
		"%YAML 1.2\n---\na: 1\n":                 false,
		"a:\tb\n":                                false,
		"a: 1\r\nb: 2\r\n":                       true,
		"a: 1\r\n# c\r\n\r\nb:\r\n- 'x' # c\r\n": true,
		"a: 1\rb: 2\n":                           false,
		"a: 1\r":                                 false,
		"a: x\r y\r\n":                           false,
		"? a\n: b\n":                             false,
		"<<: {a: 1}\n":                           false,
		"a : 1\n":                                false,
		"a: 1\n b: 2\n":                          false,
		"a:\n  b: 1\n c: 2\n":                    false,
		"- a\n  - b\n":                           false,
		"a: \"\\N\"\n":                           false,
		"a: \"\\ud800\"\n":                       false,
		"a: 'x' y\n":                             false,
		"a: 'x'#y\n":                             false,
		"a: 'x' #y\n":                            true,
		"plain\n":                                false,
		"":                                       false,
		"a: 1\n- b\n":                            false,
		"a: 99999999999999999999\n":              false,
		"a: @x\n":                                false,
		"a: `x\n":                                false,
	}
	var docs [][]byte
	for text, want := range cases {
		for i, opts := range fastYAMLOptions {
			got, diff := compareFastYAML([]byte(text), opts)
			if i == 1 && got != want {
				t.Errorf("%q: fast path took it: %v, want %v", text, got, want)
			}
			if diff != "" {
				t.Errorf("%q: %s", text, diff)
			}
		}
	}
	var files []string
	root, err := sharedtest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	// The repository's own YAML and JSON (its rulesets, test data and
	// examples), and the shared corpus beside it when it is there.
	dirs := []string{root}
	if shared := sharedtest.Optional(t); shared != "" {
		dirs = append(dirs, shared)
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			switch filepath.Ext(path) {
			case ".yaml", ".yml", ".json":
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(f) != ".json" {
			docs = append(docs, data)
			// The upstream example descriptions, written by hand, and the
			// embedded rule files are what the fast path is for.
			if strings.Contains(filepath.ToSlash(f), "/spec/draft/examples/") || strings.Contains(filepath.ToSlash(f), "/rulesets/") {
				if ok, _ := compareFastYAML(data, fastYAMLOptions[1]); !ok {
					t.Errorf("%s: the fast path refuses it", f)
				}
			}
		}
		for _, indent := range []int{2, 4} {
			if b := blockYAML(t, data, indent); b != nil {
				docs = append(docs, b)
				if indent == 2 {
					docs = append(docs, bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
				}
			}
		}
	}
	big := benchgen.DescriptionYAML(50)
	docs = append(docs, big)
	accepted := 0
	for _, data := range docs {
		for _, opts := range fastYAMLOptions {
			ok, diff := compareFastYAML(data, opts)
			if diff != "" {
				t.Fatalf("%s\n%s", diff, truncate(data))
			}
			if ok {
				accepted++
			}
		}
	}
	if ok, _ := compareFastYAML(big, DefaultOptions()); !ok {
		t.Error("the fast path refuses the benchmark description")
	}
	t.Logf("%d documents, the fast path took %d of %d parses", len(docs), accepted, 2*len(docs))
	if accepted < len(docs) {
		t.Errorf("the fast path took only %d of %d parses", accepted, 2*len(docs))
	}
}

// TestFastYAMLLimits: a document that crosses a limit is left to yaml/v4's
// front end, which reports it as before.
func TestFastYAMLLimits(t *testing.T) {
	deep := strings.Repeat("- ", 80) + "x\n"
	long := "a: " + strings.Repeat("x", 100) + "\n"
	many := strings.Repeat("- 1\n", 300)
	for _, c := range []struct {
		text   string
		limits Limits
		want   string
	}{
		{deep, Limits{Depth: 64}, "nesting depth exceeds the limit of 64"},
		{long, Limits{ScalarBytes: 50}, "more than the limit of 50 bytes"},
		{many, Limits{Values: 100}, "more than 100 values"},
		{"a: 1\na: 2\n", Limits{}, "duplicate key"},
	} {
		opts := DefaultOptions()
		opts.Limits = c.limits
		_, err := Parse("l.yaml", []byte(c.text), opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.20q: %v, want an error with %q", c.text, err, c.want)
		}
		opts.Limits = DefaultLimits()
		if _, err := Parse("l.yaml", []byte(c.text), opts); err != nil && !strings.Contains(c.want, "duplicate") {
			t.Errorf("%.20q within the default limits: %v", c.text, err)
		}
	}
}

func FuzzFastYAML(f *testing.F) {
	for _, s := range []string{
		"a: 1\nb:\n  - x\n  - 'y'\n  - \"z\\t\"\nc:\n- k: v\n  l: w # c\n",
		"- - a\n  - b\n- c: d\n",
		"é: ü\nk: é😀:y\n",
		"a: 1\na: 2\n",
		"1: a\n~: b\n",
		"a: 1\r\nb:\r\n- x\r\n",
		"---\na: |\n  x\n\n  y\nb: >-\n  p\n  q\n\n   r\n",
		"a: [1, 'x', {b: c, \"d\": [e]}, # c\n  f]\nb: {}\n",
		"a: x\n  y\n\n  z\nb: 'p\n  q'\nc: \"r\n\n  s\"\n",
		"a:\n- \n-\n  # c\nb:  # c\nc:\n  d:\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opts := range fastYAMLOptions {
			if _, diff := compareFastYAML(data, opts); diff != "" {
				t.Fatal(diff)
			}
		}
	})
}

// TestFastYAMLDeep: the fast path reads nesting down to the hard ceiling
// (MaxDepth) without failing, in linear time, and agrees with yaml/v4's
// front end at a depth it reads quickly.
func TestFastYAMLDeep(t *testing.T) {
	opts := Options{Limits: Limits{Depth: MaxDepth}}
	opts.Limits = opts.Limits.withDefaults()
	deep := []byte(strings.Repeat("- ", MaxDepth-1) + "x\n")
	b := &builder{file: "d.yaml", opts: opts}
	if _, ok := parseBlockYAML(b, deep); !ok || b.depth != MaxDepth-1 {
		t.Errorf("a %d-deep sequence: taken %v, depth %d", MaxDepth-1, ok, b.depth)
	}
	var nested strings.Builder // each entry a mapping whose value is a sequence at its key's column
	for i := range 150 {
		nested.WriteString(strings.Repeat("  ", i) + "- a:\n")
	}
	nested.WriteString(strings.Repeat("  ", 150) + "- x\n")
	for _, text := range []string{strings.Repeat("- ", 300) + "x\n", nested.String()} {
		ok, diff := compareFastYAML([]byte(text), opts)
		if !ok || diff != "" {
			t.Errorf("%.30q: taken %v; %s", text, ok, diff)
		}
	}
}

// TestFastYAMLLongLine: the nodes of one long line (a flow sequence of half
// a million entries, some with characters of several bytes) get their
// columns in characters; counting them is linear in the line (it was
// quadratic, and a 4 MiB line of TestHostileDocuments ran for minutes).
func TestFastYAMLLongLine(t *testing.T) {
	const n = 500_000
	var sb strings.Builder
	sb.WriteString("é: [")
	for i := range n {
		if i > 0 {
			sb.WriteString(", ")
		}
		if i%2 == 0 {
			sb.WriteString("ü")
		} else {
			sb.WriteString("0")
		}
	}
	sb.WriteString("]\n")
	opts := Options{Limits: Limits{Values: 2 * n}}
	opts.Limits = opts.Limits.withDefaults()
	b := &builder{file: "l.yaml", opts: opts}
	root, ok := parseBlockYAML(b, []byte(sb.String()))
	if !ok {
		t.Fatal("the fast path refuses the long line")
	}
	seq := root.Member("é")
	if seq == nil || seq.Len() != n {
		t.Fatalf("got %v", seq)
	}
	// "é: [" is 4 characters; each entry and its ", " are 3.
	for _, i := range []int{0, 1, n/2 + 1, n - 1} {
		if got, want := seq.Children()[i].Pos, (Pos{Line: 1, Col: int32(5 + 3*i)}); got != want {
			t.Errorf("entry %d at %v, want %v", i, got, want)
		}
	}
}

package rulesets_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/benchgen"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
	"go.yaml.in/yaml/v4"
)

// The workload of ../shared/bench (see its README), generated in Go by
// internal/benchgen: 5,000 tools (about 9.3 MB of JSON), linted with the
// embedded rulesets, optionally with the 100 synthetic rules of
// genrules.py overlaid as a --rules folder. Each benchmark reports, in one
// run, the engine's time (reading plus linting) as a ratio of a plain
// decoder reading the same bytes.
//
// CELINT_BENCH_TOOLS sets another number of tools, for the growth figures
// (time per tool from 500 to 50,000 tools) or for quicker comparisons.
const defaultWorkloadTools = 5000

func workloadTools(b *testing.B) int {
	if s := os.Getenv("CELINT_BENCH_TOOLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("CELINT_BENCH_TOOLS=%q: want a positive number of tools", s)
		}
		return n
	}
	return defaultWorkloadTools
}

// BenchmarkWorkloadJSON is the workload's JSON description with the
// embedded rulesets; engine/json is reading plus linting over
// encoding/json decoding the same bytes into any.
func BenchmarkWorkloadJSON(b *testing.B) {
	cat := workloadCatalog(b, "")
	benchWorkload(b, cat, "big.json", benchgen.Description(workloadTools(b)), "json", decodeJSON)
}

// BenchmarkWorkloadJSONSynthetic is BenchmarkWorkloadJSON with the 100
// synthetic rules of genrules.py overlaid as a rules folder, as
// `celint check --rules DIR` does: the headline figure of the workload.
func BenchmarkWorkloadJSONSynthetic(b *testing.B) {
	dir := b.TempDir()
	if err := benchgen.WriteRules(dir, 100); err != nil {
		b.Fatal(err)
	}
	cat := workloadCatalog(b, dir)
	benchWorkload(b, cat, "big.json", benchgen.Description(workloadTools(b)), "json", decodeJSON)
}

// BenchmarkWorkloadJSONDistinct is BenchmarkWorkloadJSONSynthetic with
// each synthetic rule's tests made its own (" && <rule number> >= 0" after
// each assert and forbid). Ten rules of each template differ in their
// messages only, or in their schema fragments, for half of the templates:
// such rules are linted once for all of them (engine/share.go). Here none
// is, so that the figure is that of a hundred rules that each test
// something else.
func BenchmarkWorkloadJSONDistinct(b *testing.B) {
	dir := b.TempDir()
	if err := benchgen.WriteRules(dir, 100); err != nil {
		b.Fatal(err)
	}
	if err := makeDistinct(dir); err != nil {
		b.Fatal(err)
	}
	cat := workloadCatalog(b, dir)
	benchWorkload(b, cat, "big.json", benchgen.Description(workloadTools(b)), "json", decodeJSON)
}

// makeDistinct rewrites the rule files of dir (JSON, as genrules.py writes
// them), giving each assert and forbid a term of its own. The text is
// edited in place: decoding it into maps would reorder the variables,
// which may refer to the ones before them.
func makeDistinct(dir string) error {
	files, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	test := regexp.MustCompile(`"(assert|forbid)": ("(?:[^"\\]|\\.)*")`)
	n := 0
	for _, f := range files {
		path := filepath.Join(dir, f.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		before := n
		data = test.ReplaceAllFunc(data, func(m []byte) []byte {
			parts := test.FindSubmatch(m)
			var expr string
			if err := json.Unmarshal(parts[2], &expr); err != nil {
				panic(err) // (a JSON string, as matched)
			}
			n++
			text, _ := json.Marshal(fmt.Sprintf("(%s) && %d >= 0", expr, n))
			return fmt.Appendf(nil, "%q: %s", parts[1], text)
		})
		if n == before {
			return fmt.Errorf("%s: no assert or forbid", path)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkWorkloadYAML is the same description as block YAML with the
// embedded rulesets; engine/yaml is reading plus linting over yaml/v4
// parsing the same bytes into a yaml.Node.
func BenchmarkWorkloadYAML(b *testing.B) {
	cat := workloadCatalog(b, "")
	benchWorkload(b, cat, "big.yaml", benchgen.DescriptionYAML(workloadTools(b)), "yaml", decodeYAML)
}

func decodeJSON(data []byte) error {
	var v any
	return json.Unmarshal(data, &v)
}

func decodeYAML(data []byte) error {
	var n yaml.Node
	return yaml.Unmarshal(data, &n)
}

// workloadCatalog returns the embedded rulesets, each with the rule files
// of dir added when dir is not "", as cmd/celint applies a --rules folder
// without a ruleset header.
func workloadCatalog(b *testing.B, dir string) *engine.Catalog {
	b.Helper()
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if dir == "" {
		return cat
	}
	cat, err = cat.WithFolder(engine.Folder{FS: os.DirFS(dir), Dir: ".", Name: dir})
	if err != nil {
		b.Fatal(err)
	}
	return cat
}

// benchWorkload chooses the document's ruleset once, as `celint check`
// does by the version it declares, then times reading plus linting against
// decode on the same bytes (the median of three decodes), each iteration,
// every phase from a collected heap. It reports the diagnostics and
// rule errors of the last lint, and logs each rule that failed and the
// first few findings.
func benchWorkload(b *testing.B, cat *engine.Catalog, name string, data []byte, decoder string, decode func([]byte) error) {
	_, rs, err := cat.Load(name, data, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var lint, parse, dec time.Duration
	var diags []engine.Diagnostic
	for b.Loop() {
		// Each phase starts from a collected heap, so that neither pays
		// for the other's garbage, and the floor does not mark celint's
		// tree: celint's own collections during reading and linting count.
		runtime.GC()
		t0 := time.Now()
		doc, err := loader.Parse(name, data, rs.LoadOptions)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		// As celint check lints a single file: its rules spread over
		// every core.
		diags, err = rs.Lint(context.Background(), doc, engine.LintOptions{Workers: runtime.GOMAXPROCS(0)})
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		doc = nil
		// The floor is the median of three decodes of the same bytes.
		var floors [3]time.Duration
		for i := range floors {
			runtime.GC()
			t := time.Now()
			if err := decode(data); err != nil {
				b.Fatal(err)
			}
			floors[i] = time.Since(t)
		}
		slices.Sort(floors[:])
		parse += t1.Sub(t0)
		lint += t2.Sub(t1)
		dec += floors[1]
	}
	ruleErrors := map[string]string{} // rule id → its first error
	nErrors, logged := 0, 0
	for _, d := range diags {
		if !d.RuleError && logged < 5 {
			b.Logf("finding: %s %s at %q: %s", d.Severity, d.RuleID, d.Pointer, d.Message)
			logged++
		}
		if d.RuleError {
			nErrors++
			if _, ok := ruleErrors[d.RuleID]; !ok {
				ruleErrors[d.RuleID] = fmt.Sprintf("%s: %s", d.Pointer, d.Message)
			}
		}
	}
	ids := make([]string, 0, len(ruleErrors))
	for id := range ruleErrors {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		b.Logf("rule error: %s at %s", id, ruleErrors[id])
	}
	n := float64(b.N)
	b.ReportMetric(float64(len(data))/1e6, "MB")
	b.ReportMetric(float64(len(rs.Rules)), "rules")
	b.ReportMetric(float64(len(diags)), "diags")
	b.ReportMetric(float64(nErrors), "rule-errors")
	b.ReportMetric(float64(parse.Milliseconds())/n, "parse-ms/op")
	b.ReportMetric(float64(lint.Milliseconds())/n, "rules-ms/op")
	b.ReportMetric(float64(dec.Milliseconds())/n, decoder+"-ms/op")
	b.ReportMetric(float64(parse+lint)/float64(dec), "engine/"+decoder)
}

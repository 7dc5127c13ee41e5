package conformance_test

// Acceptance tests of the mcpdesc ruleset against the upstream fixture
// corpus and the reference validator's verdicts, read from ../shared (and
// skipped with a message where it is absent, never under CI=true).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/jsonpointer"
	"github.com/celint/celint/internal/sharedtest"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// corpora are the fixture folders of the upstream corpus, by spec folder.
var corpora = []string{"draft", "0.8.0"}

// part1Codes are the reference codes of the areas of "mcpdesc ruleset,
// part 1": structure, versions and scopes, transports, capabilities and
// extensions, security, tags, _meta and client requirements.
var part1Codes = []string{
	"protocol-scope-outside-parent", "transport-coverage-gap", "capability-scope-overlap", "primitive-scope-overlap",
	"transport-not-supported-by-version", "legacy-sse-for-modern-version", "legacy-protocol-validation-incomplete",
	"field-not-supported-by-version", "resource-annotation-not-supported-by-version",
	"tasks-core-not-valid-in-2026", "extensions-not-supported-by-version", "logging-deprecated-in-2026",
	"unknown-reserved-extension-identifier", "experimental-reserved-extension-identifier",
	"unknown-security-scheme", "duplicate-security-scope", "non-oauth-scope-misuse", "uncatalogued-oauth-scope",
	"duplicate-root-tag", "unknown-tag-reference",
	"meta-key-invalid", "meta-reserved-key-context", "meta-reserved-key-value", "meta-unknown-reserved-key",
	"client-requirement-version-mismatch", "invalid-client-requirement-value", "deprecated-client-requirement",
}

// part1Roots are the root members whose objects part 1 describes: a
// schema-validation location under one of them (or at the root) counts.
var part1Roots = []string{"mcpdesc", "$schema", "info", "protocolVersions", "transports", "securitySchemes",
	"security", "capabilities", "tags", "instructions", "_meta"}

type refDiag struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Path     []any  `json:"path"`
	Message  string `json:"message"`
}

type refVerdict struct {
	File        string    `json:"file"`
	Valid       bool      `json:"valid"`
	Diagnostics []refDiag `json:"diagnostics"`
}

func (d refDiag) pointer() string {
	toks := make([]string, len(d.Path))
	for i, p := range d.Path {
		switch v := p.(type) {
		case string:
			toks[i] = v
		case float64:
			toks[i] = strconv.Itoa(int(v))
		default:
			toks[i] = fmt.Sprint(v)
		}
	}
	return jsonpointer.Join(toks...)
}

// inPart1 reports whether a reference diagnostic belongs to part 1.
func (d refDiag) inPart1() bool {
	if d.Code != "schema-validation" {
		return slices.Contains(part1Codes, d.Code)
	}
	if len(d.Path) <= 1 {
		return true // a root member, missing or unknown
	}
	first, _ := d.Path[0].(string)
	return slices.Contains(part1Roots, first)
}

func readVerdicts(t *testing.T, corpus string) []refVerdict {
	t.Helper()
	f, err := os.Open(sharedtest.Path(t, "reference", "reference-verdicts-"+corpus+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refVerdict
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var v refVerdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// lintFixture lints one fixture as celint check --spec does: a fixture of
// spec/0.8.0 with mcpdesc@v0.8.0, one of spec/draft with
// mcpdesc@v0.9.0-rc.3. ok is false when the loader refused it (an input
// error).
func lintFixture(t *testing.T, cat *engine.Catalog, path string) (ds []engine.Diagnostic, ok bool) {
	t.Helper()
	tag := "v0.9.0-rc.3"
	if strings.Contains(filepath.ToSlash(path), "/spec/0.8.0/") {
		tag = "v0.8.0"
	}
	pinned, err := cat.Find(tag)
	if err != nil {
		t.Fatal(err)
	}
	doc, rs, err := cat.LoadFile(path, pinned)
	if err != nil {
		return nil, false
	}
	// Opt-in codes are left out, as celint check leaves them out when no
	// config file turns them on.
	ds, err = rs.Lint(context.Background(), doc, engine.LintOptions{Adjust: func(d *engine.Diagnostic) bool { return !d.OptIn }})
	if err != nil {
		t.Fatal(err)
	}
	return ds, true
}

// corpusCatalog is the embedded catalog, in which lintFixture pins each
// corpus's version.
func corpusCatalog(t *testing.T) *engine.Catalog {
	t.Helper()
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// specExampleFiles are the spec's complete examples, spec/draft/examples.
func specExampleFiles(t *testing.T) []string {
	t.Helper()
	dir := sharedtest.Path(t, "upstream", "mcpdesc-specification", "spec", "draft", "examples")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".json")) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

func fixtureFiles(t *testing.T, corpus, folder string) []string {
	t.Helper()
	dir := sharedtest.Path(t, "upstream", "mcpdesc-specification", "spec", corpus, "fixtures", folder)
	var out []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// TestCorpusNoFalsePositives: no rule reports anything on a valid fixture.
func TestCorpusNoFalsePositives(t *testing.T) {
	cat := corpusCatalog(t)
	n := 0
	for _, corpus := range corpora {
		for _, f := range fixtureFiles(t, corpus, "expected-valid") {
			ds, ok := lintFixture(t, cat, f)
			if !ok {
				t.Errorf("%s: the loader refuses a valid fixture", f)
			}
			for _, d := range ds {
				t.Errorf("%s: %s:%d:%d %s [%s] %s", corpus, filepath.Base(f), d.Line, d.Column, d.Pointer, d.RuleID, d.Message)
			}
			n++
		}
	}
	if n < 40 {
		t.Errorf("linted %d valid fixtures, want the 40 of both corpora", n)
	}
}

// TestCorpusNoRuleErrors: no rule fails on any fixture, nor on valid
// fixtures mutated the ways malformed documents are (a member deleted, a
// value of another JSON type, an unknown member added).
func TestCorpusNoRuleErrors(t *testing.T) {
	cat := corpusCatalog(t)
	rs := seedRuleset(t)
	for _, corpus := range corpora {
		for _, folder := range []string{"expected-valid", "expected-invalid", "expected-warning"} {
			for _, f := range fixtureFiles(t, corpus, folder) {
				ds, _ := lintFixture(t, cat, f)
				for _, d := range ds {
					if d.RuleError {
						t.Errorf("%s/%s: rule error: %v", corpus, filepath.Base(f), d)
					}
				}
			}
		}
	}
	// The spec's complete examples, as they are and mutated.
	examples := specExampleFiles(t)
	for _, f := range examples {
		ds, _ := lintFixture(t, cat, f)
		for _, d := range ds {
			if d.RuleError {
				t.Errorf("examples/%s: rule error: %v", filepath.Base(f), d)
			}
		}
	}
	mutated := 0
	var valid []string
	for _, corpus := range corpora {
		valid = append(valid, fixtureFiles(t, corpus, "expected-valid")...)
	}
	valid = append(valid, examples...)
	for _, f := range valid {
		doc, err := loader.ParseFile(f, rs.LoadOptions)
		if err != nil {
			continue
		}
		for i, m := range mutations(doc.Root.Value(), 7) {
			// Every mutation down to depth 4 (every 10th under the race
			// detector); deeper, where the examples' payloads are, every
			// 3rd (every 30th).
			keep := 1
			if m.depth > 4 {
				keep = 3
			}
			if raceEnabled {
				keep *= 10
			}
			if i%keep != 0 {
				continue
			}
			mutated++
			data, _ := json.Marshal(m.value)
			d, err := loader.Parse("mutated.json", data, rs.LoadOptions)
			if err != nil {
				continue
			}
			ds, err := rs.Lint(context.Background(), d, engine.LintOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range ds {
				if x.RuleError {
					t.Errorf("%s, %s: rule error: %v", filepath.Base(f), m.what, x)
				}
			}
		}
	}
	if mutated < 400 {
		t.Errorf("only %d mutated documents", mutated)
	}
	t.Logf("%d mutated documents, no rule error", mutated)
}

type mutation struct {
	what  string
	depth int // of the changed member or element
	value any
}

// mutations returns copies of v with one change each, at every object
// member and array element down to depth: the member deleted, its value
// replaced by values of other JSON types, and an unknown member added.
func mutations(v any, depth int) []mutation {
	var out []mutation
	var walk func(path []string, cur any, d int, rebuild func(any) any)
	walk = func(path []string, cur any, d int, rebuild func(any) any) {
		if d > depth {
			return
		}
		at := "/" + strings.Join(path, "/")
		switch t := cur.(type) {
		case map[string]any:
			out = append(out, mutation{"unknown member at " + at, d, rebuild(with(t, "zzUnknown", true))})
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				out = append(out, mutation{"deleted " + at + "/" + k, d + 1, rebuild(without(t, k))})
				for _, other := range []any{"text", int64(7), []any{int64(1)}, map[string]any{"k": "v"}, nil} {
					if jsonKind(other) != jsonKind(t[k]) {
						out = append(out, mutation{fmt.Sprintf("%s/%s as %s", at, k, jsonKind(other)), d + 1, rebuild(with(t, k, other))})
					}
				}
				k := k
				walk(append(path, k), t[k], d+1, func(x any) any { return rebuild(with(t, k, x)) })
			}
		case []any:
			for i := range t {
				i := i
				walk(append(path, strconv.Itoa(i)), t[i], d+1, func(x any) any {
					cp := slices.Clone(t)
					cp[i] = x
					return rebuild(cp)
				})
			}
		}
	}
	walk(nil, v, 0, func(x any) any { return x })
	return out
}

func with(m map[string]any, k string, v any) map[string]any {
	cp := make(map[string]any, len(m)+1)
	for a, b := range m {
		cp[a] = b
	}
	cp[k] = v
	return cp
}

func without(m map[string]any, k string) map[string]any {
	cp := make(map[string]any, len(m))
	for a, b := range m {
		if a != k {
			cp[a] = b
		}
	}
	return cp
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case bool:
		return "boolean"
	}
	return "number"
}

// near reports whether pointer p is q, its parent or its child.
func near(p, q string) bool {
	return p == q || strings.HasPrefix(p, q+"/") && !strings.Contains(p[len(q)+1:], "/") ||
		strings.HasPrefix(q, p+"/") && !strings.Contains(q[len(p)+1:], "/")
}

// deviation reports how a reference location we do not match by near is
// covered in a way the coverage matrix argues, or "" when it is not:
//   - oneOf branch: the reference schema's security-scheme oneOf is not
//     discriminated, so for a scheme it also reports what every other
//     scheme type would need. We discriminate on type, so any error of ours
//     in the same scheme covers the scheme's branch reports.
//     The same holds for an elicitation declaration, discriminated by mode.
//   - deeper: the reference reports an unsupported field at the object
//     that holds it (x-mcp-header at the tool's inputSchema); we report it
//     at the field itself, a descendant of the reference location.
//   - oneOf inline or reference: an example may be written inline or as a
//     Reference Object, a oneOf the reference schema does not discriminate,
//     so a defect of an inline example also gives "$componentRef is
//     missing", "must match exactly one schema" and the reference branch's
//     "no other members". We tell the two forms apart by $componentRef, so
//     any error of ours inside the same example covers those reports.
//
// discriminatedUnion returns the object, among those pointer tokens, that
// the reference schema writes as an undiscriminated oneOf and we
// discriminate: a security scheme (by type) or an elicitation declaration
// (by mode); "" when there is none.
func discriminatedUnion(parts []string) string {
	if len(parts) >= 3 && parts[1] == "securitySchemes" {
		return strings.Join(parts[:3], "/")
	}
	for i := len(parts) - 2; i >= 1; i-- {
		if parts[i] == "elicitations" {
			if _, err := strconv.Atoi(parts[i+1]); err == nil {
				return strings.Join(parts[:i+2], "/")
			}
		}
	}
	return ""
}

// deeperCodes are the reference codes reported at the object that holds
// the offending field, where we report the field itself.
var deeperCodes = map[string]bool{
	"field-not-supported-by-version": true, // x-mcp-header, at the inputSchema
}

// inlineOrReference returns the example entry (a member of an examples map
// or of a components example namespace) that a schema-validation location
// names or lies directly under, or "".
func inlineOrReference(ptr string) string {
	toks := strings.Split(ptr, "/")
	for n := len(toks); n >= 3 && n >= len(toks)-1; n-- {
		holder := toks[n-2]
		if holder == "examples" || holder == "interactionExamples" ||
			n >= 4 && toks[n-3] == "components" && strings.HasSuffix(holder, "Examples") {
			return strings.Join(toks[:n], "/")
		}
	}
	return ""
}

func deviation(r refDiag, ptr string, ds []engine.Diagnostic) string {
	parts := strings.Split(ptr, "/")
	for _, d := range ds {
		if d.Severity.String() != r.Severity {
			continue
		}
		if r.Code == "schema-validation" {
			if union := discriminatedUnion(parts); union != "" && (d.Pointer == union || strings.HasPrefix(d.Pointer, union+"/")) {
				return "oneOf branch: " + d.Pointer + " " + d.RuleID
			}
		}
		if deeperCodes[r.Code] && strings.HasPrefix(d.Pointer, ptr+"/") {
			return "deeper: " + d.Pointer + " " + d.RuleID
		}
		if r.Code == "schema-validation" {
			if x := inlineOrReference(ptr); x != "" && d.Severity == engine.Error && (d.Pointer == x || strings.HasPrefix(d.Pointer, x+"/")) {
				return "oneOf inline or reference: " + d.Pointer + " " + d.RuleID
			}
		}
	}
	return ""
}

// TestCorpusReferenceRecall: for every reference diagnostic of part 1's
// areas on an invalid or warning fixture, we report a diagnostic of the
// same severity at the same pointer, its parent or its child, or cover it
// by one of the argued deviations above. It prints the table of every such
// location and ours, and fails on any location left uncovered.
func TestCorpusReferenceRecall(t *testing.T) {
	cat := corpusCatalog(t)
	var found, deviated, total int
	var table strings.Builder
	fmt.Fprintf(&table, "%-60s %-45s %-8s %s\n", "fixture", "reference location (code)", "severity", "ours")
	for _, corpus := range corpora {
		root := sharedtest.Path(t, "upstream", "mcpdesc-specification")
		for _, v := range readVerdicts(t, corpus) {
			if !strings.Contains(v.File, "expected-invalid") && !strings.Contains(v.File, "expected-warning") {
				continue
			}
			var refs []refDiag
			for _, d := range v.Diagnostics {
				if d.inPart1() {
					refs = append(refs, d)
				}
			}
			if len(refs) == 0 {
				continue
			}
			ds, _ := lintFixture(t, cat, filepath.Join(root, v.File))
			for _, r := range refs {
				total++
				ptr := r.pointer()
				ours := "-"
				for _, d := range ds {
					if d.Severity.String() == r.Severity && near(d.Pointer, ptr) {
						ours = d.Pointer + " " + d.RuleID
						if d.Code != "" {
							ours += "/" + d.Code
						}
						found++
						break
					}
				}
				if ours == "-" {
					if dev := deviation(r, ptr, ds); dev != "" {
						ours = dev
						deviated++
					} else {
						t.Errorf("%s: reference %s %s at %s is not covered", v.File, r.Severity, r.Code, ptr)
					}
				}
				fmt.Fprintf(&table, "%-60s %-45s %-8s %s\n", strings.TrimPrefix(v.File, "spec/"), ptr+" ("+r.Code+")", r.Severity, ours)
			}
		}
	}
	t.Logf("part 1 location recall: %d of %d reference locations matched (%.1f%%), %d more covered by an argued deviation; %d uncovered\n%s",
		found, total, 100*float64(found)/float64(max(total, 1)), deviated, total-found-deviated, table.String())
	if total == 0 {
		t.Error("no reference locations of part 1's areas were read")
	}
}

// TestCorpusVerdicts: every fixture whose reference diagnostics are all of
// part 1's areas gets its folder's verdict from the whole ruleset: at least
// one error for expected-invalid, at least one warning and no error for
// expected-warning.
func TestCorpusVerdicts(t *testing.T) {
	cat := corpusCatalog(t)
	root := sharedtest.Path(t, "upstream", "mcpdesc-specification")
	var right, total int
	var wrong []string
	for _, corpus := range corpora {
		for _, v := range readVerdicts(t, corpus) {
			if len(v.Diagnostics) == 0 || !strings.Contains(v.File, "expected-invalid") && !strings.Contains(v.File, "expected-warning") {
				continue
			}
			if slices.ContainsFunc(v.Diagnostics, func(d refDiag) bool { return !d.inPart1() }) {
				continue
			}
			total++
			ds, ok := lintFixture(t, cat, filepath.Join(root, v.File))
			c := engine.Count(ds)
			switch {
			case !ok && strings.Contains(v.File, "expected-invalid"), // the loader refuses it: an input error
				strings.Contains(v.File, "expected-invalid") && c.Errors > 0,
				strings.Contains(v.File, "expected-warning") && c.Warnings > 0 && c.Errors == 0:
				right++
			default:
				wrong = append(wrong, fmt.Sprintf("%s (errors %d, warnings %d)", v.File, c.Errors, c.Warnings))
			}
		}
	}
	t.Logf("part 1 fixture verdicts: %d of %d right; wrong:\n  %s", right, total, strings.Join(wrong, "\n  "))
	if right < total || total == 0 {
		t.Errorf("%d of %d fixtures got their verdict", right, total)
	}
}

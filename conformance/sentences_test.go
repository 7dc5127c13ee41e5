package conformance_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/rulesets"
)

var updateMatrix = flag.Bool("update", false, "rewrite the sentence tables of the coverage matrices from the sentence suites")

// A sentence suite is one folder of YAML files per pinned version
// (testdata/sentences/<ruleset>/<tag>/): every normative sentence of that
// version's text, one row each, with the rules that enforce it and a
// document that breaks it and one that keeps it, or the argument that no
// document can show it.
type sentenceFile struct {
	Title string        `yaml:"title"`
	Rows  []sentenceRow `yaml:"rows"`
}

type sentenceRow struct {
	Section string `yaml:"section"`
	Quote   string `yaml:"quote"`
	// Level is must, must-not, should, should-not or may: a breaking
	// document's findings are errors for the first two, warnings for the
	// next two; a may row has no breaking document.
	Level string `yaml:"level"`
	// Severity info lets a should or should-not row be proven by info
	// findings in place of warnings: for a recommendation that the ruleset
	// reports as a note, not as a warning (one that a document the format
	// calls valid may break). Note says why; the matrix shows the row as
	// proven at info.
	Severity string `yaml:"severity"`
	// OptIn says the row's rules report it through an opt-in code
	// (engine.Code.OptIn), which celint reports where a config file names
	// it: the row's documents are linted with opt-in codes reported.
	OptIn bool `yaml:"optIn"`
	// Rules are the rule ids (every code of the rule) and id/code (that
	// code) that enforce the sentence; celint.input for the loader.
	Rules []string `yaml:"rules"`
	// Alongside are findings that other sentences require of every
	// document of the kind a row needs (the warning that validation of a
	// legacy protocol revision is incomplete, say): rule ids or id/code,
	// allowed in both documents beside the row's own findings. The
	// generated matrix lists them.
	Alongside []string `yaml:"alongside"`
	// Checkable false: no document shows the sentence; Note says why.
	Checkable *bool  `yaml:"checkable"`
	Note      string `yaml:"note"`
	// Breaks gets exactly findings of Rules, at the level's severity, at
	// least one; Keeps gets no finding at all. Both are YAML documents
	// that declare the version.
	Breaks string `yaml:"breaks"`
	Keeps  string `yaml:"keeps"`
	// BreaksBase64 and KeepsBase64 are documents given as base64, for
	// bytes a YAML text cannot hold (invalid UTF-8, a byte order mark);
	// they stand for Breaks and Keeps.
	BreaksBase64 string `yaml:"breaksBase64"`
	KeepsBase64  string `yaml:"keepsBase64"`
	// At, when given, is where the breaking document's own findings are:
	// JSON pointers, or line:col for an input error, which has none. Each
	// finding is at one of them, and each has one.
	At []string `yaml:"at"`

	line int
}

// suite is one version's sentence suite.
type suite struct {
	ruleset, tag, dir string
	files             []string
	data              []sentenceFile
	matrix            string
}

func loadSuites(t *testing.T) []*suite {
	t.Helper()
	var out []*suite
	for _, tc := range []struct{ tag, matrix string }{
		{"v0.7.0", "../docs/coverage/mcpdesc-v0.7.0.md"},
		{"v0.8.0", "../docs/coverage/mcpdesc-v0.8.0.md"},
		{"v0.9.0-rc.3", "../docs/coverage/mcpdesc-v0.9.0-rc.3.md"},
	} {
		s := &suite{ruleset: "mcpdesc", tag: tc.tag, dir: filepath.Join("..", "testdata", "sentences", "mcpdesc", tc.tag), matrix: tc.matrix}
		files, err := filepath.Glob(filepath.Join(s.dir, "*.yaml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no sentence files (%v)", s.dir, err)
		}
		sort.Strings(files)
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var node yaml.Node
			if err := yaml.Unmarshal(src, &node); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			var sf sentenceFile
			dec := yaml.NewDecoder(bytes.NewReader(src))
			dec.KnownFields(true)
			if err := dec.Decode(&sf); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			// The line of each row, for messages.
			if rows := mapValue(node.Content[0], "rows"); rows != nil {
				for i, r := range rows.Content {
					if i < len(sf.Rows) {
						sf.Rows[i].line = r.Line
					}
				}
			}
			s.files = append(s.files, f)
			s.data = append(s.data, sf)
		}
		out = append(out, s)
	}
	return out
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

var quoted = regexp.MustCompile(`"([^"]*)"`)

// rowStatus is what the suite proves of a row.
type rowStatus int

const (
	statusArgued  rowStatus = iota // not statically checkable, argued
	statusProven                   // both documents behave
	statusPending                  // checkable, without documents yet
	statusFailed                   // a document misbehaves
	statusPermits                  // a may row whose keeping document passes
)

// counts per version and file.
type sentenceCounts struct {
	sentences, checkable, proven, pending, argued, may int
}

func (c *sentenceCounts) add(level string, st rowStatus) {
	if level == "may" {
		c.may++
		return
	}
	c.sentences++
	switch st {
	case statusArgued:
		c.argued++
	case statusProven:
		c.checkable++
		c.proven++
	default:
		c.checkable++
		c.pending++
	}
}

// TestSentenceSuites runs every row of every version's sentence suite:
// a breaking document gets exactly findings of the rules the row names, at
// the severity of its level (or info, where a should or should-not row
// says severity: info); a keeping document gets none, not even an info. It then checks
// (or, with -update, rewrites) the sentence tables of the coverage
// matrices, which are generated from the suites.
func TestSentenceSuites(t *testing.T) {
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range loadSuites(t) {
		t.Run(s.tag, func(t *testing.T) {
			rs, err := cat.Find(s.tag)
			if err != nil {
				t.Fatal(err)
			}
			checker := lint.NewChecker(lint.NewRulesets(cat, rs), lint.Options{})
			optIn := lint.NewChecker(lint.NewRulesets(cat, rs), lint.Options{Filter: lint.Filter{OptIn: true}})
			var total sentenceCounts
			statuses := make([][]rowStatus, len(s.data))
			for fi, sf := range s.data {
				var fc sentenceCounts
				for ri := range sf.Rows {
					row := &sf.Rows[ri]
					where := fmt.Sprintf("%s:%d (§%s)", filepath.Base(s.files[fi]), row.line, row.Section)
					c := checker
					if row.OptIn {
						c = optIn
					}
					st := checkRow(t, c, rs, where, row)
					statuses[fi] = append(statuses[fi], st)
					fc.add(row.Level, st)
					total.add(row.Level, st)
				}
				t.Logf("%-58s sentences %3d  checkable %3d  proven %3d  pending %3d  argued %3d  may %2d", filepath.Base(s.files[fi]), fc.sentences, fc.checkable, fc.proven, fc.pending, fc.argued, fc.may)
			}
			t.Logf("%s: sentences %d, checkable %d, proven %d, pending %d, argued not checkable %d, permissions %d", s.tag, total.sentences, total.checkable, total.proven, total.pending, total.argued, total.may)
			checkMatrix(t, s, statuses, total)
		})
	}
}

// severityOf returns the severity a breaking document's findings have for
// a row: that of its level, or info where a should or should-not row says
// severity: info.
func severityOf(row *sentenceRow) (engine.Severity, bool) {
	switch row.Level {
	case "must", "must-not":
		return engine.Error, true
	case "should", "should-not":
		if row.Severity == "info" {
			return engine.Info, true
		}
		return engine.Warning, true
	}
	return 0, false
}

func checkRow(t *testing.T, checker *lint.Checker, rs *engine.Ruleset, where string, row *sentenceRow) rowStatus {
	t.Helper()
	if row.Section == "" || row.Quote == "" {
		t.Errorf("%s: a row needs a section and a quote", where)
	}
	for _, q := range quoted.FindAllStringSubmatch(row.Quote, -1) {
		if n := len(strings.Fields(strings.Trim(q[1], "…. "))); n > 12 {
			t.Errorf("%s: the quote has %d words, more than 12", where, n)
		}
	}
	sev, breaks := severityOf(row)
	if !breaks && row.Level != "may" {
		t.Errorf("%s: level %q: expected must, must-not, should, should-not or may", where, row.Level)
		return statusFailed
	}
	if row.Severity != "" && (row.Severity != "info" || row.Level != "should" && row.Level != "should-not") {
		t.Errorf("%s: severity %q: only a should or should-not row may say severity: info", where, row.Severity)
		return statusFailed
	}
	if row.Checkable != nil && !*row.Checkable {
		if len(row.Rules) > 0 || row.Breaks != "" || row.Keeps != "" || row.BreaksBase64 != "" || row.KeepsBase64 != "" {
			t.Errorf("%s: a row that is not checkable names no rules and has no documents", where)
		}
		if strings.TrimSpace(row.Note) == "" {
			t.Errorf("%s: a row that is not checkable says why in its note", where)
		}
		return statusArgued
	}
	if len(row.Rules) == 0 {
		t.Errorf("%s: a checkable row names the rules that enforce it (or says checkable: false)", where)
		return statusFailed
	}
	for _, id := range slices.Concat(row.Rules, row.Alongside) {
		rid, code, _ := strings.Cut(id, "/")
		if rid == lint.InputRuleID {
			continue
		}
		r := rs.Rule(rid)
		if r == nil {
			t.Errorf("%s: %s is no rule of %s", where, id, rs)
			continue
		}
		if code != "" && !slices.ContainsFunc(r.Codes, func(c engine.Code) bool { return c.Name == code }) {
			t.Errorf("%s: %s is no code of %s", where, id, rid)
		}
	}
	if !fromBase64(t, where, "breaks", row.BreaksBase64, &row.Breaks) || !fromBase64(t, where, "keeps", row.KeepsBase64, &row.Keeps) {
		return statusFailed
	}
	if row.Breaks == "" && row.Keeps == "" {
		return statusPending
	}
	ok := true
	if breaks {
		if row.Breaks == "" {
			t.Errorf("%s: a %s row with documents has a breaking one", where, row.Level)
			return statusFailed
		}
		res := checker.Lint(context.Background(), "breaks.yaml", []byte(row.Breaks))
		own := 0
		found := make([]bool, len(row.At))
		for _, d := range res.Diagnostics {
			if names(row.Alongside, d) {
				continue
			}
			own++
			if len(row.At) > 0 {
				i := slices.IndexFunc(row.At, func(a string) bool { return isAt(a, d) })
				if i < 0 {
					t.Errorf("%s: the breaking document gets %s/%s (%s) at %s (%d:%d), not where the row says (%q)", where, d.RuleID, d.Code, d.Message, d.Pointer, d.Line, d.Column, row.At)
					ok = false
				} else {
					found[i] = true
				}
			}
			named := names(row.Rules, d)
			if !named {
				t.Errorf("%s: the breaking document gets %s/%s (%s) at %s, which the row does not name", where, d.RuleID, d.Code, d.Message, d.Pointer)
				ok = false
			} else if d.Severity != sev && d.RuleID != lint.InputRuleID {
				t.Errorf("%s: the breaking document gets %s/%s as %s; this %s row wants a%s", where, d.RuleID, d.Code, d.Severity, row.Level, map[engine.Severity]string{engine.Error: "n error", engine.Warning: " warning", engine.Info: "n info"}[sev])
				ok = false
			}
		}
		if own == 0 {
			t.Errorf("%s: the breaking document gets no finding of its own; want %v", where, row.Rules)
			ok = false
		}
		for i, f := range found {
			if !f {
				t.Errorf("%s: the breaking document gets no finding at %s", where, row.At[i])
				ok = false
			}
		}
	} else if row.Breaks != "" {
		t.Errorf("%s: a may row has no breaking document", where)
		ok = false
	}
	if row.Keeps == "" {
		t.Errorf("%s: a row with documents has a keeping one", where)
		return statusFailed
	}
	res := checker.Lint(context.Background(), "keeps.yaml", []byte(row.Keeps))
	for _, d := range res.Diagnostics {
		if names(row.Alongside, d) {
			continue
		}
		t.Errorf("%s: the keeping document gets %s/%s (%s): %s at %s", where, d.RuleID, d.Code, d.Severity, d.Message, d.Pointer)
		ok = false
	}
	switch {
	case !ok:
		return statusFailed
	case !breaks:
		return statusPermits
	}
	return statusProven
}

// names reports whether ids (rule ids, or id/code) name the finding d.
func names(ids []string, d engine.Diagnostic) bool {
	return slices.ContainsFunc(ids, func(id string) bool {
		return id == d.RuleID || id == d.RuleID+"/"+d.Code
	})
}

// The generated parts of a coverage matrix sit between these markers: the
// counts, and each sentence file's table (its name after the colon).
const (
	countsBegin = "<!-- sentence counts: generated from testdata/sentences by go test ./conformance -run TestSentenceSuites -update -->"
	countsEnd   = "<!-- end of sentence counts -->"
	tableBegin  = "<!-- sentences: "
	tableEnd    = "<!-- end of sentences -->"
)

// checkMatrix checks that the matrix's generated parts are those of the
// suite, or rewrites them with -update.
func checkMatrix(t *testing.T, s *suite, statuses [][]rowStatus, total sentenceCounts) {
	t.Helper()
	data, err := os.ReadFile(s.matrix)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n| | count |\n|---|---|\n", countsBegin)
	fmt.Fprintf(&b, "| normative sentences (MUST, MUST NOT, REQUIRED, SHALL, SHOULD, SHOULD NOT) | %d |\n", total.sentences)
	fmt.Fprintf(&b, "| checkable by a document | %d |\n", total.checkable)
	fmt.Fprintf(&b, "| proven by a breaking and a keeping document | %d |\n", total.proven)
	fmt.Fprintf(&b, "| checkable, not yet proven by documents | %d |\n", total.pending)
	fmt.Fprintf(&b, "| argued not statically checkable | %d |\n", total.argued)
	fmt.Fprintf(&b, "| permissions (MAY) mapped | %d |\n\n%s", total.may, countsEnd)
	text, ok := replaceBetween(text, countsBegin, countsEnd, b.String())
	if !ok {
		t.Errorf("%s has no generated counts (%q … %q)", s.matrix, countsBegin, countsEnd)
	}
	for fi, sf := range s.data {
		name := filepath.Base(s.files[fi])
		begin := tableBegin + name + " -->"
		table := renderTable(sf, statuses[fi])
		var found bool
		text, found = replaceBetween(text, begin, tableEnd, begin+"\n\n"+table+"\n"+tableEnd)
		if !found {
			t.Errorf("%s has no table of %s (%q … %q)", s.matrix, name, begin, tableEnd)
		}
	}
	if text == string(data) {
		return
	}
	if *updateMatrix {
		if err := os.WriteFile(s.matrix, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is not what its sentence suite generates: run go test ./conformance -run TestSentenceSuites -update", s.matrix)
}

// replaceBetween replaces the text from begin to end (both included) with
// repl.
func replaceBetween(text, begin, end, repl string) (string, bool) {
	i := strings.Index(text, begin)
	if i < 0 {
		return text, false
	}
	j := strings.Index(text[i:], end)
	if j < 0 {
		return text, false
	}
	return text[:i] + repl + text[i+j+len(end):], true
}

func renderTable(sf sentenceFile, statuses []rowStatus) string {
	var b strings.Builder
	b.WriteString("| § | quote (≤12 words) | level | rule id / code | proven | note |\n|---|---|---|---|---|---|\n")
	for i, r := range sf.Rows {
		rules := "—"
		if len(r.Rules) > 0 {
			var ids []string
			for _, id := range r.Rules {
				ids = append(ids, "`"+id+"`")
			}
			rules = strings.Join(ids, ", ")
		}
		proven := map[rowStatus]string{statusArgued: "not checkable", statusProven: "yes", statusPending: "not yet", statusFailed: "**fails**", statusPermits: "permitted"}[statuses[i]]
		if statuses[i] == statusProven {
			var how []string
			if r.Severity == "info" {
				how = append(how, "info")
			}
			if r.OptIn {
				how = append(how, "opt-in")
			}
			if len(how) > 0 {
				proven += " (" + strings.Join(how, ", ") + ")"
			}
		}
		cell := func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), "\n", " "), "|", "\\|")
		}
		note := cell(r.Note)
		if len(r.Alongside) > 0 {
			note = strings.TrimSpace(note + " Alongside, as other sentences require: `" + strings.Join(r.Alongside, "`, `") + "`.")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", cell(r.Section), cell(r.Quote), r.Level, rules, proven, note)
	}
	return b.String()
}

// fromBase64 sets *doc, the row's document named name, to enc decoded, when
// enc is given; it reports false when enc is no base64 or doc is given too.
func fromBase64(t *testing.T, where, name, enc string, doc *string) bool {
	t.Helper()
	if enc == "" {
		return true
	}
	b, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || *doc != "" {
		t.Errorf("%s: %sBase64 is base64 (%v), and stands alone for %s", where, name, err, name)
		return false
	}
	*doc = string(b)
	return true
}

// isAt reports whether finding d is at a, a JSON pointer or, for a finding
// without one, line:col.
func isAt(a string, d engine.Diagnostic) bool {
	if line, col, ok := strings.Cut(a, ":"); ok && !strings.HasPrefix(a, "/") {
		return line == strconv.Itoa(d.Line) && col == strconv.Itoa(d.Column)
	}
	return d.Pointer == a
}

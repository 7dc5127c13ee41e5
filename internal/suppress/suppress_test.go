package suppress

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/celint/celint/engine"
)

const file = "doc.yaml"

// finding returns a finding of rule id (and code) on line, in file.
func finding(line int, id, code string) engine.Diagnostic {
	return engine.Diagnostic{File: file, RuleID: id, Code: code, Severity: engine.Error, Message: "bad", Line: line, Column: 3}
}

// render shows a diagnostic compactly: "line:col id/code", followed for
// this package's own diagnostics by their end and message, and marked for
// other files, rule errors and input errors.
func render(d engine.Diagnostic) string {
	s := fmt.Sprintf("%d:%d %s/%s", d.Line, d.Column, d.RuleID, d.Code)
	if d.RuleID == ruleID {
		s += fmt.Sprintf(" -%d:%d %s: %s", d.EndLine, d.EndColumn, d.Severity, d.Message)
		if d.File != file {
			s += " (file " + d.File + ")"
		}
	}
	if d.File != file {
		s += " in " + d.File
	}
	if d.RuleError {
		s += " rule-error"
	}
	if d.InputError {
		s += " input-error"
	}
	return s
}

func renderAll(ds []engine.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, render(d))
	}
	return out
}

func TestScanApply(t *testing.T) {
	ruleErr := finding(2, "r.x", "")
	ruleErr.RuleError = true
	inputErr := finding(1, "r.x", "")
	inputErr.InputError = true
	other := finding(3, "r.x", "")
	other.File = "other.yaml"

	for _, tc := range []struct {
		name string
		src  string
		in   []engine.Diagnostic
		want []string // Scan's problems, then Apply's result
	}{{
		name: "next line, rule id",
		src:  "a: 1\n# celint-disable-next-line r.x\nb: 2\nc: 3\n",
		in:   []engine.Diagnostic{finding(1, "r.x", ""), finding(3, "r.x", "c1"), finding(3, "r.x", "c2"), finding(3, "r.y", ""), finding(4, "r.x", "")},
		want: []string{"1:3 r.x/", "3:3 r.y/", "4:3 r.x/"},
	}, {
		name: "next line, id/code",
		src:  "a: 1\n# celint-disable-next-line r.x/c1\nb: 2\n",
		in:   []engine.Diagnostic{finding(3, "r.x", "c1"), finding(3, "r.x", "c2"), finding(3, "r.x", "")},
		want: []string{"3:3 r.x/c2", "3:3 r.x/"},
	}, {
		name: "trailing comment applies to the next line",
		src:  "a: 1 # celint-disable-next-line r.x\nb: 2\n",
		in:   []engine.Diagnostic{finding(1, "r.x", ""), finding(2, "r.x", "")},
		want: []string{"1:3 r.x/"},
	}, {
		name: "file",
		src:  "a: 1\nb: 2\n# celint-disable-file r.x, r.y/c1\nc: 3\n",
		in:   []engine.Diagnostic{finding(1, "r.x", "c"), finding(4, "r.x", ""), finding(9, "r.x", "d"), finding(2, "r.y", "c1"), finding(2, "r.y", "c2"), finding(2, "r.z", "")},
		want: []string{"2:3 r.y/c2", "2:3 r.z/"},
	}, {
		name: "several rules, commas and spaces",
		src:  "#celint-disable-next-line   r.x ,r-y,\tr_z/c ,  R9  \nb: 2\n",
		in:   []engine.Diagnostic{finding(2, "r.x", ""), finding(2, "r-y", "q"), finding(2, "r_z", "c"), finding(2, "r_z", "d"), finding(2, "R9", ""), finding(2, "r.w", "")},
		want: []string{"2:3 r_z/d", "2:3 r.w/"},
	}, {
		name: "reason",
		src:  "# celint-disable-next-line r.x -- r.y, because\nb: 2\n# celint-disable-file r.z --\n",
		in:   []engine.Diagnostic{finding(2, "r.x", ""), finding(2, "r.y", ""), finding(1, "r.z", "")},
		want: []string{"2:3 r.y/"},
	}, {
		name: "unused rules are reported, used ones are not",
		src:  "a: 1\n  # celint-disable-next-line r.x, r.y, r.z/c, r.x -- why\nb: 2\né: 4 # celint-disable-file r.w\n",
		in:   []engine.Diagnostic{finding(3, "r.y", ""), finding(3, "r.z", "d")},
		want: []string{
			"3:3 r.z/d",
			"2:3 celint.suppression/unused -2:57 warning: celint-disable-next-line names r.x and r.z/c, which report nothing on line 3",
			"4:6 celint.suppression/unused -4:31 warning: celint-disable-file names r.w, which reports nothing in this file",
		},
	}, {
		name: "a finding suppressed twice uses both directives",
		src:  "# celint-disable-file r.x\n# celint-disable-next-line r.x\nb: 2\n",
		in:   []engine.Diagnostic{finding(3, "r.x", "")},
		want: []string{},
	}, {
		name: "stacked next-line directives: the first names the second's line",
		src:  "# celint-disable-next-line r.x\n# celint-disable-next-line r.y\nb: 2\n",
		in:   []engine.Diagnostic{finding(3, "r.x", ""), finding(3, "r.y", "")},
		want: []string{
			"3:3 r.x/",
			"1:1 celint.suppression/unused -1:31 warning: celint-disable-next-line names r.x, which reports nothing on line 2",
		},
	}, {
		name: "# inside quotes",
		src: "a: \"x # celint-disable-file r.x\"\n" +
			"b: 'it''s # celint-disable-file r.x'\n" +
			"c: \"esc \\\" # celint-disable-file r.x\"\n" +
			"d: [\"x\", 'y # celint-disable-file r.x']\n" +
			"{\"e\":\"z # celint-disable-file r.x\"}\n" +
			"'f # celint-disable-file r.x': 1\n",
		in:   []engine.Diagnostic{finding(1, "r.x", "")},
		want: []string{"1:3 r.x/"},
	}, {
		name: "comment after a quoted scalar, and a quote inside a plain scalar",
		src:  "a: \"x#y\" # celint-disable-file r.x\nb: it's # celint-disable-file r.y\n",
		in:   []engine.Diagnostic{finding(1, "r.x", ""), finding(2, "r.y", "")},
		want: []string{},
	}, {
		name: "# not after a space is no comment",
		src:  "a#celint-disable-file r.x\nurl: http://h/#celint-disable-file r.x\nb: \"q\"# celint-disable-file r.x\n",
		in:   []engine.Diagnostic{finding(1, "r.x", "")},
		want: []string{"1:3 r.x/"},
	}, {
		name: "directive must start the comment",
		src:  "# see celint-disable-file r.x\n# celint-disable-filer r.x\n",
		in:   []engine.Diagnostic{finding(1, "r.x", "")},
		want: []string{
			"2:1 celint.suppression/malformed -2:27 warning: unknown suppression directive \"celint-disable-filer\": expected celint-disable-next-line or celint-disable-file followed by rule names",
			"1:3 r.x/",
		},
	}, {
		name: "CRLF",
		src:  "a: 1\r\nb: 2\r\n# celint-disable-next-line r.x\r\nc: 3\r\n",
		in:   []engine.Diagnostic{finding(4, "r.x", ""), finding(5, "r.x", "")},
		want: []string{"5:3 r.x/"},
	}, {
		name: "lone CR and mixed breaks",
		src:  "a: 1\rb: 2\n\r\n# celint-disable-next-line r.x\rc: 3",
		in:   []engine.Diagnostic{finding(5, "r.x", ""), finding(4, "r.x", "")},
		want: []string{"4:3 r.x/"},
	}, {
		name: "malformed directives",
		src: "# celint-disable-next-line\n" +
			"# celint-disable-file   -- only a reason\n" +
			"# celint-disable-file r$x\n" +
			"# celint-disable-file r.x r.y\n" +
			"# celint-disable-file r.x,,r.y\n" +
			"# celint-disable-file r.x,\n" +
			"# celint-disable-file r.x/c/d, r.y/\n" +
			"# celint-disable-next-line: r.x\n" +
			"# celint-disable-file r.x --reason\n" +
			"# celint-disable-file r$x,, r.y, r%y\n",
		in: []engine.Diagnostic{finding(1, "r.x", ""), finding(2, "r.y", "")},
		want: []string{
			"1:1 celint.suppression/malformed -1:27 warning: celint-disable-next-line names no rule: expected celint-disable-next-line RULE[, RULE...] [-- reason]",
			"2:1 celint.suppression/malformed -2:41 warning: celint-disable-file names no rule: expected celint-disable-file RULE[, RULE...] [-- reason]",
			"3:1 celint.suppression/malformed -3:26 warning: celint-disable-file: malformed rule \"r$x\": expected a rule id or id/code of letters, digits, '.', '-' and '_', rules separated by commas",
			"4:1 celint.suppression/malformed -4:30 warning: celint-disable-file: malformed rule \"r.x r.y\": expected a rule id or id/code of letters, digits, '.', '-' and '_', rules separated by commas",
			"5:1 celint.suppression/malformed -5:31 warning: celint-disable-file: empty rule name in \"r.x,,r.y\"",
			"6:1 celint.suppression/malformed -6:27 warning: celint-disable-file: empty rule name in \"r.x,\"",
			"7:1 celint.suppression/malformed -7:36 warning: celint-disable-file: malformed rules \"r.x/c/d\" and \"r.y/\": expected a rule id or id/code of letters, digits, '.', '-' and '_', rules separated by commas",
			"8:1 celint.suppression/malformed -8:32 warning: unknown suppression directive \"celint-disable-next-line:\": expected celint-disable-next-line or celint-disable-file followed by rule names",
			"9:1 celint.suppression/malformed -9:35 warning: celint-disable-file: malformed rule \"r.x --reason\": expected a rule id or id/code of letters, digits, '.', '-' and '_', rules separated by commas",
			"10:1 celint.suppression/malformed -10:37 warning: celint-disable-file: malformed rules \"r$x\" and \"r%y\": expected a rule id or id/code of letters, digits, '.', '-' and '_', rules separated by commas; empty rule name in \"r$x,, r.y, r%y\"",
			"1:3 r.x/",
			"2:3 r.y/",
		},
	}, {
		name: "rule and input errors are never suppressed",
		src:  "# celint-disable-file r.x\n# celint-disable-next-line r.x\nb: 2\n",
		in:   []engine.Diagnostic{ruleErr, inputErr},
		want: []string{
			"2:3 r.x/ rule-error",
			"1:3 r.x/ input-error",
			"1:1 celint.suppression/unused -1:26 warning: celint-disable-file names r.x, which reports nothing in this file",
			"2:1 celint.suppression/unused -2:31 warning: celint-disable-next-line names r.x, which reports nothing on line 3",
		},
	}, {
		name: "other files pass through",
		src:  "# celint-disable-file r.x\n",
		in:   []engine.Diagnostic{other, finding(1, "r.x", "")},
		want: []string{"3:3 r.x/ in other.yaml"},
	}, {
		name: "no comments",
		src:  "",
		in:   []engine.Diagnostic{finding(1, "r.x", "")},
		want: []string{"1:3 r.x/"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.in)
			dirs, probs := Scan(file, []byte(tc.src))
			got := renderAll(append(probs, Apply(file, in, dirs)...))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n\t%q\nwant\n\t%q", got, tc.want)
			}
			for _, p := range probs {
				if p.File != file {
					t.Errorf("problem %v: file %q, want %q", p, p.File, file)
				}
			}
			if !slices.EqualFunc(in, tc.in, func(a, b engine.Diagnostic) bool { return render(a) == render(b) }) {
				t.Errorf("Apply modified its input: %q", renderAll(in))
			}
		})
	}
}

func TestScanDirectives(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []Directive
	}{
		{"", nil},
		{"a: 1 # a comment\n", nil},
		{
			"a: 1\n  #  celint-disable-next-line x.y/c, x.y, x.y/c -- reason  \r\n",
			[]Directive{{Line: 2, Col: 3, Rules: []string{"x.y/c", "x.y"}, Text: "#  celint-disable-next-line x.y/c, x.y, x.y/c -- reason"}},
		},
		{
			"\r\rkey: \"v\" #celint-disable-file a\tb: c\n",
			nil,
		},
		{
			"\r\rkéy: \"v\" #celint-disable-file a\t-- b: c\n#\tcelint-disable-file B_2",
			[]Directive{
				{Line: 3, Col: 10, File: true, Rules: []string{"a"}, Text: "#celint-disable-file a\t-- b: c"},
				{Line: 4, Col: 1, File: true, Rules: []string{"B_2"}, Text: "#\tcelint-disable-file B_2"},
			},
		},
	} {
		got, _ := Scan(file, []byte(tc.src))
		if !slices.EqualFunc(got, tc.want, func(a, b Directive) bool {
			return a.Line == b.Line && a.Col == b.Col && a.File == b.File && slices.Equal(a.Rules, b.Rules) && a.Text == b.Text
		}) {
			t.Errorf("Scan(%q) = %+v, want %+v", tc.src, got, tc.want)
		}
	}
}

// ids returns "a1, a2, …, aN" with sep between them.
func ids(n int, sep string) string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("a%d", i+1)
	}
	return strings.Join(out, sep)
}

// TestManyRules: a comment naming thousands of rules gets one diagnostic
// of each kind, which names the first ten rules and says how many more
// there are; a directive is read up to its MaxRules-th rule, and a long
// malformed rule or directive is quoted cut, its bidi controls escaped.
func TestManyRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		in   []engine.Diagnostic
		want []string
	}{{
		name: "unused",
		src:  "# celint-disable-next-line " + ids(5000, ", ") + "\nb: 2\n# celint-disable-file " + ids(12, ",") + "\n",
		in:   []engine.Diagnostic{finding(2, "a3", ""), finding(2, "a4", "c"), finding(1, "a12", "")},
		want: []string{
			"1:1 celint.suppression/malformed -1:33919 warning: celint-disable-next-line: 5000 rules, more than 1000: those after the 1000th are ignored",
			"1:1 celint.suppression/unused -1:33919 warning: celint-disable-next-line names a1, a2, a5, a6, a7, a8, a9, a10, a11, a12 and 988 more, which report nothing on line 2",
			"3:1 celint.suppression/unused -3:61 warning: celint-disable-file names a1, a2, a5, a6, a7, a8, a9, a10 and a11, which report nothing in this file",
		},
	}, {
		name: "more than MaxRules",
		src:  "# celint-disable-file " + ids(1500, ",") + "\n",
		in:   []engine.Diagnostic{finding(1, "a1000", ""), finding(1, "a1001", "")},
		want: []string{
			"1:1 celint.suppression/malformed -1:7915 warning: celint-disable-file: 1500 rules, more than 1000: those after the 1000th are ignored",
			"1:3 a1001/",
			"1:1 celint.suppression/unused -1:7915 warning: celint-disable-file names a1, a2, a3, a4, a5, a6, a7, a8, a9, a10 and 989 more, which report nothing in this file",
		},
	}, {
		name: "rules separated by spaces",
		src:  "# celint-disable-next-line " + ids(5000, " ") + "\n",
		want: []string{
			"1:1 celint.suppression/malformed -1:28920 warning: celint-disable-next-line: malformed rule \"a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a\"…: expected a rule id or id/code of letters, digits, '.', '-' and '_', rules separated by commas",
		},
	}, {
		name: "many malformed rules",
		src:  "# celint-disable-file " + strings.ReplaceAll(ids(30, ","), "a", "a$") + "\n",
		want: []string{
			"1:1 celint.suppression/malformed -1:163 warning: celint-disable-file: malformed rules \"a$1\", \"a$2\", \"a$3\", \"a$4\", \"a$5\", \"a$6\", \"a$7\", \"a$8\", \"a$9\", \"a$10\" and 20 more: expected a rule id or id/code of letters, digits, '.', '-' and '_', rules separated by commas",
		},
	}, {
		name: "long unknown directive",
		src:  "# celint-disable-" + strings.Repeat("x\u202e", 100) + " a\n",
		want: []string{
			"1:1 celint.suppression/malformed -1:220 warning: unknown suppression directive \"celint-disable-x\\u202ex\\u202ex\\u202ex\\u202ex\\u202ex\\u202ex\\u202ex\\u202ex\\u202ex\\u202ex\\u202ex\\u202ex\"…: expected celint-disable-next-line or celint-disable-file followed by rule names",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dirs, probs := Scan(file, []byte(tc.src))
			got := renderAll(append(probs, Apply(file, tc.in, dirs)...))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n\t%q\nwant\n\t%q", got, tc.want)
			}
		})
	}
}

// TestApplyLinear: thousands of directives naming a thousand rules each,
// and tens of thousands of findings, are applied in one pass: the work
// grows with the rules named plus the findings, not their product (which
// here would be some 10^11 comparisons).
func TestApplyLinear(t *testing.T) {
	var src strings.Builder
	list := ids(MaxRules, ",")
	for range 2000 {
		src.WriteString("# celint-disable-file " + list + "\n")
		src.WriteString("# celint-disable-next-line " + list + "\n")
	}
	dirs, probs := Scan(file, []byte(src.String()))
	if len(dirs) != 4000 || len(probs) != 0 {
		t.Fatalf("%d directives, %d problems", len(dirs), len(probs))
	}
	var ds []engine.Diagnostic
	for i := range 50_000 {
		ds = append(ds, finding(1+i%4000, fmt.Sprintf("a%d", 1+i%(2*MaxRules)), ""))
	}
	start := time.Now()
	out := Apply(file, ds, dirs)
	t.Logf("%d directives of %d rules, %d findings: %v", len(dirs), MaxRules, len(ds), time.Since(start))
	var kept, unused int
	for _, d := range out {
		switch d.RuleID {
		case ruleID:
			unused++
		default:
			kept++
		}
	}
	// a1…a1000 are suppressed everywhere; a1001…a2000 nowhere. Every
	// file directive names a1000…, used, so none is unused; of the
	// next-line ones, those on whose next line no a1…a1000 finding falls.
	if kept != 25_000 || unused > 2000 {
		t.Errorf("%d findings kept, %d unused warnings; want 25000 and at most 2000", kept, unused)
	}
}

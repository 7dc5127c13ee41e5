package lint_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/baseline"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/engine/report"
	"github.com/celint/celint/rulesets"
)

// TestKeepSuppressed: with Filter.KeepSuppressed, the finding a
// suppression comment hides and the one a baseline hides are kept aside,
// marked inSource and external; the findings kept and every count are
// those of the same run without it, which keeps none aside.
func TestKeepSuppressed(t *testing.T) {
	rules, err := lint.LoadRulesets(lint.Sources{Embedded: rulesets.Load, Options: engine.Options{Lazy: true}})
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(server, "    colour: blue\n", "    # celint-disable-next-line mcpdesc.tools.tool\n    colour: blue\n", 1)
	// The baseline records the other finding, the list written as a string.
	all := lint.NewChecker(rules, lint.Options{}).Lint(context.Background(), "server.yaml", []byte(server))
	var recorded []engine.Diagnostic
	for _, d := range all.Diagnostics {
		if strings.HasSuffix(d.Pointer, "/required") {
			recorded = append(recorded, d)
		}
	}
	if len(recorded) != 1 {
		t.Fatalf("the document has %d findings at /tools/0/inputSchema/required, want 1: %v", len(recorded), all.Diagnostics)
	}
	base := baseline.New(recorded, ".")

	run := func(keep bool) *lint.Result {
		c := lint.NewChecker(rules, lint.Options{Filter: lint.Filter{Hide: base.Filter("."), KeepSuppressed: keep}})
		return c.Lint(context.Background(), "server.yaml", []byte(doc))
	}
	plain, kept := run(false), run(true)
	if len(plain.Suppressed) != 0 {
		t.Errorf("without KeepSuppressed, %d findings kept aside", len(plain.Suppressed))
	}
	if !slices.EqualFunc(plain.Diagnostics, kept.Diagnostics, func(a, b engine.Diagnostic) bool { return a.String() == b.String() }) ||
		plain.Omitted != kept.Omitted || plain.Quieted != kept.Quieted {
		t.Errorf("KeepSuppressed changes the findings kept:\n%v\n%v", plain.Diagnostics, kept.Diagnostics)
	}
	var got []string
	for _, s := range kept.Suppressed {
		got = append(got, s.Kind+" "+s.Pointer)
	}
	want := []string{report.InSource + " /tools/0/colour", report.External + " /tools/0/inputSchema/required"}
	if !slices.Equal(got, want) {
		t.Errorf("kept aside %q, want %q", got, want)
	}

	// Keep (celint check --rule) leaves out suppressed findings as it
	// does the others.
	c := lint.NewChecker(rules, lint.Options{Filter: lint.Filter{Hide: base.Filter("."), KeepSuppressed: true,
		Keep: func(d engine.Diagnostic) bool { return !strings.HasSuffix(d.Pointer, "/colour") }}})
	res := c.Lint(context.Background(), "server.yaml", []byte(doc))
	if len(res.Suppressed) != 1 || res.Suppressed[0].Kind != report.External {
		t.Errorf("with Keep dropping the suppressed colour finding: kept aside %v, want the baselined one only", res.Suppressed)
	}
}

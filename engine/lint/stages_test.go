package lint_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/baseline"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/rulesets"
)

// TestStages runs the stages one after the other (config, rulesets, lint,
// filter) on small documents: what each stage changes shows in the
// findings kept.
func TestStages(t *testing.T) {
	rules, err := lint.LoadRulesets(lint.Sources{Embedded: rulesets.Load, Options: engine.Options{Lazy: true}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, ".celint.yaml")
	if err := os.WriteFile(cfgFile, []byte("rules:\n  mcpdesc.tools.tool: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := lint.LoadConfig(cfgFile, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := rules.CheckConfig(cfg); err != nil {
		t.Fatal(err)
	}
	suppressed := strings.Replace(server, "    colour: blue\n", "    # celint-disable-next-line mcpdesc.tools.tool\n    colour: blue\n", 1)
	unknown := strings.Replace(server, "mcpdesc: 0.7.0", "mcpdesc: 9.9.9", 1)
	undeclared := strings.Replace(server, "mcpdesc: 0.7.0\n", "", 1)

	// A baseline recording the server's findings, made by the same stages.
	rec := baseline.NewRecorder(dir)
	lint.NewChecker(rules, lint.Options{Filter: lint.Filter{Record: rec}}).Lint(context.Background(), filepath.Join(dir, "server.yaml"), []byte(server))
	if rec.Len() != 2 {
		t.Fatalf("the recorder kept %d findings, want the server's 2", rec.Len())
	}
	recorded := rec.Baseline()

	for _, tt := range []struct {
		name    string
		doc     string
		filter  func() lint.Filter
		want    []string // the pointers of the findings kept
		wantErr error
	}{
		{"all findings", server, func() lint.Filter { return lint.Filter{} }, []string{"/tools/0/colour", "/tools/0/inputSchema/required"}, nil},
		{"a suppression comment drops one", suppressed, func() lint.Filter { return lint.Filter{} }, []string{"/tools/0/inputSchema/required"}, nil},
		{"the config turns the rule off", server, func() lint.Filter { return lint.Filter{Config: cfg} }, nil, nil},
		{"the baseline hides what it recorded", server, func() lint.Filter { return lint.Filter{Hide: recorded.Filter(dir)} }, nil, nil},
		{"keep drops what it refuses", server, func() lint.Filter {
			return lint.Filter{Keep: func(d engine.Diagnostic) bool { return !strings.HasSuffix(d.Pointer, "colour") }}
		}, []string{"/tools/0/inputSchema/required"}, nil},
		{"an unknown version is an input error", unknown, func() lint.Filter { return lint.Filter{} }, nil, engine.ErrNoRuleset},
		{"no declared version is an input error", undeclared, func() lint.Filter { return lint.Filter{} }, nil, engine.ErrUndeclaredVersion},
	} {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join(dir, "server.yaml")
			doc, err := rules.Choose(name, []byte(tt.doc))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Choose: %v, want %v", err, tt.wantErr)
				}
				res := lint.NewChecker(rules, lint.Options{}).Lint(context.Background(), name, []byte(tt.doc))
				if res.Err == nil || len(res.Diagnostics) != 1 || !res.Diagnostics[0].InputError {
					t.Fatalf("Lint: err %v, diagnostics %v; want one input error", res.Err, res.Diagnostics)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Rulesets) == 0 || doc.Rulesets[0].String() != "mcpdesc@v0.7.0" {
				t.Fatalf("chose %v, want mcpdesc@v0.7.0 first", doc.Rulesets)
			}
			res := lint.NewChecker(rules, lint.Options{Filter: tt.filter()}).LintDocument(context.Background(), doc)
			var got []string
			for _, d := range res.Diagnostics {
				got = append(got, d.Pointer)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("kept %q, want %q", got, tt.want)
			}
		})
	}
}

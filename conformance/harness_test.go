package conformance_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/celint/celint/conformance"
	"github.com/celint/celint/engine"
)

// fakeTB records what the harness reports.
type fakeTB struct{ errors, logs []string }

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}

// TestBrokenExamplesFail proves that conformance fails on examples that do
// not behave as declared, in both directions.
func TestBrokenExamplesFail(t *testing.T) {
	rs, err := engine.LoadRuleset(os.DirFS("testdata"), "broken/v1", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	results := conformance.Run(context.Background(), rs, conformance.Options{})
	var got []string
	for _, r := range results {
		got = append(got, fmt.Sprintf("%s %s %s", r.Status, r.Kind, r.Selected))
	}
	want := []string{
		"pass valid /items/0",
		"FAIL valid /items/1",
		"pass invalid /items/1/name",
		"FAIL invalid /items/0",
		"FAIL invalid /items/7",
		"pass invalid /items/1",
		"FAIL invalid /items/1",
		"FAIL invalid /items/1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !conformance.Failed(results) {
		t.Error("Failed() = false")
	}
	var tb fakeTB
	conformance.Check(&tb, rs, conformance.Options{})
	if len(tb.errors) != 5 {
		t.Errorf("Check reported %d errors, want 5: %q", len(tb.errors), tb.errors)
	}
	for _, want := range []string{`no diagnostic at /items/0/name matching ""`, `unexpected diagnostic at /items/1/name: name too long`} {
		found := false
		for _, e := range tb.errors {
			found = found || strings.Contains(e, want)
		}
		if !found {
			t.Errorf("no failure says %q: %q", want, tb.errors)
		}
	}
}

// TestFixturesOverrideSkipsAbsent points the examples at a folder that lacks
// the fixture: the example is skipped, not failed.
func TestFixturesOverrideSkipsAbsent(t *testing.T) {
	rs, err := engine.LoadRuleset(os.DirFS("testdata"), "broken/v1", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	results := conformance.Run(context.Background(), rs, conformance.Options{FixturesDir: t.TempDir()})
	for _, r := range results {
		if r.Status != conformance.Skip {
			t.Errorf("%s %s: status %s, want skip", r.Kind, r.Selected, r.Status)
		}
	}
	if conformance.Failed(results) {
		t.Error("skips counted as failures")
	}
}

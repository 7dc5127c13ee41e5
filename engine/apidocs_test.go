package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// TestAPIMatchesDocs: Catalog.Load's and LoadFile's errors are
// loader.Issues lists of *loader.Error, in which errors.Is finds the
// causes; Find of an unknown tag is ErrNoRuleset; a Diagnostic's String
// names its code.
func TestAPIMatchesDocs(t *testing.T) {
	rs, err := engine.LoadRuleset(rulesetFS("name: t\ntag: v1\naccepts: {path: version, versions: [\"1\"]}\n", oneRule), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := engine.NewCatalog(rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, data string
		cause      error
	}{
		{"other.yaml", "version: \"9\"\n", engine.ErrNoRuleset},
		{"none.yaml", "name: x\n", engine.ErrUndeclaredVersion},
		{"bad.yaml", "a: [\n", nil},
	} {
		_, _, err := cat.Load(tc.name, []byte(tc.data), nil)
		var is loader.Issues
		var le *loader.Error
		if !errors.As(err, &is) || len(is) == 0 || !errors.As(err, &le) {
			t.Errorf("%s: Load's error %T %v is not a loader.Issues of *loader.Error", tc.name, err, err)
		}
		if tc.cause != nil && !errors.Is(err, tc.cause) {
			t.Errorf("%s: %v is not %v", tc.name, err, tc.cause)
		}
	}
	_, _, err = cat.LoadFile(t.TempDir()+"/missing.yaml", nil)
	if _, ok := err.(loader.Issues); !ok {
		t.Errorf("LoadFile's error %T %v is not a loader.Issues", err, err)
	}
	if _, err := cat.Find("v9"); !errors.Is(err, engine.ErrNoRuleset) || !strings.Contains(err.Error(), `no pinned ruleset "v9"`) {
		t.Errorf("Find of an unknown tag: %v", err)
	}
	d := engine.Diagnostic{File: "a.yaml", Line: 1, Column: 2, Severity: engine.Error, Message: "m", RuleID: "t.rule", Code: "c"}
	if got := d.String(); got != "a.yaml:1:2: error: m [t.rule/c]" {
		t.Errorf("String = %q", got)
	}
}

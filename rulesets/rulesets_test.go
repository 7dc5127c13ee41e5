package rulesets_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/engine"
	"github.com/celint/celint/rulesets"
)

// TestEmbeddedRulesets loads every embedded ruleset and checks that each
// sits in the folder its header names, and that every rule is pinned at
// that tag.
func TestEmbeddedRulesets(t *testing.T) {
	all, err := rulesets.Load(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("no embedded ruleset")
	}
	for _, rs := range all {
		if rs.Dir != rs.Name+"/"+rs.Tag {
			t.Errorf("ruleset %s lives in %s; want %s/%s", rs, rs.Dir, rs.Name, rs.Tag)
		}
		if len(rs.Rules) == 0 {
			t.Errorf("ruleset %s has no rules", rs)
		}
		for _, r := range rs.Rules {
			if r.Tag != rs.Tag || !strings.HasPrefix(r.ID, rs.Name+".") {
				t.Errorf("rule %s (tag %s) does not belong to %s", r.ID, r.Tag, rs)
			}
		}
	}
	if _, err := rulesets.Catalog(engine.Options{}); err != nil {
		t.Fatal(err)
	}
}

var update = flag.Bool("update", false, "rewrite each ruleset's checked expressions")

// TestCheckedExpressions: each embedded ruleset's CheckedFile holds exactly
// the expressions its rules compile, as cel-go checks them today; with
// -update it is rewritten. A ruleset loaded with it compiles every rule
// without parsing or checking one.
func TestCheckedExpressions(t *testing.T) {
	headers, err := fs.Glob(rulesets.Files(), "*/*/"+engine.HeaderFile)
	if err != nil || len(headers) == 0 {
		t.Fatalf("no rulesets: %v", err)
	}
	for _, h := range headers {
		dir := path.Dir(h)
		rec := cel.RecordCheckedExprs()
		if _, err := engine.LoadRuleset(rulesets.Files(), dir, engine.Options{Checked: rec}); err != nil {
			t.Fatal(err)
		}
		want := rec.Marshal()
		file := filepath.Join(filepath.FromSlash(dir), rulesets.CheckedFile)
		if *update {
			if err := os.WriteFile(file, want, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d expressions, %d bytes", file, rec.Len(), len(want))
			continue
		}
		got, err := os.ReadFile(file)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale or missing (%v); run: go test ./rulesets -run TestCheckedExpressions -update", file, err)
			continue
		}
		// Loaded with it, no expression is parsed or checked anew.
		stored, err := cel.ReadCheckedExprs(got)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.LoadRuleset(rulesets.Files(), dir, engine.Options{Checked: stored}); err != nil {
			t.Fatal(err)
		}
		if rec.Misses() == 0 || stored.Misses() != 0 {
			t.Errorf("%s: %d expressions checked while recording, %d checked again with the file", file, rec.Misses(), stored.Misses())
		}
	}
}

package rulesets_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/exprcache"
	"github.com/celint/celint/loader"
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

var update = flag.Bool("update", false, "rewrite each ruleset's checked expressions and parsed rule files")

// TestStartupFiles: each embedded ruleset's CheckedFile holds exactly the
// expressions its rules compile, as cel-go checks them today, and its
// TreesFile exactly its rule files as the loader parses them today; with
// -update both are rewritten. A ruleset loaded with them compiles every
// rule without parsing a rule file, or parsing or checking an expression.
func TestStartupFiles(t *testing.T) {
	headers, err := rulesets.Headers(rulesets.Files())
	if err != nil || len(headers) == 0 {
		t.Fatalf("no rulesets: %v", err)
	}
	loaded := map[string]*engine.Ruleset{} // the bases of those that extend one
	bases := func(spec string) (*engine.Ruleset, error) {
		if rs := loaded[spec]; rs != nil {
			return rs, nil
		}
		return nil, fmt.Errorf("no ruleset %s", spec)
	}
	for _, h := range headers {
		dir := path.Dir(h)
		rec := exprcache.Record()
		recTrees := loader.RecordTrees()
		rs, err := engine.LoadRuleset(rulesets.Files(), dir, engine.Options{Checked: rec, Trees: recTrees, Bases: bases})
		if err != nil {
			t.Fatal(err)
		}
		loaded[rs.String()] = rs
		stale := false
		for _, f := range []struct {
			name string
			want []byte
			what string
			n    int
		}{{rulesets.CheckedFile, rec.Marshal(), "expressions", rec.Len()}, {rulesets.TreesFile, recTrees.Marshal(), "rule files", recTrees.Len()}} {
			file := filepath.Join(filepath.FromSlash(dir), f.name)
			if *update {
				if err := os.WriteFile(file, f.want, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %d %s, %d bytes", file, f.n, f.what, len(f.want))
				continue
			}
			got, err := os.ReadFile(file)
			if err != nil || !bytes.Equal(got, f.want) {
				t.Errorf("%s is stale or missing (%v); run: go test ./rulesets -run TestStartupFiles -update", file, err)
				stale = true
			}
		}
		if *update || stale {
			continue
		}
		// Loaded with them, no rule file is parsed and no expression is
		// parsed or checked anew.
		stored, err := exprcache.Read(readFile(t, filepath.Join(filepath.FromSlash(dir), rulesets.CheckedFile)))
		if err != nil {
			t.Fatal(err)
		}
		trees, err := loader.ReadTrees(readFile(t, filepath.Join(filepath.FromSlash(dir), rulesets.TreesFile)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.LoadRuleset(rulesets.Files(), dir, engine.Options{Checked: stored, Trees: trees, Bases: bases}); err != nil {
			t.Fatal(err)
		}
		if trees.Hits() != recTrees.Len() || trees.Hits() == 0 {
			t.Errorf("%s: %d of %d rule files taken from %s", dir, trees.Hits(), recTrees.Len(), rulesets.TreesFile)
		}
		if rec.Misses() == 0 || stored.Misses() != 0 {
			t.Errorf("%s: %d expressions checked while recording, %d checked again with the file", dir, rec.Misses(), stored.Misses())
		}
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFixesDescribedAndShown: every fix of an embedded rule says what it
// does, and every fixable rule has, in each version, an invalid example
// that states its fixed document, and, in some version, one whose fixes
// change it (conformance proves both).
func TestFixesDescribedAndShown(t *testing.T) {
	all, err := rulesets.Load(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	changes := map[string]bool{} // rule id -> an example's fixes change it
	for _, rs := range all {
		for _, r := range rs.Rules {
			if !r.Fixable {
				continue
			}
			if _, ok := changes[r.ID]; !ok {
				changes[r.ID] = false
			}
			for _, f := range r.Fixes {
				if f.Description == "" {
					t.Errorf("%s: %s: a fix (code %q, keyword %q) has no description", rs, r.ID, f.Code, f.Keyword)
				}
			}
			stated := false
			for i := range r.Examples.Invalid {
				ex := &r.Examples.Invalid[i]
				if ex.Fixed == nil {
					continue
				}
				stated = true
				doc, err := rs.LoadExample(r, ex, engine.ExampleOptions{})
				if err != nil {
					t.Fatal(err)
				}
				fixed, err := loader.Extract(r.File, r.Text, ex.Fixed, rs.LoadOptions)
				if err != nil {
					t.Fatal(err)
				}
				before, _ := json.Marshal(doc.Root.Value())
				after, _ := json.Marshal(fixed.Root.Value())
				if !bytes.Equal(before, after) {
					changes[r.ID] = true
				}
			}
			if !stated {
				t.Errorf("%s: %s has fixes and no invalid example with a fixed document", rs, r.ID)
			}
		}
	}
	for id, changed := range changes {
		if !changed {
			t.Errorf("%s: no invalid example shows its fixes at work", id)
		}
	}
}

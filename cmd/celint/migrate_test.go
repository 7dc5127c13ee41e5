package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files of the migrate tests")

// migrateFor migrates file to tag with the embedded rulesets.
func migrateFor(t *testing.T, tag, file string) *migration {
	t.Helper()
	cat, _, err := (&ruleFlags{}).catalog()
	if err != nil {
		t.Fatal(err)
	}
	m, err := migrateFile(context.Background(), cat, tag, file)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// comments lists the comments of a YAML source, in order.
func comments(src string) []string {
	re := regexp.MustCompile(`(?m)(?:^|\s)(#.*)$`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(src, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestMigrateGolden: each description of testdata/migrate migrates to the
// .golden source and reports the .report lines; every comment of a YAML
// input is in the output, byte for byte and in order.
func TestMigrateGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/migrate/*.yaml")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			m := migrateFor(t, "v0.8.0", in)
			report := strings.Join(m.report(), "\n") + "\n"
			for _, g := range []struct{ file, got string }{{in + ".golden", string(m.after)}, {in + ".report", report}} {
				if *updateGolden {
					if err := os.WriteFile(g.file, []byte(g.got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(g.file)
				if err != nil {
					t.Fatalf("%v (run go test ./cmd/celint -run TestMigrateGolden -update)", err)
				}
				if g.got != string(want) {
					t.Errorf("%s differs; got:\n%s", g.file, g.got)
				}
			}
			if got, want := comments(string(m.after)), comments(string(m.before)); !slices.Equal(got, want) {
				t.Errorf("comments changed:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestMigrate070Examples: every 0.7.0 description of the test data
// migrates to a 0.8.0 document whose only errors under mcpdesc@v0.8.0 are
// at places the migration reported as the author's to decide, and a
// second migration finds nothing to do.
func TestMigrate070Examples(t *testing.T) {
	inputs, err := filepath.Glob("../../testdata/mcpdesc-0.7.0/*")
	if err != nil || len(inputs) < 5 {
		t.Fatalf("inputs: %v %v", inputs, err)
	}
	dir := t.TempDir()
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			m := migrateFor(t, "v0.8.0", in)
			if m.already != "" || string(m.after) == string(m.before) {
				t.Fatal("nothing was migrated")
			}
			var decisions []string
			for _, n := range m.notes {
				if n.what == "check" {
					decisions = append(decisions, n.Pointer)
				}
			}
			for _, d := range m.findings {
				if d.Severity != engine.Error {
					continue
				}
				if !slices.ContainsFunc(decisions, func(p string) bool { return d.Pointer == p || strings.HasPrefix(d.Pointer, p+"/") }) {
					t.Errorf("an error the migration did not report as a decision: %s at %s: %s", d.RuleID, d.Pointer, d.Message)
				}
			}
			out := write(t, dir, filepath.Base(in), string(m.after))
			again := migrateFor(t, "v0.8.0", out)
			if again.already != "0.8.0" || string(again.after) != string(m.after) {
				t.Errorf("a second migration: already %q, changed %v", again.already, string(again.after) != string(m.after))
			}
		})
	}
}

// TestMigrateCLI: celint migrate prints a diff and changes nothing, or
// writes with --write; a document at the target version is a no-op with a
// note; a 0.7.0 document migrates to a release candidate through 0.8.0;
// bad input is reported and left untouched.
func TestMigrateCLI(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/migrate/ticket-desk.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc := write(t, dir, "desk.yaml", string(src))
	broken := write(t, dir, "broken.yaml", "mcpdesc: \"0.7.0\"\ninfo: [\n")
	other := write(t, dir, "package.json", `{"name": "x"}`)
	old := write(t, dir, "old.json", `{"mcpdesc": "0.6.0", "info": {"name": "a", "version": "1"}}`)

	code, out, errOut := runCLI(t, "migrate", "--to", "v0.8.0", doc)
	if code != exitOK || !strings.Contains(out, "+mcpdesc: \"0.8.0\"") || !strings.Contains(errOut, "migrated 0.7.0 to mcpdesc@v0.8.0") {
		t.Errorf("diff: exit %d\n%s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(doc); string(now) != string(src) {
		t.Error("without --write the file changed")
	}

	code, _, errOut = runCLI(t, "migrate", "--to", "v0.8.0", "--write", doc, broken, other, old)
	if code != exitError || !strings.Contains(errOut, "migrated 1 file") ||
		!strings.Contains(errOut, "package.json: not a description, left as it is") ||
		!strings.Contains(errOut, "broken.yaml:") || !strings.Contains(errOut, `"0.6.0" is not a version celint has rules for`) {
		t.Errorf("--write: exit %d\n%s", code, errOut)
	}
	for f, want := range map[string]string{broken: "mcpdesc: \"0.7.0\"\ninfo: [\n", other: `{"name": "x"}`} {
		if now, _ := os.ReadFile(f); string(now) != want {
			t.Errorf("%s changed", f)
		}
	}
	migrated, _ := os.ReadFile(doc)
	golden, _ := os.ReadFile("testdata/migrate/ticket-desk.yaml.golden")
	if string(migrated) != string(golden) {
		t.Errorf("the written file is not the golden one:\n%s", migrated)
	}

	code, out, errOut = runCLI(t, "migrate", "--to", "v0.8.0", doc)
	if code != exitOK || out != "" || !strings.Contains(errOut, `declares "0.8.0", which mcpdesc@v0.8.0 checks as it is: nothing to migrate`) {
		t.Errorf("already migrated: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "migrate", "--to", "v0.9.0-rc.3", doc)
	if code != exitOK || out != "" || !strings.Contains(errOut, "nothing to migrate") {
		t.Errorf("0.8.0 to v0.9.0-rc.3: exit %d\n%s%s", code, out, errOut)
	}

	fresh := write(t, dir, "fresh.yaml", string(src))
	code, out, errOut = runCLI(t, "migrate", "--to", "v0.9.0-rc.3", fresh)
	if code != exitOK || !strings.Contains(out, "+mcpdesc: \"0.8.0\"") || !strings.Contains(errOut, "migrated 0.7.0 to mcpdesc@v0.8.0") {
		t.Errorf("0.7.0 to v0.9.0-rc.3: exit %d\n%s%s", code, out, errOut)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"migrate", fresh}, "migrate needs --to TAG"},
		{[]string{"migrate", "--to", "v0.8.0"}, "at least one FILE"},
		{[]string{"migrate", "--to", "v0.8.0", "-"}, "not standard input"},
		{[]string{"migrate", "--to", "v0.8.0", "--spec", "v0.7.0", fresh}, "migrate takes --to, not --spec"},
		{[]string{"migrate", "--to", "v9.9.9", fresh}, "--to v9.9.9"},
	} {
		if code, _, errOut := runCLI(t, tc.args...); code != exitError || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d %s", tc.args, code, errOut)
		}
	}
}

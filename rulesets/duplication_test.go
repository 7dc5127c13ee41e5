package rulesets_test

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/celint/celint/rulesets"
)

// sharedRun is how many consecutive lines two folders may have in common.
const sharedRun = 6

// TestNoRuleBodyTwice: no two folders of a ruleset name (its versions and
// its shared folder) have a run of sharedRun or more identical
// non-comment lines in their YAML files. A rule that means the same in two
// versions is written once, in the shared folder, and the versions include
// it; what differs is a param. A rule's classification (kind, level,
// status, …: a handful of values every rule picks from) is not its body,
// and is left out of the runs.
func TestNoRuleBodyTwice(t *testing.T) {
	fsys := rulesets.Files()
	names, err := fs.Glob(fsys, "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		folders, err := fs.Glob(fsys, name+"/*")
		if err != nil {
			t.Fatal(err)
		}
		runs := map[string]map[string]string{} // folder -> run -> where
		for _, folder := range folders {
			runs[folder] = yamlRuns(t, fsys, folder)
		}
		sort.Strings(folders)
		for i, a := range folders {
			for _, b := range folders[i+1:] {
				var shared []string
				for run, at := range runs[a] {
					if bt, ok := runs[b][run]; ok {
						shared = append(shared, fmt.Sprintf("%s and %s:\n%s", at, bt, run))
					}
				}
				sort.Strings(shared)
				for _, s := range shared[:min(len(shared), 5)] {
					t.Errorf("%d identical lines in two folders, %s", sharedRun, s)
				}
				if len(shared) > 5 {
					t.Errorf("%s and %s share %d more runs", a, b, len(shared)-5)
				}
			}
		}
	}
}

// classification matches a line of a rule's classification.
var classification = regexp.MustCompile(`^(kind|level|protocolVersions|aliases|status|enforcement|requiredBy): *[^ ]*$`)

// yamlRuns returns every run of sharedRun consecutive non-blank,
// non-comment lines (trimmed) of the YAML files of folder, with where the
// first is.
func yamlRuns(t *testing.T, fsys fs.FS, folder string) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, err := fs.Glob(fsys, folder+"/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			t.Fatal(err)
		}
		type line struct {
			text string
			n    int
		}
		var lines []line
		for i, l := range strings.Split(string(data), "\n") {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "#") || classification.MatchString(l) {
				continue
			}
			lines = append(lines, line{l, i + 1})
		}
		for i := 0; i+sharedRun <= len(lines); i++ {
			var b strings.Builder
			for _, l := range lines[i : i+sharedRun] {
				b.WriteString("    " + l.text + "\n")
			}
			if _, ok := out[b.String()]; !ok {
				out[b.String()] = fmt.Sprintf("%s:%d", path.Join(f), lines[i].n)
			}
		}
	}
	return out
}

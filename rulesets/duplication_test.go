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
// its shared folders) have a run of sharedRun or more identical
// non-comment lines in their YAML files. A rule that means the same in two
// versions is written once, in a shared folder, and the versions include
// it; what differs is a param. A rule's classification (kind, level,
// status, …: a handful of values every rule picks from) is not its body,
// and is left out of the runs. So are two more kinds of lines that are the
// same because they name the same thing, not because a rule is written
// twice:
//
//   - a rule's requiredBy citations: a citation names a section of a
//     specification and quotes it, and many rules enforce the same
//     sentence (13.2 of 0.7.0, "Extensions MUST NOT appear within objects
//     defined by this specification", stands behind every closed object);
//     two rules citing the same sections in the same order are not one
//     rule written twice;
//   - a header's named selections: they say where a version's documents
//     put their objects (tools.#, transports.#, …), and two versions whose
//     documents put them in the same place name them alike. A header can
//     take another's selections only by extending it, which a version with
//     another context (0.7.0 has no protocol scopes) cannot do; the rules
//     that use the selections are what is shared.
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
		skip := -1 // the indentation of the block being left out, or -1
		for i, raw := range strings.Split(string(data), "\n") {
			l := strings.TrimSpace(raw)
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			indent := len(raw) - len(strings.TrimLeft(raw, " "))
			if skip >= 0 && (indent > skip || indent == skip && strings.HasPrefix(l, "- ")) {
				continue
			}
			skip = -1
			if l == "requiredBy:" || path.Base(f) == "ruleset.yaml" && indent == 0 && l == "selections:" {
				// Left out, and a break: the lines before and after it
				// are not one run.
				skip = indent
				lines = append(lines, line{fmt.Sprintf("\x00%s:%d", f, i+1), i + 1})
				continue
			}
			if classification.MatchString(l) {
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

package cel

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRuleFormatLibraryTables: every function in a "Library version N
// adds:" table of docs/rule-format.md, with the number of arguments it is
// written with, is declared at library version N and not before.
func TestRuleFormatLibraryTables(t *testing.T) {
	page, err := os.ReadFile("../docs/rule-format.md")
	if err != nil {
		t.Fatal(err)
	}
	// arity[v][name] holds the argument counts declared at version v.
	arity := make([]map[string]map[int]bool, LatestLibrary+1)
	for v := 1; v <= LatestLibrary; v++ {
		e := newEnv(t, Config{Library: v})
		arity[v] = map[string]map[int]bool{}
		for name, fn := range e.env.Functions() {
			for _, o := range fn.OverloadDecls() {
				if arity[v][name] == nil {
					arity[v][name] = map[int]bool{}
				}
				arity[v][name][len(o.ArgTypes())] = true
			}
		}
	}
	heading := regexp.MustCompile(`^Library version (\d+) adds:$`)
	call := regexp.MustCompile("`([a-zA-Z]+)\\(([^`]*)\\)`")
	version, rows := 0, 0
	for _, line := range strings.Split(string(page), "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			version, _ = strconv.Atoi(m[1])
			continue
		}
		if version == 0 {
			continue
		}
		if line != "" && !strings.HasPrefix(line, "|") {
			version = 0 // the table has ended
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range call.FindAllStringSubmatch(cells[1], -1) {
			name, n := m[1], len(strings.Split(m[2], ","))
			rows++
			if version > LatestLibrary || !arity[version][name][n] {
				t.Errorf("docs/rule-format.md lists %s with %d arguments under library version %d, which does not declare it", name, n, version)
				continue
			}
			if version > 1 && arity[version-1][name][n] {
				t.Errorf("docs/rule-format.md lists %s with %d arguments under library version %d, but version %d already declares it", name, n, version, version-1)
			}
		}
	}
	if rows == 0 {
		t.Fatal(`no "Library version N adds:" table found in docs/rule-format.md`)
	}
}

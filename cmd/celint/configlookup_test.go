package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileParent makes a shared folder holding a config file that ignores
// everything and never fails, with the example in shared/repo (a
// repository: .git is a folder), shared/repo/sub and shared/home/project
// (HOME is shared/home), and returns the shared folder.
func hostileParent(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	shared := t.TempDir()
	write(t, shared, ".celint.yaml", "ignore: [\"**\"]\nfailOn: never\n")
	for _, f := range []string{"repo/server.yaml", "repo/sub/server.yaml", "home/project/server.yaml"} {
		write(t, shared, f, string(src))
	}
	if err := os.Mkdir(filepath.Join(shared, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", filepath.Join(shared, "home"))
	return shared
}

// TestConfigLookupStops: a config file above the repository root, or above
// the home folder, is never used: the run checks every file and fails on
// the finding, and says nothing about a config.
func TestConfigLookupStops(t *testing.T) {
	shared := hostileParent(t)
	for _, from := range []string{"repo", "repo/sub", "home/project"} {
		t.Chdir(filepath.Join(shared, from))
		code, out, errOut := runCLI(t, "check", ".")
		if code != exitFindings || !strings.Contains(out, "58:22") || strings.Contains(errOut, "config") {
			t.Errorf("from %s: exit %d, want 1 with the finding and no config\n%s%s", from, code, out, errOut)
		}
	}
}

// TestConfigLookupUsed: from a subfolder of a repository, the config file
// at its root is used; stderr says which, relative to the working folder,
// and the json and sarif reports carry its path.
func TestConfigLookupUsed(t *testing.T) {
	shared := hostileParent(t)
	write(t, shared, "repo/.celint.yaml", "rules:\n  mcpdesc.elicitation.form-schema.consistency: warning\n")
	t.Chdir(filepath.Join(shared, "repo", "sub"))
	want := filepath.Join("..", ".celint.yaml")
	code, out, errOut := runCLI(t, "check", "--format", "json", ".")
	if code != exitOK || errOut != "celint: using config "+want+"\n" {
		t.Errorf("exit %d, stderr %q; want 0 and the config named once", code, errOut)
	}
	var j struct {
		Config      string
		Diagnostics []struct{ Severity string }
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || j.Config != want || len(j.Diagnostics) != 1 || j.Diagnostics[0].Severity != "warning" {
		t.Errorf("json: %v, config %q, diagnostics %+v; want %q and one warning", err, j.Config, j.Diagnostics, want)
	}
	_, out, _ = runCLI(t, "check", "--format", "sarif", ".")
	var s struct {
		Runs []struct {
			Artifacts []struct {
				Location struct{ URI string }
				Roles    []string
			}
		}
	}
	// The config file first, then the file checked.
	if err := json.Unmarshal([]byte(out), &s); err != nil || len(s.Runs) != 1 || len(s.Runs[0].Artifacts) != 2 ||
		s.Runs[0].Artifacts[0].Location.URI != "../.celint.yaml" || strings.Join(s.Runs[0].Artifacts[0].Roles, ",") != "userSpecifiedConfiguration" {
		t.Errorf("sarif: %v, artifacts %+v", err, s.Runs)
	}
	// --no-config: no line, no path in the report.
	code, out, errOut = runCLI(t, "check", "--no-config", "--format", "json", ".")
	if code != exitFindings || errOut != "" || strings.Contains(out, `"config"`) {
		t.Errorf("--no-config: exit %d, stderr %q\n%s", code, errOut, out)
	}
}

// TestAllIgnored: a run whose every file found is ignored says so on
// stderr, naming the patterns, prints a valid report of no files, and
// exits with code 2, as for a folder without documents; a file named on
// the command line that is ignored has its own note and exits 0.
func TestAllIgnored(t *testing.T) {
	dir := project(t)
	write(t, dir, ".celint.yaml", "ignore:\n  - \"**/*.yaml\"\n")
	code, out, errOut := runCLI(t, "check", "--format", "json", ".")
	if code != exitError || !strings.Contains(errOut, `celint: nothing was checked: all 3 files found are ignored by .celint.yaml:2:5 "**/*.yaml"`) {
		t.Errorf("walk: exit %d, want 2 and the note; stderr %q", code, errOut)
	}
	var j struct {
		Diagnostics []any
		Counts      struct{ Files int }
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || len(j.Diagnostics) != 0 || j.Counts.Files != 0 {
		t.Errorf("report: %v\n%s", err, out)
	}
	code, _, errOut = runCLI(t, "check", "--no-config", "--ignore", "legacy", "--ignore", "*.yaml", "server.yaml", "legacy", "gen")
	if code != exitError || !strings.Contains(errOut, `nothing was checked: all 3 files found are ignored by --ignore "*.yaml", --ignore "legacy"`) {
		t.Errorf("--ignore: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "check", "server.yaml")
	if code != exitOK || !strings.Contains(errOut, "server.yaml is not checked") || !strings.Contains(errOut, "nothing was checked: the one file found is ignored by .celint.yaml:2:5") {
		t.Errorf("named file: exit %d, want 0 with the notes; stderr %q", code, errOut)
	}
}

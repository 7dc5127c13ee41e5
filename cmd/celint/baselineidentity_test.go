package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// identityDoc is a description whose tools each have one finding (an
// inputSchema that does not describe an object), with the tools named by
// names, in that order.
func identityDoc(version string, names ...string) string {
	var b strings.Builder
	b.WriteString("mcpdesc: \"" + version + "\"\n$schema: https://example.com/s.json\ninfo: {name: demo, version: \"1.0.0\"}\n")
	if version != "0.7.0" {
		b.WriteString("protocolVersions: [\"2025-06-18\"]\n")
	}
	b.WriteString("transports:\n  - {type: stdio, command: demo}\ntools:\n")
	for _, n := range names {
		b.WriteString("  - name: " + n + "\n    description: The " + n + " tool.\n    inputSchema: {type: objec}\n")
	}
	return b.String()
}

// TestBaselineIdentity: a baseline keys a finding inside a tool by the
// tool's name (the ruleset's context.identity), so inserting a tool above
// recorded findings reports only the new tool's finding; a baseline that
// records findings by index still hides them; tools that share a name are
// keyed by index.
func TestBaselineIdentity(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "server.yaml")
	base := filepath.Join(dir, "base.json")
	check := func(args ...string) (int, string) {
		t.Helper()
		code, out, errOut := runCLI(t, append([]string{"check", "--no-config", "--format", "json"}, args...)...)
		if code > 1 {
			t.Fatalf("celint %v: exit %d: %s%s", args, code, out, errOut)
		}
		return code, out
	}
	for _, version := range []string{"0.7.0", "0.8.0"} {
		t.Run(version, func(t *testing.T) {
			write(t, dir, "server.yaml", identityDoc(version, "alpha", "beta"))
			check("--write-baseline", base, doc)
			recorded, err := os.ReadFile(base)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`/tools/[name=\"alpha\"]/inputSchema`, `/tools/[name=\"beta\"]/inputSchema`} {
				if !strings.Contains(string(recorded), want) {
					t.Errorf("baseline lacks key %s:\n%s", want, recorded)
				}
			}

			// A tool inserted above both: only its own finding is new.
			write(t, dir, "server.yaml", identityDoc(version, "gamma", "alpha", "beta"))
			code, out := check("--baseline", base, doc)
			if ps := pointers(t, out); code != 1 || len(ps) == 0 || slices.ContainsFunc(ps, func(p string) bool { return !strings.HasPrefix(p, "/tools/0/") }) {
				t.Errorf("after inserting a tool above, want only /tools/0's findings, got %q; exit %d", ps, code)
			}
			// Reordered: nothing is new.
			write(t, dir, "server.yaml", identityDoc(version, "beta", "alpha"))
			if code, out := check("--baseline", base, doc); code != 0 || len(pointers(t, out)) != 0 {
				t.Errorf("after reordering, want nothing new, got %q; exit %d", pointers(t, out), code)
			}

			// A baseline recorded by index still hides the same findings.
			old := strings.NewReplacer(`[name=\"alpha\"]`, "0", `[name=\"beta\"]`, "1").Replace(string(recorded))
			write(t, dir, "old.json", old)
			write(t, dir, "server.yaml", identityDoc(version, "alpha", "beta"))
			if code, out := check("--baseline", filepath.Join(dir, "old.json"), doc); code != 0 || len(pointers(t, out)) != 0 {
				t.Errorf("an index-keyed baseline should still hide its findings, got %q; exit %d", pointers(t, out), code)
			}
		})
	}

	// Two tools named alike are keyed by index: neither name identifies one.
	write(t, dir, "server.yaml", identityDoc("0.8.0", "alpha", "alpha", "beta"))
	check("--write-baseline", base, doc)
	recorded, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"/tools/0/inputSchema/type"`, `"/tools/1/inputSchema/type"`, `"/tools/[name=\"beta\"]/inputSchema/type"`} {
		if !strings.Contains(string(recorded), want) {
			t.Errorf("baseline lacks key %s:\n%s", want, recorded)
		}
	}
}

// pointers returns the pointers of the diagnostics of a JSON report.
func pointers(t *testing.T, out string) []string {
	t.Helper()
	var r struct {
		Diagnostics []struct{ Pointer string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	var ps []string
	for _, d := range r.Diagnostics {
		ps = append(ps, d.Pointer)
	}
	return ps
}

//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileRule is an extra rule whose examples name fixtures.
const hostileRule = `rules:
  - id: acme.tools.described
    level: should
    given: tools.#
    checks:
      - assert: has(self.description)
    examples:
      valid: [{source: %s, selected: /tools/0}]
`

// TestHostileRuleFolders: a rule folder whose rule files, header or
// fixtures are named pipes, devices, too large, or lead outside the folder
// through a symbolic link ends, for every command, in a clear error naming
// the file, exit code 2, no crash trace, and nothing read from outside.
func TestHostileRuleFolders(t *testing.T) {
	outside := t.TempDir()
	secret := write(t, outside, "secret.yaml", "mcpdesc: \"0.9.0\"\ntools: [{name: TOPSECRET}]\n")
	fifo := func(t *testing.T, p string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(t *testing.T, target, p string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	rule := func(source string) string { return strings.Replace(hostileRule, "%s", source, 1) }
	const header = "name: house\ntag: v0.0.1\nextends: mcpdesc@v0.9.0-rc.3\nfixtures: fx\n"
	tests := []struct {
		name  string
		build func(t *testing.T, dir string)
		want  []string // in stderr, besides the folder's name
	}{
		{"rule file linked to /dev/zero", func(t *testing.T, dir string) {
			link(t, "/dev/zero", filepath.Join(dir, "z.yaml"))
		}, []string{"z.yaml: cannot read: leads outside the folder"}},
		{"rule file that is a FIFO", func(t *testing.T, dir string) {
			fifo(t, filepath.Join(dir, "f.yaml"))
		}, []string{"f.yaml: cannot read: a named pipe (FIFO), not a regular file"}},
		{"rule file linked to a FIFO inside", func(t *testing.T, dir string) {
			fifo(t, filepath.Join(dir, "pipe"))
			link(t, "pipe", filepath.Join(dir, "f.yaml"))
		}, []string{"f.yaml: cannot read: a named pipe (FIFO), not a regular file"}},
		{"rule file larger than the limit", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "big.yaml"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(filepath.Join(dir, "big.yaml"), 5<<20); err != nil {
				t.Fatal(err)
			}
		}, []string{"big.yaml: input is 5242880 bytes, more than the limit of 4194304 bytes"}},
		{"rule file linked outside", func(t *testing.T, dir string) {
			link(t, secret, filepath.Join(dir, "s.yaml"))
		}, []string{"s.yaml: cannot read: leads outside the folder"}},
		{"header that is a FIFO", func(t *testing.T, dir string) {
			fifo(t, filepath.Join(dir, "ruleset.yaml"))
			write(t, dir, "r.yaml", "rules: []\n")
		}, []string{"ruleset.yaml: cannot read the ruleset header: a named pipe (FIFO)"}},
		{"header linked outside", func(t *testing.T, dir string) {
			link(t, secret, filepath.Join(dir, "ruleset.yaml"))
			write(t, dir, "r.yaml", "rules: []\n")
		}, []string{"ruleset.yaml: cannot read the ruleset header: leads outside the folder"}},
		{"header fixtures linked to /", func(t *testing.T, dir string) {
			write(t, dir, "ruleset.yaml", header)
			write(t, dir, "r.yaml", rule("etc/hostname"))
			link(t, "/", filepath.Join(dir, "fx"))
		}, []string{`r.yaml:8:24: example source "etc/hostname" in`, "cannot be read: leads outside the folder"}},
		{"header fixtures linked outside", func(t *testing.T, dir string) {
			write(t, dir, "ruleset.yaml", header)
			write(t, dir, "r.yaml", rule("secret.yaml"))
			link(t, outside, filepath.Join(dir, "fx"))
		}, []string{`r.yaml:8:24: example source "secret.yaml" in`, "cannot be read: leads outside the folder"}},
		{"folder fixtures linked outside", func(t *testing.T, dir string) {
			write(t, dir, "r.yaml", rule("secret.yaml"))
			link(t, outside, filepath.Join(dir, "fixtures"))
		}, []string{"fixtures: cannot read the fixtures folder: leads outside the folder"}},
		{"fixture linked outside", func(t *testing.T, dir string) {
			write(t, dir, "r.yaml", rule("s.yaml"))
			link(t, secret, filepath.Join(dir, "fixtures", "s.yaml"))
		}, []string{`r.yaml:8:24: example source "s.yaml" in`, "cannot be read: leads outside the folder"}},
		{"fixture linked to /dev/zero", func(t *testing.T, dir string) {
			write(t, dir, "r.yaml", rule("z.yaml"))
			link(t, "/dev/zero", filepath.Join(dir, "fixtures", "z.yaml"))
		}, []string{`r.yaml:8:24: example source "z.yaml" in`, "cannot be read: leads outside the folder"}},
		{"fixture that is a FIFO", func(t *testing.T, dir string) {
			write(t, dir, "r.yaml", rule("p.yaml"))
			fifo(t, filepath.Join(dir, "fixtures", "p.yaml"))
		}, []string{`r.yaml:8:24: example source "p.yaml" in`, "fixtures is not a regular file"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "house")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			tc.build(t, dir)
			for _, args := range [][]string{
				{"conformance", "--rules", dir},
				{"check", "--rules", dir, example},
				{"rules", "--rules", dir},
			} {
				code, out, errOut := runWithin(t, 20*time.Second, "", args...)
				if code != 2 {
					t.Errorf("%s: exit %d, want 2\n%s%s", args[0], code, out, errOut)
				}
				for _, w := range tc.want {
					if !strings.Contains(errOut, dir+"/") || !strings.Contains(errOut, w) {
						t.Errorf("%s: stderr lacks the folder or %q:\n%s", args[0], w, errOut)
					}
				}
				if strings.Contains(out+errOut, "TOPSECRET") || strings.Contains(out+errOut, "goroutine ") {
					t.Errorf("%s: printed a file from outside the folder, or a crash trace:\n%s%s", args[0], out, errOut)
				}
			}
		})
	}
}

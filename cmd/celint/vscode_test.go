package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// vscodeExtension is the VS Code extension's folder.
const vscodeExtension = "../../editors/vscode"

// vscodeManifest is the part of the extension's package.json the test
// reads.
type vscodeManifest struct {
	Name             string            `json:"name"`
	Publisher        string            `json:"publisher"`
	Main             string            `json:"main"`
	Engines          map[string]string `json:"engines"`
	ActivationEvents []string          `json:"activationEvents"`
	Dependencies     map[string]string `json:"dependencies"`
	Contributes      struct {
		Configuration struct {
			Properties map[string]struct {
				Type                string `json:"type"`
				Default             any    `json:"default"`
				MarkdownDescription string `json:"markdownDescription"`
			} `json:"properties"`
		} `json:"configuration"`
	} `json:"contributes"`
}

// TestVSCodeExtension checks editors/vscode without VS Code: the manifest
// parses and names a main file that exists, activates on YAML and JSON,
// has the settings extension.js reads, and locks the language client it
// requires; extension.js starts `celint lsp` for YAML and JSON documents;
// and the flags the settings mention are celint lsp's.
func TestVSCodeExtension(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(vscodeExtension, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m vscodeManifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("package.json: %v", err)
	}
	if m.Name != "celint" || m.Publisher == "" || m.Engines["vscode"] == "" {
		t.Errorf("name %q, publisher %q, engines %v", m.Name, m.Publisher, m.Engines)
	}
	for _, want := range []string{"onLanguage:yaml", "onLanguage:json"} {
		if !slices.Contains(m.ActivationEvents, want) {
			t.Errorf("activationEvents %v lack %s", m.ActivationEvents, want)
		}
	}
	props := m.Contributes.Configuration.Properties
	if p := props["celint.path"]; p.Type != "string" || p.Default != "celint" {
		t.Errorf("celint.path: %+v", p)
	}
	if p := props["celint.args"]; p.Type != "array" {
		t.Errorf("celint.args: %+v", p)
	}

	main, err := os.ReadFile(filepath.Join(vscodeExtension, m.Main))
	if err != nil {
		t.Fatalf("main %q: %v", m.Main, err)
	}
	src := string(main)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`require\('vscode-languageclient/node'\)`),
		regexp.MustCompile(`getConfiguration\('celint'\)`),
		regexp.MustCompile(`config\.get\('path', 'celint'\)`),
		regexp.MustCompile(`args: \['lsp', \.\.\.config\.get\('args', \[\]\)\]`),
		regexp.MustCompile(`\{ scheme: 'file', language: 'yaml' \}`),
		regexp.MustCompile(`\{ scheme: 'file', language: 'json' \}`),
		regexp.MustCompile(`\{ scheme: 'untitled', language: 'yaml' \}`),
		regexp.MustCompile(`\{ scheme: 'untitled', language: 'json' \}`),
		regexp.MustCompile(`module\.exports = \{ activate, deactivate \}`),
	} {
		if !want.MatchString(src) {
			t.Errorf("%s: no match for %s", m.Main, want)
		}
	}
	// The extension reads no setting that package.json does not declare.
	for _, get := range regexp.MustCompile(`config\.get\('([^']+)'`).FindAllStringSubmatch(src, -1) {
		if _, ok := props["celint."+get[1]]; !ok {
			t.Errorf("%s reads celint.%s, which package.json does not declare", m.Main, get[1])
		}
	}

	// The lock file has the language client the manifest requires, of
	// the same major version, and the manifest asks for a VS Code that
	// client supports.
	const client = "vscode-languageclient"
	want, ok := m.Dependencies[client]
	if !ok {
		t.Fatalf("dependencies %v lack %s", m.Dependencies, client)
	}
	data, err = os.ReadFile(filepath.Join(vscodeExtension, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lock struct {
		Packages map[string]struct {
			Version      string            `json:"version"`
			Dependencies map[string]string `json:"dependencies"`
			Engines      map[string]string `json:"engines"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		t.Fatalf("package-lock.json: %v", err)
	}
	if got := lock.Packages[""].Dependencies[client]; got != want {
		t.Errorf("package-lock.json is not package.json's: it locks %s %q, package.json asks for %q (run npm install --package-lock-only)", client, got, want)
	}
	locked := lock.Packages["node_modules/"+client]
	major, _, _ := strings.Cut(strings.TrimLeft(want, "^~"), ".")
	if !strings.HasPrefix(locked.Version, major+".") {
		t.Errorf("package-lock.json has %s %q, package.json asks for %q", client, locked.Version, want)
	}
	if e := locked.Engines["vscode"]; e != "" && !atLeast(m.Engines["vscode"], e) {
		t.Errorf("engines.vscode is %q, %s %s asks for %q", m.Engines["vscode"], client, locked.Version, e)
	}

	// The flags the celint.args setting names are celint lsp's.
	code, usage, _ := runCLI(t, "lsp", "-h")
	if code != 0 {
		t.Fatalf("celint lsp -h: exit %d", code)
	}
	flags := regexp.MustCompile(`--[a-z-]+`).FindAllString(props["celint.args"].MarkdownDescription, -1)
	if len(flags) == 0 {
		t.Error("the celint.args setting names no flag")
	}
	for _, f := range flags {
		if !strings.Contains(usage, "\n  "+f[1:]+" ") && !strings.Contains(usage, "\n  "+f[1:]+"\n") {
			t.Errorf("the celint.args setting names %s, which celint lsp -h does not list:\n%s", f, usage)
		}
	}
}

// atLeast reports whether the lowest version the range got admits is no
// older than that of want; both are "^1.2.3", ">=1.2.3" or "1.2.3".
func atLeast(got, want string) bool {
	parse := func(r string) []int {
		var v []int
		for _, part := range strings.Split(strings.TrimLeft(r, "^~>="), ".") {
			n, err := strconv.Atoi(part)
			if err != nil {
				return nil
			}
			v = append(v, n)
		}
		return v
	}
	g, w := parse(got), parse(want)
	return g != nil && w != nil && slices.Compare(g, w) >= 0
}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The Neovim runs: their scripts, the description they open, and the
// page whose config one of them runs.
const (
	nvimScript      = "../../testdata/nvim/e2e.lua"
	nvimDiagnostics = "../../testdata/nvim/diagnostics.lua"
	nvimDescription = "../../testdata/nvim/faulty.mcpdesc.yaml"
	editorsDoc      = "../../docs/editors.md"
)

// TestNeovim runs celint lsp under a real editor: headless Neovim with its
// built-in LSP client. "e2e" runs testdata/nvim/e2e.lua, which opens a
// description with three findings, applies the fix of the duplicate tag
// through a code action and writes a transcript of what Neovim saw; "docs
// config" runs the Neovim 0.7 config of docs/editors.md as a user's
// init.lua would. Without nvim on PATH the test skips, except under
// CI=true, where it fails.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nvim is not on PATH (CI=true): .ci/run installs Debian's neovim")
		}
		msg := "TestNeovim skipped: nvim is not on PATH (apt-get install neovim to run it)"
		fmt.Fprintln(os.Stderr, msg)
		t.Skip(msg)
	}
	bin := buildCelint(t)
	src, err := os.ReadFile(nvimDescription)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("e2e", func(t *testing.T) { testNeovimE2E(t, nvim, bin, src) })
	t.Run("docs config", func(t *testing.T) { testNeovimDocsConfig(t, nvim, bin, src) })
}

// runNeovim runs headless Neovim in dir with the init file init ("NONE"
// for none) and the Ex commands cmds, and returns the transcript the
// scripts write to CELINT_E2E_OUT and Neovim's error. Neovim's own files
// (its LSP log among them) stay in dir, and PATH starts with bin's folder.
func runNeovim(t *testing.T, nvim, bin, dir, init string, env []string, cmds ...string) ([]byte, error) {
	t.Helper()
	transcript := filepath.Join(dir, "transcript.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := []string{"--headless", "--clean", "-u", init}
	for _, c := range cmds {
		args = append(args, "-c", c)
	}
	cmd := exec.CommandContext(ctx, nvim, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Env = append(cmd.Env,
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CELINT_E2E_OUT="+transcript,
	)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		cmd.Env = append(cmd.Env, v+"="+filepath.Join(dir, "xdg", strings.ToLower(v)))
	}
	cmd.WaitDelay = 10 * time.Second
	out, runErr := cmd.CombinedOutput()
	data, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatalf("no transcript (nvim: %v)\n%s", runErr, out)
	}
	t.Logf("transcript of nvim %s:\n%s", strings.Join(args, " "), data)
	var ee *exec.ExitError
	if runErr != nil && !errors.As(runErr, &ee) || ctx.Err() != nil {
		t.Fatalf("nvim: %v (%v)\n%s", runErr, ctx.Err(), out)
	}
	if runErr != nil && len(out) > 0 {
		t.Logf("nvim printed:\n%s", out)
	}
	return data, runErr
}

func testNeovimE2E(t *testing.T, nvim, bin string, src []byte) {
	script, err := filepath.Abs(nvimScript)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := write(t, dir, "faulty.mcpdesc.yaml", string(src))
	data, runErr := runNeovim(t, nvim, bin, dir, "NONE",
		[]string{"CELINT_E2E_SCRIPT=" + script, "CELINT_LSP_CMD=" + bin, "CELINT_E2E_FILE=" + file},
		"lua dofile(os.getenv('CELINT_E2E_SCRIPT'))")
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if runErr != nil || lines[len(lines)-1] != "OK" {
		t.Fatalf("the script did not run to its end: %v", runErr)
	}

	// Before the fix: the three findings, as Neovim holds them and as its
	// quickfix list shows them.
	before := section(lines, "before the fix: ")
	wantBefore := []string{
		"before the fix: 3 diagnostics",
		"1:1 WARN mcpdesc.document.schema-reference/missing ",
		"1:1 ERROR mcpdesc.document.structure ",
		"10:19 ERROR mcpdesc.tags.references/duplicate ",
		":clist",
		" 1 faulty.mcpdesc.yaml:1 col 1-17 warning: ",
		" 2 faulty.mcpdesc.yaml:1 col 1-17 error: ",
		" 3 faulty.mcpdesc.yaml:10 col 19-24 error: tag \"notes\" is listed more than once",
	}
	if !hasPrefixes(before, wantBefore) {
		t.Errorf("before the fix:\n%s\nwant lines starting with:\n%s", strings.Join(before, "\n"), strings.Join(wantBefore, "\n"))
	}
	for _, want := range []string{
		"hover at 10:19: **mcpdesc.tags.references/duplicate** (error)",
		"code action: Fix mcpdesc.tags.references/duplicate",
		"code action: Suppress mcpdesc.tags.references/duplicate on this line (quickfix)",
		"applied: Fix mcpdesc.tags.references/duplicate",
		"line 10 now:     tags: [notes]",
	} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("no line starting with %q", want)
		}
	}

	// After the fix: the duplicate is gone, the other two stay.
	after := section(lines, "after the fix: ")
	wantAfter := []string{
		"after the fix: 2 diagnostics",
		"1:1 WARN mcpdesc.document.schema-reference/missing ",
		"1:1 ERROR mcpdesc.document.structure ",
		":clist",
		" 1 faulty.mcpdesc.yaml:1 col 1-17 warning: ",
		" 2 faulty.mcpdesc.yaml:1 col 1-17 error: ",
	}
	if !hasPrefixes(after, wantAfter) {
		t.Errorf("after the fix:\n%s\nwant lines starting with:\n%s", strings.Join(after, "\n"), strings.Join(wantAfter, "\n"))
	}

	// Neovim wrote the fixed buffer: the description with the second
	// "notes" removed, and nothing else changed.
	fixed, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(string(src), "tags: [notes, notes]", "tags: [notes]", 1); string(fixed) != want {
		t.Errorf("the file Neovim wrote:\n%s\nwant:\n%s", fixed, want)
	}

	// The client stopped the server with shutdown and exit, and it
	// exited with 0 although Neovim keeps its standard input open.
	if !slices.Contains(lines, "server exited with code 0 after shutdown and exit") {
		t.Errorf("the server did not exit with 0 after shutdown and exit")
	}
}

// section returns the transcript's lines from the one starting with title
// up to the next one without a leading digit, space or colon (the
// diagnostics and the :clist lines).
func section(lines []string, title string) []string {
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, title) })
	if start < 0 {
		return nil
	}
	end := start + 1
	for end < len(lines) && lines[end] != "" && strings.ContainsRune("0123456789 :", rune(lines[end][0])) {
		end++
	}
	return lines[start:end]
}

// hasPrefixes reports whether lines are as many as prefixes and each
// starts with its own.
func hasPrefixes(lines, prefixes []string) bool {
	if len(lines) != len(prefixes) {
		return false
	}
	for i, p := range prefixes {
		if !strings.HasPrefix(lines[i], p) {
			return false
		}
	}
	return true
}

// testNeovimDocsConfig runs the Neovim 0.7 config of docs/editors.md as
// init.lua, with celint on PATH, opens a description in a git work tree
// and waits for its diagnostics.
func testNeovimDocsConfig(t *testing.T, nvim, bin string, src []byte) {
	doc, err := os.ReadFile(editorsDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "\nNeovim 0.7 has neither")
	_, block, ok2 := strings.Cut(after, "```lua\n")
	config, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 || !strings.Contains(config, "vim.lsp.start_client") {
		t.Fatalf("%s has no Neovim 0.7 config after \"Neovim 0.7 has neither\"", editorsDoc)
	}
	script, err := filepath.Abs(nvimDiagnostics)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	write(t, dir, "sub/faulty.mcpdesc.yaml", string(src))
	init := write(t, dir, "init.lua", config)
	data, runErr := runNeovim(t, nvim, bin, dir, init, []string{"CELINT_E2E_SCRIPT=" + script},
		"edit sub/faulty.mcpdesc.yaml", "lua dofile(os.getenv('CELINT_E2E_SCRIPT'))")
	want := "filetype yaml, 1 clients\n" +
		"1:1 WARN mcpdesc.document.schema-reference/missing\n" +
		"1:1 ERROR mcpdesc.document.structure\n" +
		"10:19 ERROR mcpdesc.tags.references/duplicate\n"
	if runErr != nil || string(data) != want {
		t.Errorf("with the config of %s: %v\n%s\nwant:\n%s", editorsDoc, runErr, data, want)
	}
}

package report

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// outputFormatsPage is docs/output-formats.md made from the package
// documentation, as `go doc -all` prints it up to its first section of
// declarations.
func outputFormatsPage(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "doc", "-all", ".").Output()
	if err != nil {
		t.Fatalf("go doc: %v", err)
	}
	text := string(out)
	if i := strings.Index(text, "\nCONSTANTS\n"); i >= 0 {
		text = text[:i+1]
	}
	return "# Output formats\n\n`celint check --format " + strings.Join(Formats(), "|") +
		"`. This page is the package documentation of `engine/report` (regenerate with `go test ./engine/report -run TestOutputFormatsPage -update`).\n\n```text\n" +
		strings.TrimRight(text, "\n") + "\n```\n"
}

// TestOutputFormatsPage: docs/output-formats.md is the package
// documentation, so the page and the formats cannot drift apart.
func TestOutputFormatsPage(t *testing.T) {
	want := outputFormatsPage(t)
	const page = "../../docs/output-formats.md"
	if *update {
		if err := os.WriteFile(page, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale; run: go test ./engine/report -run TestOutputFormatsPage -update", page)
	}
}

package benchgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/internal/sharedtest"
	"go.yaml.in/yaml/v4"
)

// benchDir returns ../shared/bench and the python3 to run its generators
// with. Like sharedtest.Dir, a missing piece skips the test, except under
// CI (CI=true), where it fails.
func benchDir(t *testing.T) (dir, python string) {
	t.Helper()
	dir = sharedtest.Path(t, "bench")
	missing := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("CI") == "true" {
			t.Fatalf("benchgen: %s; CI must have it to compare the Go port with the Python generators", msg)
		}
		t.Skipf("benchgen: %s; skipping the comparison with the Python generators", msg)
	}
	for _, f := range []string{"gen_big.py", "genrules.py"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			missing("%s is absent", filepath.Join(dir, f))
		}
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		missing("python3 is not on PATH")
	}
	return dir, python
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// firstDiff describes where got and want first differ.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(i-80, 0)
	return fmt.Sprintf("first difference at byte %d (got %d bytes, want %d)\ngot:  %q\nwant: %q",
		i, len(got), len(want), got[lo:min(i+80, len(got))], want[lo:min(i+80, len(want))])
}

func TestDescriptionMatchesPython(t *testing.T) {
	dir, python := benchDir(t)
	for _, tools := range []int{0, 1, 7, 50} {
		t.Run(fmt.Sprint(tools), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "big.json")
			run(t, python, filepath.Join(dir, "gen_big.py"), fmt.Sprint(tools), out)
			want, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if got := Description(tools); !bytes.Equal(got, want) {
				t.Fatal(firstDiff(got, want))
			}
		})
	}
}

func TestRulesMatchPython(t *testing.T) {
	dir, python := benchDir(t)
	for _, n := range []int{1, 10, 25} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			out := t.TempDir()
			run(t, python, filepath.Join(dir, "genrules.py"), fmt.Sprint(n), out)
			want := map[string][]byte{}
			entries, err := os.ReadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if want[e.Name()], err = os.ReadFile(filepath.Join(out, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
			got := Rules(n)
			if g, w := slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)); !slices.Equal(g, w) {
				t.Fatalf("files: got %v, want %v", g, w)
			}
			for name, w := range want {
				if g := got[name]; !bytes.Equal(g, w) {
					t.Errorf("%s: %s", name, firstDiff(g, w))
				}
			}
		})
	}
}

func TestWriteRules(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rules")
	if err := WriteRules(dir, 25); err != nil {
		t.Fatal(err)
	}
	want := Rules(25)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Fatalf("%d files, want %d", len(entries), len(want))
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, want[e.Name()]) {
			t.Errorf("%s differs from Rules", e.Name())
		}
	}
}

// TestRulesAreJSON checks that every file is JSON with ten rules (the last
// the rest), numbered in order.
func TestRulesAreJSON(t *testing.T) {
	files := Rules(25)
	k := 0
	for _, name := range slices.Sorted(maps.Keys(files)) {
		var v struct{ Rules []struct{ ID string } }
		if err := json.Unmarshal(files[name], &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range v.Rules {
			if want := fmt.Sprintf("perf.r%03d.t%d", k, k%10); r.ID != want {
				t.Errorf("%s: rule id %q, want %q", name, r.ID, want)
			}
			k++
		}
	}
	if k != 25 {
		t.Errorf("%d rules, want 25", k)
	}
}

// TestDescriptionYAML checks that the YAML reads as the same value as the
// JSON (numbers compared as JSON numbers: YAML has ints, JSON float64s) and
// that it is block YAML.
func TestDescriptionYAML(t *testing.T) {
	for _, tools := range []int{0, 1, 7, 50} {
		var fromJSON, fromYAML any
		if err := json.Unmarshal(Description(tools), &fromJSON); err != nil {
			t.Fatal(err)
		}
		data := DescriptionYAML(tools)
		if err := yaml.Unmarshal(data, &fromYAML); err != nil {
			t.Fatal(err)
		}
		viaJSON, err := json.Marshal(fromYAML)
		if err != nil {
			t.Fatalf("%d tools: the YAML reads as a value JSON cannot hold: %v", tools, err)
		}
		fromYAML = nil
		if err := json.Unmarshal(viaJSON, &fromYAML); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fromYAML, fromJSON) {
			t.Errorf("%d tools: the YAML reads as a different value:\n%s", tools, viaJSON)
		}
		if bytes.ContainsAny(data, "{[") && tools > 0 {
			t.Errorf("%d tools: the YAML has flow collections:\n%s", tools, data)
		}
	}
	if got, want := string(DescriptionYAML(0)), "mcpdesc: 0.8.0\ninfo:\n  name: generated\n  version: 1.0.0\nprotocolVersions:\n  - \"2026-07-28\"\ntransports:\n  - type: stdio\n    command: generated\ntools: []\n"; got != want {
		t.Errorf("DescriptionYAML(0) =\n%s\nwant\n%s", got, want)
	}
}

func TestPyFloat(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0.0", 0.5: "0.5", 1.5: "1.5", 2: "2.0", 7498.5: "7498.5", 1e15: "1000000000000000.0",
		1e16: "1e+16", 1.5e16: "1.5e+16", 0.0001: "0.0001", 0.00015: "0.00015", 1.5e-5: "1.5e-05",
		-2.5: "-2.5", 0.1: "0.1", 1.0 / 3: "0.3333333333333333", 123456789.125: "123456789.125",
		1e300: "1e+300", 5e-324: "5e-324",
	} {
		if got := pyFloat(f); got != want {
			t.Errorf("pyFloat(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestWriteString(t *testing.T) {
	for s, want := range map[string]string{
		`a"b\c`:          `"a\"b\\c"`,
		"\n\r\t\b\f\x01": `"\n\r\t\b\f\u0001"`,
		"\x7fé€😀":        `"\u007f\u00e9\u20ac\ud83d\ude00"`,
		"mode==\"url\"":  `"mode==\"url\""`,
	} {
		var b strings.Builder
		writeString(&b, s)
		if got := b.String(); got != want {
			t.Errorf("writeString(%q) = %s, want %s", s, got, want)
		}
	}
}

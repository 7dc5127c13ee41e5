package suppress

import (
	"bytes"
	"testing"

	"github.com/celint/celint/engine"
)

// FuzzScan: scanning any source never panics; every directive and every
// problem lies on a line of the source, and applying the directives keeps
// rule errors.
func FuzzScan(f *testing.F) {
	f.Add([]byte("a: 1 # celint-disable-next-line r.x, r.y/c -- why\nb: 2\n"))
	f.Add([]byte("# celint-disable-file\r\n'#celint-disable-file x': \"# y\"\r"))
	f.Fuzz(func(t *testing.T, src []byte) {
		dirs, problems := Scan("f.yaml", src)
		lines := bytes.Count(src, []byte("\n")) + bytes.Count(src, []byte("\r")) + 1
		for _, d := range dirs {
			if d.Line < 1 || d.Line > lines || d.Col < 1 || len(d.Rules) == 0 {
				t.Fatalf("directive %+v in %q", d, src)
			}
		}
		for _, p := range problems {
			if p.Line < 1 || p.Line > lines || p.RuleID != "celint.suppression" {
				t.Fatalf("problem %+v in %q", p, src)
			}
		}
		ds := []engine.Diagnostic{{File: "f.yaml", RuleID: "r.x", Line: 2, Column: 1, RuleError: true}}
		kept := Apply("f.yaml", ds, dirs)
		if len(kept) == 0 || !kept[0].RuleError {
			t.Fatalf("a rule error was suppressed: %+v", kept)
		}
	})
}

package loader

import (
	"bytes"
	"testing"
)

// TestYAMLVersionDirective: a %YAML 1.2 directive is read (positions are
// those of the input); 1.1 and unknown versions are refused at their
// directive.
func TestYAMLVersionDirective(t *testing.T) {
	src := "# header\n%YAML 1.2\n%TAG !e! tag:example.com,2026:\n---\nname: x\nlist: [on, yes, 010]\n"
	doc := mustParse(t, "v.yaml", src, DefaultOptions())
	checkPositions(t, doc, []posCase{
		{"/name", "5:7", "5:1", String, "x"},
		{"/list/0", "6:8", "", String, "on"},
		{"/list/1", "6:12", "", String, "yes"},
		{"/list/2", "6:17", "", Number, int64(10)},
	})
	bom := "\xEF\xBB\xBF%YAML 1.2 # comment\r\n---\r\na: 1\r\n"
	doc = mustParse(t, "bom.yaml", bom, DefaultOptions())
	checkPositions(t, doc, []posCase{{"/a", "3:4", "3:1", Number, int64(1)}})

	for _, c := range []struct{ src, pos, msg string }{
		{"%YAML 1.1\n---\na: yes\n", "1:1", "%YAML 1.1 directive asks for YAML 1.1"},
		{"\n# c\n%YAML 1.1\na: 1\n", "3:1", "only YAML 1.2 is read"},
		{"%YAML 2.0\n---\na: 1\n", "1:1", "YAML 2.0 is not supported"},
		{"%YAML 1.3\n---\na: 1\n", "1:1", "YAML 1.3 is not supported"},
		{"%YAML 1.2\n%YAML 1.2\n---\na: 1\n", "2", "duplicate %YAML directive"},
	} {
		e := parseErr(t, "doc.yaml", c.src, DefaultOptions())
		if c.pos == "2" {
			if e.Pos.Line != 2 {
				t.Errorf("%q: error at %v, want line 2", c.src, e.Pos)
			}
			wantErr(t, e, "", c.msg)
			continue
		}
		wantErr(t, e, c.pos, c.msg)
	}
}

// TestYAMLVersionLeavesInputAlone: the rewriting works on a copy, and a
// "%YAML" that is not in the directives before the document is content.
func TestYAMLVersionLeavesInputAlone(t *testing.T) {
	in := []byte("%YAML 1.2\n---\na: 1\n")
	keep := bytes.Clone(in)
	out, err := yamlVersion("f.yaml", in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(in, keep) {
		t.Errorf("the input changed: %q", in)
	}
	if string(out) != "%YAML 1.1\n---\na: 1\n" {
		t.Errorf("yaml/v4 gets %q", out)
	}
	plain := []byte("a: |\n  %YAML 1.1\n")
	out, err = yamlVersion("f.yaml", plain)
	if err != nil || &out[0] != &plain[0] {
		t.Errorf("a document without directives: %q, %v", out, err)
	}
	doc := mustParse(t, "s.yaml", "a: |\n  %YAML 1.1\n", DefaultOptions())
	checkPositions(t, doc, []posCase{{"/a", "1:4", "1:1", String, "%YAML 1.1\n"}})
}

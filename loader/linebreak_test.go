package loader

import (
	"strings"
	"testing"
)

// TestLineBreaks checks that JSON and YAML count lines alike, as editors do:
// LF, CRLF and a lone CR each end a line, so node positions, error
// positions and Document.Offset agree whatever the line breaks are.
func TestLineBreaks(t *testing.T) {
	for _, c := range []struct {
		file  string
		lines []string
		node  string // pointer of a node on the third line, at col
		col   int
		bad   string // replaces "X" to make an error at 3:col
	}{
		{"b.json", []string{"{", `  "a": 1,`, `  "b": X`, "}"}, "/b", 8, "?"},
		{"b.yaml", []string{"a: 1 # note", "b: 'two'", "c: [1, X]"}, "/c/1", 8, "@"},
	} {
		for _, nl := range []string{"\n", "\r\n", "\r"} {
			name := strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(nl)
			src := strings.Join(c.lines, nl) + nl
			doc := mustParse(t, c.file, strings.Replace(src, "X", "3", 1), DefaultOptions())
			n, ok := doc.Lookup(c.node)
			if !ok {
				t.Fatalf("%s %s: no %s", c.file, name, c.node)
			}
			if n.Pos != (Pos{3, int32(c.col)}) {
				t.Errorf("%s %s: %s at %v, want 3:%d", c.file, name, c.node, n.Pos, c.col)
			}
			if off := doc.Offset(n.Pos); off < 0 || doc.Source[off] != '3' {
				t.Errorf("%s %s: Offset(%v) = %d", c.file, name, n.Pos, off)
			}
			if end := doc.End(n); end != (Pos{3, int32(c.col + 1)}) {
				t.Errorf("%s %s: End(%s) = %v", c.file, name, c.node, end)
			}
			e := parseErr(t, c.file, strings.Replace(src, "X", c.bad, 1), DefaultOptions())
			if e.Pos.Line != 3 || c.file == "b.json" && int(e.Pos.Col) != c.col {
				t.Errorf("%s %s: error at %v, want 3:%d: %v", c.file, name, e.Pos, c.col, e)
			}
		}
	}
}

// TestYAMLOnlyLineBreaks checks that the characters yaml/v4 reads as line
// breaks and YAML 1.2 does not (NEL, U+2028, U+2029) are refused at their
// line:col, in comments and in scalars, and stay ordinary characters in
// JSON.
func TestYAMLOnlyLineBreaks(t *testing.T) {
	for _, c := range []struct{ src, pos, msg string }{
		{"a: 1 # note\u2028b: 2\n", "1:12", `U+2028 (line separator) is not allowed in YAML`},
		{"a: x\u0085y\n", "1:5", `U+0085 (next line)`},
		{"a: 1\nb: \"p\u2029q\"\n", "2:6", `write it as \P in a double-quoted string`},
	} {
		wantErr(t, parseErr(t, "s.yaml", c.src, DefaultOptions()), c.pos, c.msg)
	}
	doc := mustParse(t, "s.json", "{\"a\": \"p\u2028q\u0085\",\n \"b\": 1}", DefaultOptions())
	if n, _ := doc.Lookup("/b"); n.Pos != (Pos{2, 7}) {
		t.Errorf("JSON /b at %v, want 2:7", n.Pos)
	}
}

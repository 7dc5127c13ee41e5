package lsp

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func TestTextPositions(t *testing.T) {
	// "😀" is one code point, two UTF-16 units and four bytes; "é" one
	// unit and two bytes.
	data := []byte("a: é😀x\r\nb: 2\rc\n\n")
	tx := newText(data)
	for _, tc := range []struct {
		p    protocol.Position
		off  int
		fail bool
	}{
		{pos(0, 0), 0, false},
		{pos(0, 3), 3, false},   // é
		{pos(0, 4), 5, false},   // 😀
		{pos(0, 5), 0, true},    // inside 😀
		{pos(0, 6), 9, false},   // x
		{pos(0, 7), 10, false},  // the line's end, before \r\n
		{pos(0, 99), 10, false}, // past the end: the end
		{pos(1, 0), 12, false},
		{pos(2, 1), 18, false}, // after a lone \r
		{pos(3, 0), 19, false},
		{pos(4, 0), 20, false}, // the empty last line
		{pos(5, 0), 20, false}, // the line after the last: the end, as clients send it
		{pos(5, 1), 0, true},
		{pos(6, 0), 0, true},
	} {
		off, err := tx.offset(tc.p)
		if (err != nil) != tc.fail || !tc.fail && off != tc.off {
			t.Errorf("offset(%+v) = %d, %v; want %d (error %v)", tc.p, off, err, tc.off, tc.fail)
			continue
		}
		if !tc.fail && tc.p.Character < 99 && tc.p.Line < 5 && tx.position(off) != tc.p {
			t.Errorf("position(%d) = %+v, want %+v", off, tx.position(off), tc.p)
		}
	}
	// The loader's columns count code points.
	if r := tx.lspRange(1, 5, 1, 7); r != (protocol.Range{Start: pos(0, 4), End: pos(0, 7)}) {
		t.Errorf("lspRange of 😀x: %+v", r)
	}
	if l, c := tx.SourcePos(9); l != 1 || c != 6 {
		t.Errorf("sourcePos(9) = %d:%d, want 1:6", l, c)
	}
}

func TestTextBOM(t *testing.T) {
	tx := newText([]byte("\uFEFFa: 1\nb: 2\n"))
	// The loader's 1:1 is after the mark, which is one UTF-16 unit.
	if r := tx.lspRange(1, 1, 1, 2); r != (protocol.Range{Start: pos(0, 1), End: pos(0, 2)}) {
		t.Errorf("lspRange(1:1) with a BOM: %+v", r)
	}
	if r := tx.lspRange(2, 1, 2, 2); r != (protocol.Range{Start: pos(1, 0), End: pos(1, 1)}) {
		t.Errorf("lspRange(2:1) with a BOM: %+v", r)
	}
	if l, c := tx.SourcePos(3); l != 1 || c != 1 {
		t.Errorf("sourcePos(3) = %d:%d", l, c)
	}
}

func TestApply(t *testing.T) {
	r := func(a, b, c, d uint32) *protocol.Range { return &protocol.Range{Start: pos(a, b), End: pos(c, d)} }
	for _, tc := range []struct {
		in      string
		changes []change
		want    string
		fail    bool
	}{
		{"abc", []change{{Range: r(0, 1, 0, 2), Text: "X"}}, "aXc", false},
		{"abc", []change{{Text: "new"}}, "new", false},
		{"a😀b", []change{{Range: r(0, 1, 0, 3), Text: ""}}, "ab", false},
		{"a\nb", []change{{Range: r(0, 1, 1, 0), Text: ""}, {Range: r(0, 1, 0, 1), Text: "!"}}, "a!b", false},
		{"abc", []change{{Range: r(0, 2, 0, 1), Text: ""}}, "", true},
		{"a😀b", []change{{Range: r(0, 2, 0, 2), Text: "x"}}, "", true},
		{"abc", []change{{Range: r(0, 0, 0, 0), Text: "0123456789"}}, "", true}, // over the limit
	} {
		got, err := apply([]byte(tc.in), tc.changes, 10)
		if (err != nil) != tc.fail || string(got) != tc.want {
			t.Errorf("apply(%q, %+v) = %q, %v; want %q (error %v)", tc.in, tc.changes, got, err, tc.want, tc.fail)
		}
	}
}

// utf16Apply applies one change in UTF-16 units, as an editor does, for
// text without line breaks other than "\n".
func utf16Apply(s string, start, end protocol.Position, text string) (string, bool) {
	lines := [][]uint16{}
	cur := []uint16{}
	for _, r := range s {
		if r == '\n' {
			lines = append(lines, cur)
			cur = []uint16{}
			continue
		}
		cur = utf16.AppendRune(cur, r)
	}
	lines = append(lines, cur)
	index := func(p protocol.Position) (int, bool) {
		if int(p.Line) == len(lines) && p.Character == 0 {
			return len(utf16.Encode([]rune(s))), true
		}
		if int(p.Line) >= len(lines) {
			return 0, false
		}
		n := 0
		for i := 0; i < int(p.Line); i++ {
			n += len(lines[i]) + 1
		}
		c := min(int(p.Character), len(lines[p.Line]))
		if c > 0 && c < len(lines[p.Line]) && utf16.IsSurrogate(rune(lines[p.Line][c])) && rune(lines[p.Line][c]) >= 0xDC00 {
			return 0, false
		}
		return n + c, true
	}
	all := utf16.Encode([]rune(s))
	i, ok1 := index(start)
	j, ok2 := index(end)
	if !ok1 || !ok2 || j < i {
		return "", false
	}
	out := append(append(append([]uint16{}, all[:i]...), utf16.Encode([]rune(text))...), all[j:]...)
	return string(utf16.Decode(out)), true
}

// FuzzApply checks apply, in UTF-8 bytes, against the same change made in
// UTF-16 units, and textEdit against the text it should make.
func FuzzApply(f *testing.F) {
	f.Add("a: é😀x\nb: 2\n", uint8(0), uint8(3), uint8(0), uint8(6), "Z")
	f.Add("😀😀\n\n", uint8(0), uint8(1), uint8(1), uint8(0), "")
	f.Add("a\r\nb\rc", uint8(0), uint8(1), uint8(0), uint8(1), "\n")
	f.Add("\uFEFFab", uint8(0), uint8(0), uint8(0), uint8(1), "")
	f.Fuzz(func(t *testing.T, s string, l1, c1, l2, c2 uint8, text string) {
		if !utf8.ValidString(s) || !utf8.ValidString(text) {
			return
		}
		for _, r := range s + text {
			if r == utf8.RuneError {
				return
			}
		}
		if strings.ContainsRune(s, '\r') {
			// The UTF-16 model splits lines at "\n" only: compare the
			// line index alone.
			tx := newText([]byte(s))
			r := &protocol.Range{Start: pos(uint32(l1%4), uint32(c1%12)), End: pos(uint32(l2%4), uint32(c2%12))}
			if tx.apply([]change{{Range: r, Text: text}}, 1<<20) == nil {
				if fresh := newText(tx.Data); !slices.Equal(tx.Lines, fresh.Lines) {
					t.Fatalf("%q: lines %v, a fresh index %v", tx.Data, tx.Lines, fresh.Lines)
				}
			}
			return
		}
		start, end := pos(uint32(l1%4), uint32(c1%12)), pos(uint32(l2%4), uint32(c2%12))
		want, ok := utf16Apply(s, start, end, text)
		got, err := apply([]byte(s), []change{{Range: &protocol.Range{Start: start, End: end}, Text: text}}, 1<<20)
		if ok != (err == nil) {
			t.Fatalf("apply(%q, %v-%v): error %v, the UTF-16 change ok %v", s, start, end, err, ok)
		}
		if ok && string(got) != want {
			t.Fatalf("apply(%q, %v-%v, %q) = %q, want %q", s, start, end, text, got, want)
		}
		if !ok {
			return
		}
		// The line index kept up by the change is the index of the text
		// it made, whether the bytes were shared or changed in place.
		for _, shared := range []bool{true, false} {
			tx := newText([]byte(s))
			tx.shared = shared
			if err := tx.apply([]change{{Range: &protocol.Range{Start: start, End: end}, Text: text}}, 1<<20); err != nil {
				t.Fatal(err)
			}
			fresh := newText(tx.Data)
			if string(tx.Data) != want || !slices.Equal(tx.Lines, fresh.Lines) || tx.BOM != fresh.BOM {
				t.Fatalf("after the change (shared %v): %q lines %v bom %d; a fresh index: lines %v bom %d", shared, tx.Data, tx.Lines, tx.BOM, fresh.Lines, fresh.BOM)
			}
		}
		// The one edit from s to got makes got.
		e := newText([]byte(s)).textEdit(got)
		again, err := apply([]byte(s), []change{{Range: &e.Range, Text: e.NewText}}, 1<<20)
		if err != nil || string(again) != string(got) {
			t.Fatalf("textEdit(%q → %q) = %+v, which makes %q (%v)", s, got, e, again, err)
		}
	})
}

func TestLogText(t *testing.T) {
	if got := logText("a\x1b[31mb", 100); strings.ContainsRune(got, 0x1b) {
		t.Errorf("logText kept an escape: %q", got)
	}
	if got := logText("héllo", 2); got != "hé…" {
		t.Errorf("logText(héllo, 2) = %q", got)
	}
	if got := logText("::error::x", 100); strings.HasPrefix(got, "::") {
		t.Errorf("logText let a workflow command through: %q", got)
	}
}

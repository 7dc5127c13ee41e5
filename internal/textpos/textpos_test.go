package textpos

import "testing"

func TestIndex(t *testing.T) {
	x := New([]byte("\uFEFFa: é😀\r\nb\rc\n"))
	if x.BOM != 3 || len(x.Lines) != 4 {
		t.Fatalf("BOM %d, lines %v", x.BOM, x.Lines)
	}
	for _, tc := range []struct{ line, col, off int }{
		{1, 1, 3},   // after the mark
		{1, 4, 6},   // é
		{1, 5, 8},   // 😀
		{1, 6, 12},  // the line's end, before \r\n
		{1, 99, 12}, // past it: the end of the line
		{2, 1, 14},
		{3, 1, 16}, // after a lone \r
		{9, 1, 18}, // past the last line: the end
	} {
		if got := x.SourceOffset(tc.line, tc.col); got != tc.off {
			t.Errorf("SourceOffset(%d, %d) = %d, want %d", tc.line, tc.col, got, tc.off)
		}
		if tc.col < 99 && tc.line < 9 {
			if l, c := x.SourcePos(tc.off); l != tc.line || c != tc.col {
				t.Errorf("SourcePos(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
			}
		}
	}
	if e := x.LineEnd(0); e != 12 {
		t.Errorf("LineEnd(0) = %d, want 12", e)
	}
	if n := UTF16Len([]byte("aé😀")); n != 4 {
		t.Errorf("UTF16Len = %d, want 4", n)
	}
	if BOMLen([]byte("ab")) != 0 {
		t.Error("BOMLen of text without a mark")
	}
}

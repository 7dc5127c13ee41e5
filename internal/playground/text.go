package playground

import "github.com/celint/celint/internal/textpos"

// text is a document's source with the start of each of its lines
// (textpos.Index), for turning the loader's positions into an editor's:
// UTF-16 offsets from the start of the text, and 0-based lines and UTF-16
// characters. JavaScript strings count UTF-16 units, so these are the
// offsets a textarea's selection and String.slice use.
type text struct {
	textpos.Index
	// lineUnits is the UTF-16 offset of the start of each line.
	lineUnits []int
}

// newText indexes data.
func newText(data []byte) *text {
	t := &text{Index: textpos.New(data)}
	t.lineUnits = make([]int, len(t.Lines))
	for i := 1; i < len(t.Lines); i++ {
		t.lineUnits[i] = t.lineUnits[i-1] + textpos.UTF16Len(data[t.Lines[i-1]:t.Lines[i]])
	}
	return t
}

// Position is a place in the text as an editor counts it.
type Position struct {
	// Offset counts UTF-16 code units from the start of the text.
	Offset int `json:"offset"`
	// Line counts from 0; Character counts UTF-16 code units from the
	// start of the line.
	Line      int `json:"line"`
	Character int `json:"character"`
}

// position returns the editor position of a byte offset, which must be
// at the start of a character (or the end of the text).
func (t *text) position(off int) Position {
	off = min(max(off, 0), len(t.Data))
	line := t.LineOf(off)
	ch := textpos.UTF16Len(t.Data[t.Lines[line]:off])
	return Position{Offset: t.lineUnits[line] + ch, Line: line, Character: ch}
}

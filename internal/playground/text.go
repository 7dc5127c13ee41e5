package playground

import "unicode/utf8"

// text is a document's source with the start of each of its lines, for
// turning the loader's positions (1-based line and column, columns
// counting code points, in the source without its byte order mark) into
// an editor's: UTF-16 offsets from the start of the text, and 0-based
// lines and UTF-16 characters. JavaScript strings count UTF-16 units, so
// these are the offsets a textarea's selection and String.slice use.
//
// Lines end at "\n", "\r\n" or a lone "\r", as the loader counts them.
type text struct {
	data  []byte
	lines []int // byte offset of the start of each line
	bom   int   // length of a UTF-8 byte order mark at the start (0 or 3)
	// lineUnits is the UTF-16 offset of the start of each line.
	lineUnits []int
}

// newText indexes data.
func newText(data []byte) *text {
	t := &text{data: data, lines: []int{0}}
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			t.lines = append(t.lines, i+1)
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			t.lines = append(t.lines, i+1)
		}
	}
	t.lineUnits = make([]int, len(t.lines))
	for i := 1; i < len(t.lines); i++ {
		t.lineUnits[i] = t.lineUnits[i-1] + units(data[t.lines[i-1]:t.lines[i]])
	}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		t.bom = 3
	}
	return t
}

// lineEnd is the byte offset where line i (0-based) ends, before its break.
func (t *text) lineEnd(i int) int {
	if i+1 >= len(t.lines) {
		return len(t.data)
	}
	end := t.lines[i+1]
	if end > 0 && t.data[end-1] == '\n' {
		end--
	}
	if end > t.lines[i] && t.data[end-1] == '\r' {
		end--
	}
	return end
}

// lineOf returns the 0-based line of a byte offset.
func (t *text) lineOf(off int) int {
	lo, hi := 0, len(t.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// sourceOffset returns the byte offset of a loader position. A column
// past the end of its line is the end of the line; a line past the last
// is the end of the text.
func (t *text) sourceOffset(line, col int) int {
	if line < 1 {
		return t.bom
	}
	if line > len(t.lines) {
		return len(t.data)
	}
	i, end := t.lines[line-1], t.lineEnd(line-1)
	if line == 1 {
		i += t.bom
	}
	for n := 1; n < col && i < end; n++ {
		_, size := utf8.DecodeRune(t.data[i:end])
		i += size
	}
	return i
}

// units returns the UTF-16 length of data.
func units(data []byte) int {
	n := 0
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		data = data[size:]
	}
	return n
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
	off = min(max(off, 0), len(t.data))
	line := t.lineOf(off)
	ch := units(t.data[t.lines[line]:off])
	return Position{Offset: t.lineUnits[line] + ch, Line: line, Character: ch}
}

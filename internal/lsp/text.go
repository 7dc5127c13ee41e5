package lsp

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// text is an open document's content with the start of each of its lines,
// for converting between byte offsets, the loader's positions (1-based
// line and column, columns counting code points) and LSP's (0-based line
// and character, characters counting UTF-16 code units).
//
// Lines end at "\n", "\r\n" or a lone "\r", as both the loader and LSP
// count them. A UTF-8 byte order mark at the start is part of the text as
// the editor holds it (one UTF-16 unit on the first line), but not of the
// source the loader positions count in: bom is its length (0 or 3).
type text struct {
	data   []byte
	lines  []int // byte offset of the start of each line
	bom    int
	shared bool // data is shared with a snapshot: copy it before a change
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
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		t.bom = 3
	}
	return t
}

// lineEnd is the byte offset where line i's text ends, before its break.
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

// line returns the text of line i (0-based), without its break.
func (t *text) line(i int) []byte {
	return t.data[t.lines[i]:t.lineEnd(i)]
}

// errPosition is the error of a position outside the text.
var errPosition = errors.New("position outside the document")

// offset returns the byte offset of an LSP position. A character past the
// end of its line is the end of the line, as LSP asks; a line past the
// last is an error, and so is a position inside a surrogate pair.
func (t *text) offset(p protocol.Position) (int, error) {
	if int(p.Line) >= len(t.lines) {
		if int(p.Line) == len(t.lines) && p.Character == 0 {
			return len(t.data), nil
		}
		return 0, fmt.Errorf("%w: line %d of %d", errPosition, p.Line+1, len(t.lines))
	}
	start, end := t.lines[p.Line], t.lineEnd(int(p.Line))
	units := int(p.Character)
	i := start
	for i < end && units > 0 {
		r, size := utf8.DecodeRune(t.data[i:end])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if w > units {
			return 0, fmt.Errorf("%w: character %d of line %d is inside a character", errPosition, p.Character, p.Line+1)
		}
		units -= w
		i += size
	}
	return i, nil
}

// position returns the LSP position of a byte offset, which must be at
// the start of a character (or the end of the text).
func (t *text) position(off int) protocol.Position {
	off = min(max(off, 0), len(t.data))
	line := t.lineOf(off)
	units := 0
	for i := t.lines[line]; i < off; {
		r, size := utf8.DecodeRune(t.data[i:off])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		i += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
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

// sourceOffset returns the byte offset in the text of a loader position
// (line and column from 1, columns counting code points, in the source
// without its byte order mark). A column past the end of its line is
// the end of the line; a line past the last is the end of the text.
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

// sourcePos returns the loader position of a byte offset of the text.
func (t *text) sourcePos(off int) (line, col int) {
	off = min(max(off, t.bom), len(t.data))
	l := t.lineOf(off)
	start := t.lines[l]
	if l == 0 {
		start += t.bom
	}
	return l + 1, utf8.RuneCount(t.data[start:off]) + 1
}

// lspRange returns the LSP range of the loader positions from (line, col)
// to (endLine, endCol); an end of zero is the end of the start's line.
func (t *text) lspRange(line, col, endLine, endCol int) protocol.Range {
	start := t.sourceOffset(line, col)
	var end int
	if endLine <= 0 {
		end = t.lineEnd(t.lineOf(start))
	} else {
		end = t.sourceOffset(endLine, endCol)
	}
	end = max(end, start)
	return protocol.Range{Start: t.position(start), End: t.position(end)}
}

// change is one content change of a textDocument/didChange: Range nil
// replaces the whole text.
type change struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// apply returns the text after the changes, each applied to the text the
// ones before it made, as LSP orders them. limit bounds the size of the
// result. data is not changed.
func apply(data []byte, changes []change, limit int) ([]byte, error) {
	t := newText(data)
	t.shared = true
	if err := t.apply(changes, limit); err != nil {
		return nil, err
	}
	return t.data, nil
}

// apply makes the changes to t, in order. On an error, t is as the changes
// before the failing one left it.
func (t *text) apply(changes []change, limit int) error {
	for _, c := range changes {
		if c.Range == nil {
			if len(c.Text) > limit {
				return fmt.Errorf("%w of %d bytes", errTooBig, limit)
			}
			*t = *newText([]byte(c.Text))
			continue
		}
		start, err := t.offset(c.Range.Start)
		if err != nil {
			return err
		}
		end, err := t.offset(c.Range.End)
		if err != nil {
			return err
		}
		if end < start {
			return fmt.Errorf("%w: the range ends before it starts", errPosition)
		}
		if len(t.data)-(end-start)+len(c.Text) > limit {
			return fmt.Errorf("%w of %d bytes", errTooBig, limit)
		}
		t.replace(start, end, c.Text)
	}
	return nil
}

// errTooBig is the error of a change that makes a text larger than its
// limit.
var errTooBig = errors.New("the document would be larger than the limit")

// snapshot returns t as it is now, for a reader on another goroutine: the
// next change of t copies its bytes first rather than change them.
func (t *text) snapshot() *text {
	t.shared = true
	c := *t
	return &c
}

// replace replaces the bytes from start to end with s, and updates the
// line index: the lines before the change keep their starts, those after
// it shift, and only the changed lines are scanned.
func (t *text) replace(start, end int, s string) {
	delta := len(s) - (end - start)
	size := len(t.data) + delta
	if t.shared || size > cap(t.data) {
		data := make([]byte, size, size+size/8+64)
		copy(data, t.data[:start])
		copy(data[start+len(s):], t.data[end:])
		t.data, t.shared = data, false
	} else {
		old := t.data
		t.data = t.data[:max(len(old), size)]
		copy(t.data[start+len(s):], old[end:])
		t.data = t.data[:size]
	}
	copy(t.data[start:], s)

	// A line start q depends on the bytes at q-1 and q only: from limit
	// on, those are the old ones after the change.
	first := t.lineOf(max(start-1, 0))
	limit := start + len(s) + 1
	lines := make([]int, 0, len(t.lines)+strings.Count(s, "\n")+1)
	lines = append(lines, t.lines[:first+1]...)
	for i := t.lines[first]; i < len(t.data); i++ {
		var q int
		switch t.data[i] {
		case '\n':
			q = i + 1
		case '\r':
			if i+1 < len(t.data) && t.data[i+1] == '\n' {
				i++
			}
			q = i + 1
		default:
			continue
		}
		if q >= limit {
			break
		}
		lines = append(lines, q)
	}
	k := sort.SearchInts(t.lines, limit-delta)
	for _, o := range t.lines[k:] {
		lines = append(lines, o+delta)
	}
	t.lines = lines
	if start < 3 {
		t.bom = 0
		if len(t.data) >= 3 && t.data[0] == 0xEF && t.data[1] == 0xBB && t.data[2] == 0xBF {
			t.bom = 3
		}
	}
}

// textEdit returns the one edit that turns the text into after: the bytes
// between their common prefix and suffix, widened to whole characters.
func (t *text) textEdit(after []byte) protocol.TextEdit {
	before := t.data
	p := 0
	for p < len(before) && p < len(after) && before[p] == after[p] {
		p++
	}
	for p > 0 && p < len(before) && !utf8.RuneStart(before[p]) {
		p--
	}
	s := 0
	for s < len(before)-p && s < len(after)-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	for s > 0 && len(before)-s < len(before) && !utf8.RuneStart(before[len(before)-s]) {
		s--
	}
	return protocol.TextEdit{
		Range:   protocol.Range{Start: t.position(p), End: t.position(len(before) - s)},
		NewText: string(after[p : len(after)-s]),
	}
}

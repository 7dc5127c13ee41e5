package lsp

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/celint/celint/internal/textpos"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// text is an open document's content with the start of each of its lines
// (textpos.Index), for converting between byte offsets, the loader's
// positions and LSP's (0-based line and character, characters counting
// UTF-16 code units). A UTF-8 byte order mark at the start is part of the
// text as the editor holds it (one UTF-16 unit on the first line).
type text struct {
	textpos.Index
	shared bool // Data is shared with a snapshot: copy it before a change
}

// newText indexes data.
func newText(data []byte) *text {
	return &text{Index: textpos.New(data)}
}

// line returns the text of line i (0-based), without its break.
func (t *text) line(i int) []byte {
	return t.Data[t.Lines[i]:t.LineEnd(i)]
}

// errPosition is the error of a position outside the text.
var errPosition = errors.New("position outside the document")

// offset returns the byte offset of an LSP position. A character past the
// end of its line is the end of the line, as LSP asks; a line past the
// last is an error, and so is a position inside a surrogate pair.
func (t *text) offset(p protocol.Position) (int, error) {
	if int(p.Line) >= len(t.Lines) {
		if int(p.Line) == len(t.Lines) && p.Character == 0 {
			return len(t.Data), nil
		}
		return 0, fmt.Errorf("%w: line %d of %d", errPosition, p.Line+1, len(t.Lines))
	}
	start, end := t.Lines[p.Line], t.LineEnd(int(p.Line))
	units := int(p.Character)
	i := start
	for i < end && units > 0 {
		r, size := utf8.DecodeRune(t.Data[i:end])
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
	off = min(max(off, 0), len(t.Data))
	line := t.LineOf(off)
	return protocol.Position{Line: uint32(line), Character: uint32(textpos.UTF16Len(t.Data[t.Lines[line]:off]))}
}

// lspRange returns the LSP range of the loader positions from (line, col)
// to (endLine, endCol); an end of zero is the end of the start's line.
func (t *text) lspRange(line, col, endLine, endCol int) protocol.Range {
	start := t.SourceOffset(line, col)
	var end int
	if endLine <= 0 {
		end = t.LineEnd(t.LineOf(start))
	} else {
		end = t.SourceOffset(endLine, endCol)
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
	return t.Data, nil
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
		if len(t.Data)-(end-start)+len(c.Text) > limit {
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
	size := len(t.Data) + delta
	if t.shared || size > cap(t.Data) {
		data := make([]byte, size, size+size/8+64)
		copy(data, t.Data[:start])
		copy(data[start+len(s):], t.Data[end:])
		t.Data, t.shared = data, false
	} else {
		old := t.Data
		t.Data = t.Data[:max(len(old), size)]
		copy(t.Data[start+len(s):], old[end:])
		t.Data = t.Data[:size]
	}
	copy(t.Data[start:], s)

	// A line start q depends on the bytes at q-1 and q only: from limit
	// on, those are the old ones after the change.
	first := t.LineOf(max(start-1, 0))
	limit := start + len(s) + 1
	lines := make([]int, 0, len(t.Lines)+strings.Count(s, "\n")+1)
	lines = append(lines, t.Lines[:first+1]...)
	for i := t.Lines[first]; i < len(t.Data); i++ {
		var q int
		switch t.Data[i] {
		case '\n':
			q = i + 1
		case '\r':
			if i+1 < len(t.Data) && t.Data[i+1] == '\n' {
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
	k := sort.SearchInts(t.Lines, limit-delta)
	for _, o := range t.Lines[k:] {
		lines = append(lines, o+delta)
	}
	t.Lines = lines
	if start < 3 {
		t.BOM = textpos.BOMLen(t.Data)
	}
}

// textEdit returns the one edit that turns the text into after: the bytes
// between their common prefix and suffix, widened to whole characters.
func (t *text) textEdit(after []byte) protocol.TextEdit {
	before := t.Data
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

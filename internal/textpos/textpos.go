// Package textpos indexes the lines of a document's source, to turn the
// loader's positions (1-based line and column, columns counting code
// points, in the source without its byte order mark) into byte offsets
// and back, and to count UTF-16 code units, as editors and JavaScript do.
//
// Lines end at "\n", "\r\n" or a lone "\r", as the loader (and LSP)
// count them.
package textpos

import "unicode/utf8"

// Index is a text with the start of each of its lines. A UTF-8 byte order
// mark at the start is part of Data, but not of the source the loader's
// positions count in: BOM is its length (0 or 3).
type Index struct {
	Data  []byte
	Lines []int // byte offset of the start of each line
	BOM   int
}

// New indexes data.
func New(data []byte) Index {
	x := Index{Data: data, Lines: []int{0}}
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			x.Lines = append(x.Lines, i+1)
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			x.Lines = append(x.Lines, i+1)
		}
	}
	x.BOM = BOMLen(data)
	return x
}

// BOMLen returns the length of a UTF-8 byte order mark at the start of
// data: 3, or 0 when there is none.
func BOMLen(data []byte) int {
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		return 3
	}
	return 0
}

// LineEnd is the byte offset where line i (0-based) ends, before its break.
func (x *Index) LineEnd(i int) int {
	if i+1 >= len(x.Lines) {
		return len(x.Data)
	}
	end := x.Lines[i+1]
	if end > 0 && x.Data[end-1] == '\n' {
		end--
	}
	if end > x.Lines[i] && x.Data[end-1] == '\r' {
		end--
	}
	return end
}

// LineOf returns the 0-based line of a byte offset.
func (x *Index) LineOf(off int) int {
	lo, hi := 0, len(x.Lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if x.Lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// SourceOffset returns the byte offset of a loader position. A column
// past the end of its line is the end of the line; a line past the last
// is the end of the text.
func (x *Index) SourceOffset(line, col int) int {
	if line < 1 {
		return x.BOM
	}
	if line > len(x.Lines) {
		return len(x.Data)
	}
	i, end := x.Lines[line-1], x.LineEnd(line-1)
	if line == 1 {
		i += x.BOM
	}
	for n := 1; n < col && i < end; n++ {
		_, size := utf8.DecodeRune(x.Data[i:end])
		i += size
	}
	return i
}

// SourcePos returns the loader position of a byte offset.
func (x *Index) SourcePos(off int) (line, col int) {
	off = min(max(off, x.BOM), len(x.Data))
	l := x.LineOf(off)
	start := x.Lines[l]
	if l == 0 {
		start += x.BOM
	}
	return l + 1, utf8.RuneCount(x.Data[start:off]) + 1
}

// UTF16Len returns the number of UTF-16 code units of data.
func UTF16Len(data []byte) int {
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

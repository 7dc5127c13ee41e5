package loader

import (
	"bytes"
	"sort"
)

// lineBlock is the byte distance between two of a lineIndex's checkpoints.
const lineBlock = 4096

// lineIndex finds the lines of a source: lines end at "\r\n", a lone '\r'
// or '\n'. It keeps the number of line breaks before every lineBlock-th
// byte, 4 bytes per 4 KiB of source, rather than the start of every line
// (8 bytes per line, megabytes for a large document, which one diagnostic's
// end position would build); the lines within a block are counted when
// asked for.
type lineIndex struct {
	src   []byte
	cr    bool    // src has a '\r': breaks are not only '\n'
	full  []int32 // full[k]: the line breaks in src[:k*lineBlock]
	lines int     // the number of lines: breaks + 1
}

func newLineIndex(src []byte) lineIndex {
	x := lineIndex{src: src, cr: bytes.IndexByte(src, '\r') >= 0}
	x.full = make([]int32, len(src)/lineBlock+1)
	total := 0
	for k := 1; k < len(x.full); k++ {
		total += x.breaks((k-1)*lineBlock, k*lineBlock)
		x.full[k] = int32(total)
	}
	x.lines = total + x.breaks((len(x.full)-1)*lineBlock, len(src)) + 1
	return x
}

// lineBreakAt reports whether src[i] ends a line: a '\n', or a '\r' not
// followed by '\n' (the '\r' of "\r\n" is part of the line break the
// '\n' ends).
func lineBreakAt(src []byte, i int) bool {
	c := src[i]
	return c == '\n' || c == '\r' && (i+1 >= len(src) || src[i+1] != '\n')
}

// isBreak reports whether src[i] ends a line (lineBreakAt).
func (x *lineIndex) isBreak(i int) bool { return lineBreakAt(x.src, i) }

// breaks counts the line breaks in src[i:j].
func (x *lineIndex) breaks(i, j int) int {
	if !x.cr {
		return bytes.Count(x.src[i:j], []byte{'\n'})
	}
	n := 0
	for ; i < j; i++ {
		if x.isBreak(i) {
			n++
		}
	}
	return n
}

// count returns the number of lines.
func (x *lineIndex) count() int { return x.lines }

// lineOf returns the 0-based line of byte offset off (0 ≤ off ≤ len(src)):
// the number of line breaks before it.
func (x *lineIndex) lineOf(off int) int {
	k := off / lineBlock
	return int(x.full[k]) + x.breaks(k*lineBlock, off)
}

// start returns the offset where 0-based line li (0 ≤ li < count()) starts.
func (x *lineIndex) start(li int) int {
	if li <= 0 {
		return 0
	}
	// The block holding the li-th break: the last whose count before it
	// is less than li.
	k := sort.Search(len(x.full), func(k int) bool { return int(x.full[k]) >= li }) - 1
	need := li - int(x.full[k])
	for i := k * lineBlock; i < len(x.src); i++ {
		if !x.cr {
			j := bytes.IndexByte(x.src[i:], '\n')
			if j < 0 {
				break
			}
			i += j
		}
		if x.isBreak(i) {
			if need--; need == 0 {
				return i + 1
			}
		}
	}
	return len(x.src) // not reached for li < count()
}

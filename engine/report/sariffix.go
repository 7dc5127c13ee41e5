package report

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// sarifFix is a fix of a result: the replacements in the result's file
// that make the edits of the finding.
type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

// sarifReplacement replaces a region of the file as it is (every
// replacement of a fix refers to the file before any of them) by text.
type sarifReplacement struct {
	DeletedRegion   sarifTextRegion `json:"deletedRegion"`
	InsertedContent sarifText       `json:"insertedContent"`
}

// sarifTextRegion is a region given both ways SARIF has: its start and
// end lines and columns, the end just past its last character (the start
// for an empty region), and its offset and length in characters. Columns,
// offsets and lengths count Unicode code points (the run's columnKind).
type sarifTextRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
	CharOffset  int `json:"charOffset"`
	CharLength  int `json:"charLength"`
}

// sarifFixBytes bounds the work of the fixes of one file's results: a fix
// reads the file a few times over (loader.Edits parses it, then what each
// edit makes), so the fixes are made in the order of the results while
// their files' sizes add up to at most this many bytes. A file of 1 MiB
// gets the fixes of its first 16 results, a file larger than this none.
const sarifFixBytes = 16 << 20

// fixDescribed is how many edits a fix's description names.
const fixDescribed = 3

// fixPointerBytes is how much of a pointer a fix's description shows.
const fixPointerBytes = 120

// fixer makes the SARIF fixes of the results of one file.
type fixer struct {
	name string         // the file's name, as the findings give it
	src  []byte         // its source; nil when unknown
	opts loader.Options // the options it was read with
	// budget is how many bytes of source the fixes may still read (see
	// sarifFixBytes).
	budget int
}

// fix is the SARIF fix of d, a finding of the fixer's file: the edits of
// d.Fix made on the source alone, as replacements of the source's text.
// It is nil when d has no fix, is no result (no line), when the source is
// unknown, when the budget is spent, and when the edits cannot be made
// (loader.Edits refuses them, or fails in the attempt) or change nothing.
func (f *fixer) fix(d engine.Diagnostic) (fix *sarifFix) {
	if len(d.Fix) == 0 || d.Line == 0 || len(f.src) == 0 || len(f.src) > f.budget {
		return nil
	}
	f.budget -= len(f.src)
	defer func() {
		if recover() != nil {
			fix = nil // the finding is reported without a fix
		}
	}()
	out, err := loader.Edits(f.name, f.src, f.opts, d.Fix)
	if err != nil {
		return nil
	}
	reps := sarifReplacements(f.src, out)
	if len(reps) == 0 {
		return nil
	}
	uri, base := sarifURI(f.name)
	return &sarifFix{
		Description: sarifText{Text: fixDescription(d.Fix)},
		ArtifactChanges: []sarifArtifactChange{{
			ArtifactLocation: sarifArtifactLocation{URI: uri, URIBaseID: base},
			Replacements:     reps,
		}},
	}
}

// fixDescription says what edits do: "Remove /tags/1", "Replace /a; add
// /b", "Move /a to /b"; the first fixDescribed edits, then how many more
// there are.
func fixDescription(edits []loader.Edit) string {
	var parts []string
	for i, e := range edits {
		if i == fixDescribed {
			parts = append(parts, fmt.Sprintf("and %d more edits", len(edits)-i))
			break
		}
		if e.Op == loader.Move {
			parts = append(parts, "move "+fixPointer(e.From)+" to "+fixPointer(e.Pointer))
		} else {
			parts = append(parts, e.Op.String()+" "+fixPointer(e.Pointer))
		}
	}
	text := strings.Join(parts, "; ")
	if text == "" {
		return "Change nothing"
	}
	return strings.ToUpper(text[:1]) + text[1:]
}

// fixPointer is a pointer as a fix's description shows it: "the whole
// document" for "", and at most fixPointerBytes of a long one, cut at a
// character and followed by "…".
func fixPointer(p string) string {
	if p == "" {
		return "the whole document"
	}
	if len(p) <= fixPointerBytes {
		return p
	}
	cut := fixPointerBytes
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return p[:cut] + "…"
}

// textChange is a change of a source: the bytes old[start:end] become
// text.
type textChange struct {
	start, end int
	text       string
}

// sarifReplacements are the replacements that turn old into new, in the
// order of the file, none overlapping, each referring to old.
func sarifReplacements(old, new []byte) []sarifReplacement {
	changes := textChanges(old, new)
	if len(changes) == 0 {
		return nil
	}
	offsets := make([]int, 0, 2*len(changes))
	for _, c := range changes {
		offsets = append(offsets, c.start, c.end)
	}
	pos := textPositions(old, offsets)
	reps := make([]sarifReplacement, len(changes))
	for i, c := range changes {
		start, end := pos[2*i], pos[2*i+1]
		reps[i] = sarifReplacement{
			DeletedRegion: sarifTextRegion{
				StartLine: start.line, StartColumn: start.col,
				EndLine: end.line, EndColumn: end.col,
				CharOffset: start.chars, CharLength: end.chars - start.chars,
			},
			InsertedContent: sarifText{Text: c.text},
		}
	}
	return reps
}

// textChanges are the changes that turn old into new, in order and none
// overlapping: one for each separate place where they differ. Their ends
// fall between characters, never inside one, nor between the '\r' and
// the '\n' of a line break, in old and in new; each is as short as that
// allows.
//
// The common start and end of old and new are left out; what is between
// is diffed by lines (lines between the edits of a fix stay as they were),
// each line change is shortened in turn to where its old and new text
// differ, and one that only deletes or only inserts is moved to whole
// lines when it can be (alignLines). The changes are checked: applied to
// old, they must give new, or the one change of all that lies between the
// common start and end is used instead.
func textChanges(old, new []byte) []textChange {
	os, oe, ns, ne := trimEqual(old, new, 0, len(old), 0, len(new))
	if os == oe && ns == ne {
		return nil
	}
	whole := []textChange{{os, oe, string(new[ns:ne])}}
	var changes []textChange
	shift := ns - os // the offset in new of an offset of old, up to the next change
	for _, e := range udiff.Lines(string(old[os:oe]), string(new[ns:ne])) {
		a, b := os+e.Start, os+e.End
		c := a + shift
		d := c + len(e.New)
		shift += len(e.New) - (b - a)
		a, b, c, d = trimEqual(old, new, a, b, c, d)
		if a == b && c == d {
			continue
		}
		low := 0 // where the change may move back to: past the one before
		if len(changes) > 0 {
			low = changes[len(changes)-1].end + 1
		}
		changes = append(changes, alignLines(old, textChange{a, b, string(new[c:d])}, low))
	}
	if !bytes.Equal(applyChanges(old, changes), new) {
		return whole
	}
	return changes
}

// alignLines moves a change of old that only deletes or only inserts
// back, to no earlier than low, over the bytes before it that repeat the
// end of its text, to the nearest place where it deletes or inserts whole
// lines, when there is one: it then deletes "  - b\n" rather than
// "b\n  - ", the same change of old. Any other change is returned as it is.
func alignLines(old []byte, c textChange, low int) textChange {
	if (c.start == c.end) == (c.text == "") {
		return c // a replacement
	}
	if c.start == c.end { // an insertion of text at start
		t := c.text
		for k := 0; k <= len(t) && c.start-k >= low; k++ {
			if k > 0 && old[c.start-k] != t[len(t)-k] {
				break
			}
			// At start-k, the text inserted is t's last k bytes, then the rest.
			moved := t[len(t)-k:] + t[:len(t)-k]
			if lineStart(old, c.start-k) && strings.HasSuffix(moved, "\n") {
				return textChange{c.start - k, c.start - k, moved}
			}
		}
		return c
	}
	n := c.end - c.start // a deletion of old[start:end]
	for k := 0; k <= n && c.start-k >= low; k++ {
		if k > 0 && old[c.start-k] != old[c.end-k] {
			break
		}
		if lineStart(old, c.start-k) && lineStart(old, c.end-k) {
			return textChange{c.start - k, c.end - k, ""}
		}
	}
	return c
}

// lineStart reports whether offset i of src starts a line: it is the
// start of src or follows a line break.
func lineStart(src []byte, i int) bool {
	return i == 0 || src[i-1] == '\n' || src[i-1] == '\r' && (i == len(src) || src[i] != '\n')
}

// trimEqual shortens the ranges old[os:oe] and new[ns:ne] by the bytes they
// start and end with alike, and returns what is left: ends that fall
// inside a character or a "\r\n" of either source move back out. Ends
// that do not are kept so.
func trimEqual(old, new []byte, os, oe, ns, ne int) (int, int, int, int) {
	p := 0
	for os+p < oe && ns+p < ne && old[os+p] == new[ns+p] {
		p++
	}
	for p > 0 && (splits(old, os+p) || splits(new, ns+p)) {
		p--
	}
	os, ns = os+p, ns+p
	s := 0
	for oe-s > os && ne-s > ns && old[oe-s-1] == new[ne-s-1] {
		s++
	}
	for s > 0 && (splits(old, oe-s) || splits(new, ne-s)) {
		s--
	}
	return os, oe - s, ns, ne - s
}

// splits reports whether offset i of src falls inside a UTF-8 sequence or
// between the '\r' and the '\n' of a line break.
func splits(src []byte, i int) bool {
	if i <= 0 || i >= len(src) {
		return false
	}
	return !utf8.RuneStart(src[i]) || src[i-1] == '\r' && src[i] == '\n'
}

// applyChanges is src with changes, which are in order and do not
// overlap, made.
func applyChanges(src []byte, changes []textChange) []byte {
	var out []byte
	at := 0
	for _, c := range changes {
		if c.start < at || c.end < c.start || c.end > len(src) {
			return nil
		}
		out = append(out, src[at:c.start]...)
		out = append(out, c.text...)
		at = c.end
	}
	return append(out, src[at:]...)
}

// textPos is a position in a source as SARIF counts: a 1-based line and
// column, and the number of characters before it. A character is a
// Unicode code point (a UTF-8 lead byte); lines end at "\r\n", a lone
// '\r' or '\n', as in the loader's positions.
type textPos struct {
	line, col, chars int
}

// textPositions are the positions of offsets, byte offsets of src in
// ascending order, found in one pass over src.
func textPositions(src []byte, offsets []int) []textPos {
	out := make([]textPos, len(offsets))
	p := textPos{line: 1, col: 1}
	i := 0
	for k, off := range offsets {
		for ; i < off; i++ {
			c := src[i]
			if !utf8.RuneStart(c) {
				continue
			}
			p.chars++
			if c == '\n' || c == '\r' && (i+1 >= len(src) || src[i+1] != '\n') {
				p.line, p.col = p.line+1, 1
			} else {
				p.col++
			}
		}
		out[k] = p
	}
	return out
}

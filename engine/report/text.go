package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
)

// textPrinter prints the "stylish" report for people: the diagnostics
// grouped by file, each with its JSON Pointer, the places it concerns
// besides (its related positions: the references through which a shared
// value was reached, say), and a frame of the source line with a caret
// under the column, then a summary.
//
//	items/weather.json
//	  3:15  error    item name must match ^[a-z][a-z0-9_-]*$  acme.item.name-format
//	    at /items/0/name
//	    3 |     "name": "Weather",
//	      |             ^
//
//	✖ 1 problem (1 error, 0 warnings, 0 infos) in 1 of 2 files
type textPrinter struct{}

// tabWidth is the width tabs of source lines expand to.
const tabWidth = 4

// ANSI SGR sequences.
const (
	ansiReset     = "\x1b[0m"
	ansiBold      = "\x1b[1m"
	ansiDim       = "\x1b[2m"
	ansiUnderline = "\x1b[4m"
	ansiRed       = "\x1b[31m"
	ansiGreen     = "\x1b[32m"
	ansiYellow    = "\x1b[33m"
	ansiBlue      = "\x1b[34m"
	ansiMagenta   = "\x1b[35m"
)

type textWriter struct {
	w     *bufio.Writer
	color bool
}

// paint writes s in the style when colours are on.
func (t textWriter) paint(style, s string) {
	if t.color && s != "" {
		t.w.WriteString(style)
		t.w.WriteString(s)
		t.w.WriteString(ansiReset)
		return
	}
	t.w.WriteString(s)
}

func severityStyle(s engine.Severity) string {
	switch s {
	case engine.Error:
		return ansiRed
	case engine.Warning:
		return ansiYellow
	}
	return ansiBlue
}

// textRow is one diagnostic's row, cell by cell, before alignment.
type textRow struct {
	loc, severity, label, message, rule string
}

func (textPrinter) Print(w io.Writer, in Input) error { return printAll(newTextStream(w, in), in) }

// textStream writes the text report a file at a time; see textPrinter.
type textStream struct {
	out   *bufio.Writer // to the report's writer
	t     textWriter    // through a lineGuard to out
	guard *lineGuard
	n     int // files printed
	tally tallier
}

func newTextStream(w io.Writer, in Input) Stream {
	s := &textStream{out: bufio.NewWriterSize(w, 64<<10)}
	// Every part is sanitized already; the guard is the net under them that
	// keeps a CI runner from reading any line as a workflow command.
	s.guard = &lineGuard{w: s.out}
	s.t = textWriter{w: bufio.NewWriter(s.guard), color: in.Color}
	return s
}

func (s *textStream) File(f File) error {
	if f.Checked {
		s.tally.file(f.Name, false)
		s.tally.checkedWith(f.Rulesets)
	}
	s.tally.add(f.Diagnostics)
	s.tally.notShown(f.NotShown)
	s.tally.quieted(f.Name, f.Quieted)
	if len(f.Diagnostics) == 0 {
		return nil
	}
	if s.n > 0 {
		s.t.w.WriteByte('\n')
	}
	s.n++
	s.t.printFile(f.Diagnostics, f.Source, f.Rulesets)
	return s.flush()
}

func (s *textStream) Close([]Rule) error {
	if s.n > 0 {
		s.t.w.WriteByte('\n')
	}
	s.t.printSummary(s.tally)
	return s.flush()
}

// flush writes out what the file or the summary printed.
func (s *textStream) flush() error {
	if err := s.t.w.Flush(); err != nil {
		return err
	}
	if err := s.guard.flush(); err != nil {
		return err
	}
	return s.out.Flush()
}

// lineGuard writes text to w a line at a time, each made safe by
// safetext.GuardLine.
type lineGuard struct {
	w    io.Writer
	line []byte // the start of a line whose end has not come yet
}

func (g *lineGuard) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			g.line = append(g.line, p...)
			break
		}
		g.line = append(g.line, p[:i+1]...)
		p = p[i+1:]
		if err := g.flush(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// flush writes the line so far.
func (g *lineGuard) flush() error {
	if len(g.line) == 0 {
		return nil
	}
	var err error
	if bytes.Contains(g.line, []byte("::")) || bytes.Contains(g.line, []byte("##[")) {
		_, err = io.WriteString(g.w, safetext.GuardLine(string(g.line)))
	} else {
		_, err = g.w.Write(g.line)
	}
	g.line = g.line[:0]
	return err
}

func (t textWriter) printFile(ds []engine.Diagnostic, src []byte, rulesets []string) {
	t.paint(ansiUnderline, fileHeader(ds[0].File))
	if len(rulesets) > 0 {
		t.w.WriteString("  ")
		t.paint(ansiDim, sanitize(strings.Join(rulesets, ", ")))
	}
	t.w.WriteByte('\n')

	rows := make([]textRow, len(ds))
	var wLoc, wSev, wMsg int
	for i, d := range ds {
		r := textRow{
			loc:      "-",
			severity: d.Severity.String(),
			message:  sanitize(d.Message),
			rule:     sanitize(d.Label()),
		}
		if d.Line > 0 {
			r.loc = strconv.Itoa(d.Line) + ":" + strconv.Itoa(max(d.Column, 0))
		}
		switch {
		case d.RuleError:
			r.label = "rule error"
		case d.InputError:
			r.label = "input error"
		}
		if r.label != "" {
			r.label += ": "
		}
		rows[i] = r
		wLoc = max(wLoc, width(r.loc))
		wSev = max(wSev, width(r.severity))
		wMsg = max(wMsg, width(r.label)+width(r.message))
	}

	var lines []string // src split into lines, when first needed
	var long longLine  // the rune index of the last long line framed
	for i, d := range ds {
		r := rows[i]
		t.w.WriteString("  ")
		t.paint(ansiDim, r.loc)
		pad(t.w, wLoc-width(r.loc)+2)
		t.paint(severityStyle(d.Severity), r.severity)
		pad(t.w, wSev-width(r.severity)+2)
		t.paint(ansiBold+ansiMagenta, r.label)
		if (d.RuleError || d.InputError) && r.label == "" {
			t.paint(ansiMagenta, r.message)
		} else {
			t.w.WriteString(r.message)
		}
		pad(t.w, wMsg-width(r.label)-width(r.message)+2)
		t.paint(ansiDim, r.rule)
		t.w.WriteByte('\n')

		if d.Pointer != "" {
			t.w.WriteString("    ")
			t.paint(ansiDim, "at "+sanitize(d.Pointer))
			t.w.WriteByte('\n')
		}
		for j, rel := range d.Related {
			if j == maxRelatedShown {
				t.w.WriteString("    ")
				t.paint(ansiDim, fmt.Sprintf("and %d more places", len(d.Related)-j))
				t.w.WriteByte('\n')
				break
			}
			t.w.WriteString("    ")
			t.paint(ansiDim, fmt.Sprintf("and at %s (%d:%d): %s", sanitize(rel.Pointer), rel.Line, rel.Column, sanitize(rel.Message)))
			t.w.WriteByte('\n')
		}
		if src != nil && lines == nil {
			lines = splitLines(src)
		}
		if d.Line >= 1 && d.Line <= len(lines) {
			if d.Line != long.line {
				long = newLongLine(d.Line, lines[d.Line-1])
			}
			t.printFrame(d, long.window(lines[d.Line-1], d.Column))
		}
	}
}

// maxRelatedShown bounds the related places listed under a finding.
const maxRelatedShown = 3

// longLineBytes is the length from which a source line is cut to a window
// around the column before it is rendered, so that a minified document's
// one line is not rendered whole for every finding on it.
const longLineBytes = 16 << 10

// longLine indexes the rune starts of a long source line, every
// longLineStep runes, so that the window around a column is found without
// walking the line from its start for every finding.
type longLine struct {
	line   int   // 1-based; 0 when none
	starts []int // byte offset of rune k*longLineStep
}

const longLineStep = 256

func newLongLine(n int, text string) longLine {
	l := longLine{line: n}
	if len(text) < longLineBytes {
		return l
	}
	k := 0
	for i := range text {
		if k%longLineStep == 0 {
			l.starts = append(l.starts, i)
		}
		k++
	}
	return l
}

// frameWindow is a source line, or a window of it, to frame.
type frameWindow struct {
	text       string
	column     int  // 1-based rune column within text; 0 when none
	cutL, cutR bool // text starts after, or ends before, the line's
}

// window returns text (the indexed line), cut to about 2×maxFrame runes on
// each side of column when it is long.
func (l longLine) window(text string, column int) frameWindow {
	if l.starts == nil || column < 1 {
		if l.starts != nil { // no column: the line's start
			end := min(len(text), longLineBytes)
			for end > 0 && end < len(text) && !utf8.RuneStart(text[end]) {
				end--
			}
			return frameWindow{text: text[:end], cutR: end < len(text)}
		}
		return frameWindow{text: text, column: column}
	}
	runeAt := func(k int) int { // byte offset of rune k (0-based), or len(text)
		b := l.starts[min(k/longLineStep, len(l.starts)-1)]
		for j := (min(k/longLineStep, len(l.starts)-1)) * longLineStep; j < k && b < len(text); j++ {
			_, size := utf8.DecodeRuneInString(text[b:])
			b += size
		}
		return b
	}
	first := max(0, column-1-2*maxFrame)
	lo, hi := runeAt(first), runeAt(column-1+2*maxFrame)
	return frameWindow{text: text[lo:hi], column: column - first, cutL: lo > 0, cutR: hi < len(text)}
}

// printFrame prints the source line (or window) of d with its number and,
// when d has a column, a caret under it.
func (t textWriter) printFrame(d engine.Diagnostic, w frameWindow) {
	text, caret := clip(expandLine(w.text, w.column))
	if w.cutL && !strings.HasPrefix(text, "…") {
		text = "…" + text
		if caret >= 0 {
			caret++
		}
	}
	if w.cutR && !strings.HasSuffix(text, "…") {
		text += "…"
	}
	num := strconv.Itoa(d.Line)
	t.w.WriteString("    ")
	t.paint(ansiDim, num+" |")
	if text != "" {
		t.w.WriteByte(' ')
		t.w.WriteString(text)
	}
	t.w.WriteByte('\n')
	if caret < 0 {
		return
	}
	t.w.WriteString("    ")
	t.paint(ansiDim, strings.Repeat(" ", len(num))+" |")
	pad(t.w, 1+caret)
	t.paint(ansiBold+severityStyle(d.Severity), "^")
	t.w.WriteByte('\n')
}

func (t textWriter) printSummary(tally tallier) {
	c := tally.counts()
	with := ""
	if p := tally.rulesetsPhrase(); p != "" {
		with = " with " + sanitize(p)
	}
	if c.problems() == 0 {
		t.paint(ansiBold+ansiGreen, "✔ no problems in "+plural(c.Files, "file", "files")+with)
		t.w.WriteByte('\n')
		return
	}
	style := ansiBlue
	switch {
	case c.Errors > 0:
		style = ansiRed
	case c.Warnings > 0:
		style = ansiYellow
	}
	s := fmt.Sprintf("✖ %s (%s, %s, %s) in %d of %s",
		plural(c.problems(), "problem", "problems"),
		plural(c.Errors, "error", "errors"),
		plural(c.Warnings, "warning", "warnings"),
		plural(c.Infos, "info", "infos"),
		c.FilesWithProblems, plural(c.Files, "file", "files")) + with
	var failures []string
	if c.RuleErrors > 0 {
		failures = append(failures, plural(c.RuleErrors, "rule error", "rule errors"))
	}
	if n := tally.inputErr; n > 0 {
		failures = append(failures, plural(n, "input error", "input errors"))
	}
	if len(failures) > 0 {
		s += ", including " + strings.Join(failures, " and ")
	}
	if c.NotShown > 0 {
		s += fmt.Sprintf("; %d not shown", c.NotShown)
	}
	if c.Quieted > 0 {
		s += fmt.Sprintf("; %d hidden by --quiet", c.Quieted)
	}
	t.paint(ansiBold+style, s)
	t.w.WriteByte('\n')
}

// plural renders "1 file", "2 files", "0 files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func pad(w *bufio.Writer, n int) {
	for range n {
		w.WriteByte(' ')
	}
}

// width is the number of columns s takes: one per code point.
func width(s string) int { return utf8.RuneCountInString(s) }

// sanitize keeps text from the documents from moving the cursor, colouring
// the terminal or reordering a line: white space becomes a space, and other
// control characters, bidi controls and invisible characters are shown
// escaped ("<U+202E>"); see [safetext.Line].
func sanitize(s string) string { return safetext.Line(s) }

// fileHeader is the header line of a file's group: its name, sanitized,
// with "./" before a relative name that would otherwise start the line with
// "::", which a CI runner reads as a workflow command.
func fileHeader(name string) string {
	s := sanitize(name)
	if strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "::") {
		s = "./" + s
	}
	return s
}

// splitLines splits src into lines as the loader counts them (and editors
// show them): at "\r\n", a lone '\r' or '\n', dropping a byte order mark and
// the empty line after a final line break.
func splitLines(src []byte) []string {
	s := strings.TrimPrefix(string(src), "\uFEFF")
	var lines []string
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			break
		}
		lines = append(lines, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	if s != "" || len(lines) == 0 {
		lines = append(lines, s)
	}
	return lines
}

// maxFrame is the most code points of a source line a code frame shows; a
// longer line (minified JSON, say) is cut to a window around the caret.
const maxFrame = 160

// clip cuts a long rendered line to a window of maxFrame code points around
// the caret, marking the cuts with "…", and moves the caret to match.
func clip(text string, caret int) (string, int) {
	r := []rune(text)
	if len(r) <= maxFrame {
		return text, caret
	}
	start := 0
	if caret > maxFrame/3 {
		start = caret - maxFrame/3
	}
	end := min(start+maxFrame, len(r))
	if end-start < maxFrame {
		start = max(0, end-maxFrame)
	}
	out := string(r[start:end])
	if caret >= 0 {
		caret -= start
	}
	if start > 0 {
		out = "…" + out
		if caret >= 0 {
			caret++
		}
	}
	if end < len(r) {
		out += "…"
	}
	return out, caret
}

// expandLine renders a source line for the terminal, tabs expanded to
// tabWidth and control characters replaced, and returns with it the display
// offset of the code point at column (1-based): -1 when column < 1, the end
// of the line when column is past it.
func expandLine(line string, column int) (text string, caret int) {
	var b strings.Builder
	caret = -1
	col, k := 0, 1
	for _, r := range line {
		if k == column {
			caret = col
		}
		k++
		switch {
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		case safetext.Hidden(r):
			e := safetext.Escape(r)
			b.WriteString(e)
			col += len(e)
			continue
		}
		b.WriteRune(r)
		col++
	}
	if column >= k {
		caret = col
	}
	return b.String(), caret
}

package report

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
)

// githubPrinter prints GitHub Actions workflow commands, which GitHub shows
// as annotations on the run and on the pull request's diff:
//
//	::error file=a.json,line=3,col=15,title=acme.item.name-format::item name must … (/items/0/name)
type githubPrinter struct{}

func (githubPrinter) Print(w io.Writer, in Input) error { return printAll(newGithubStream(w, in), in) }

// githubStream writes the commands of a file at a time.
type githubStream struct{ w *bufio.Writer }

func newGithubStream(w io.Writer, _ Input) Stream {
	return githubStream{bufio.NewWriterSize(w, 64<<10)}
}

func (s githubStream) File(f File) error {
	for _, d := range f.Diagnostics {
		s.w.WriteString(githubCommand(d))
		s.w.WriteByte('\n')
	}
	return s.w.Flush()
}

func (s githubStream) Close([]Rule) error { return s.w.Flush() }

// githubCommand renders one diagnostic as a workflow command.
func githubCommand(d engine.Diagnostic) string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(githubLevel(d.Severity))
	b.WriteString(" file=")
	b.WriteString(githubEscapeProperty(filepath.ToSlash(d.File)))
	if d.Line > 0 {
		fmt.Fprintf(&b, ",line=%d", d.Line)
		if d.Column > 0 {
			fmt.Fprintf(&b, ",col=%d", d.Column)
		}
	}
	title := d.Label()
	switch {
	case d.RuleError:
		title += " (rule error)"
	case d.InputError:
		title += " (input error)"
	}
	b.WriteString(",title=")
	b.WriteString(githubEscapeProperty(title))
	b.WriteString("::")
	msg := d.Message
	if d.Pointer != "" {
		msg += " (" + d.Pointer + ")"
	}
	b.WriteString(githubEscapeData(msg))
	return b.String()
}

func githubLevel(s engine.Severity) string {
	switch s {
	case engine.Error:
		return "error"
	case engine.Warning:
		return "warning"
	}
	return "notice"
}

// githubEscapeData escapes a command's message as @actions/core does, after
// showing escaped ("<U+001B>") what a terminal or the log viewer would act
// on: ESC, DEL, C1 and other control characters, bidi controls and
// invisible characters (see [safetext.Hidden]); line breaks stay, as %0D
// and %0A, and so do tabs.
func githubEscapeData(s string) string { return githubData.Replace(githubVisible(s)) }

// githubEscapeProperty escapes a command's property value as
// githubEscapeData does, and ':' and ',' too.
func githubEscapeProperty(s string) string { return githubProperty.Replace(githubVisible(s)) }

// githubVisible escapes the hidden characters of s but tab, CR and LF.
func githubVisible(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == utf8.RuneError || safetext.Hidden(r) }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t' || r == '\r' || r == '\n':
			b.WriteRune(r)
		case safetext.Hidden(r):
			b.WriteString(safetext.Escape(r))
		default:
			b.WriteRune(r) // invalid UTF-8 becomes U+FFFD
		}
	}
	return b.String()
}

var (
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

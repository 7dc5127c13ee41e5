package report

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
)

// codeQualityPrinter prints a GitLab Code Quality report; see the package
// comment.
type codeQualityPrinter struct{}

func (codeQualityPrinter) Print(w io.Writer, in Input) error {
	return printAll(newCodeQualityStream(w, in), in)
}

// codeQualityIssue is one element of a Code Quality report.
type codeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeQualityLocation `json:"location"`
}

type codeQualityLocation struct {
	Path  string           `json:"path"`
	Lines codeQualityLines `json:"lines"`
}

type codeQualityLines struct {
	Begin int `json:"begin"`
}

// codeQualityStream writes the issues of a file at a time, as the
// elements of one JSON array.
type codeQualityStream struct {
	w     *bufio.Writer
	buf   bytes.Buffer
	enc   *json.Encoder // to buf
	count int           // the issues written
	// seen counts the fingerprints given so far, so that two issues that
	// would have the same one are told apart.
	seen map[string]int
}

func newCodeQualityStream(w io.Writer, _ Input) Stream {
	s := &codeQualityStream{w: bufio.NewWriterSize(w, 64<<10), seen: map[string]int{}}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	s.enc.SetIndent("  ", "  ")
	return s
}

func (s *codeQualityStream) File(f File) error {
	for _, d := range f.Diagnostics {
		s.buf.Reset()
		if err := s.enc.Encode(s.issue(d)); err != nil {
			return err
		}
		if s.count == 0 {
			s.w.WriteString("[\n  ")
		} else {
			s.w.WriteString(",\n  ")
		}
		s.count++
		s.w.Write(safetext.JSON(bytes.TrimSuffix(s.buf.Bytes(), []byte("\n"))))
	}
	return s.w.Flush()
}

func (s *codeQualityStream) Close([]Rule) error {
	if s.count == 0 {
		s.w.WriteString("[]\n")
	} else {
		s.w.WriteString("\n]\n")
	}
	return s.w.Flush()
}

// issue is d as a Code Quality issue.
func (s *codeQualityStream) issue(d engine.Diagnostic) codeQualityIssue {
	desc := d.Message
	switch {
	case d.RuleError:
		desc = "rule error: " + desc
	case d.InputError:
		desc = "input error: " + desc
	}
	fp := codeQualityFingerprint(d, 0)
	if n := s.seen[fp]; n > 0 {
		s.seen[fp] = n + 1
		fp = codeQualityFingerprint(d, n)
	} else {
		s.seen[fp] = 1
	}
	return codeQualityIssue{
		Description: desc,
		CheckName:   d.Label(),
		Fingerprint: fp,
		Severity:    codeQualitySeverity(d),
		Location:    codeQualityLocation{Path: codeQualityPath(d.File), Lines: codeQualityLines{Begin: max(d.Line, 1)}},
	}
}

// codeQualityFingerprint is the first 32 hex digits of the SHA-256 of the
// rule id (with "/code"), the file (forward slashes, no leading "./") and
// the finding's path (its pointer with identified items named,
// engine.Diagnostic.Path, else its pointer), each followed by a NUL byte,
// and, for the nth repetition of the same (n > 0), n in decimal.
func codeQualityFingerprint(d engine.Diagnostic, n int) string {
	h := sha256.New()
	for _, s := range []string{d.Label(), codeQualityPath(d.File), cmp.Or(d.Path, d.Pointer)} {
		io.WriteString(h, s)
		h.Write([]byte{0})
	}
	if n > 0 {
		io.WriteString(h, strconv.Itoa(n))
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// codeQualityPath is file as GitLab matches it to the repository: forward
// slashes, no leading "./".
func codeQualityPath(file string) string {
	p := filepath.ToSlash(file)
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// codeQualitySeverity maps a diagnostic to a Code Quality severity: info,
// minor (warning), major (error), critical (a rule error or an input
// error: the document was not fully checked).
func codeQualitySeverity(d engine.Diagnostic) string {
	if d.RuleError || d.InputError {
		return "critical"
	}
	switch d.Severity {
	case engine.Error:
		return "major"
	case engine.Warning:
		return "minor"
	}
	return "info"
}

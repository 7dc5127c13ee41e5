package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/celint/celint/internal/safetext"
)

// jsonlPrinter prints JSON Lines: a diagnostic a line, then the summary;
// see the package comment.
type jsonlPrinter struct{}

func (jsonlPrinter) Print(w io.Writer, in Input) error { return printAll(newJSONLStream(w, in), in) }

// jsonlSummary is the last line of a jsonl report.
type jsonlSummary struct {
	Version int        `json:"version"`
	Tool    jsonTool   `json:"tool"`
	Files   []jsonFile `json:"files"`
	Counts  counts     `json:"counts"`
}

// jsonlStream writes the lines of a file at a time.
type jsonlStream struct {
	w     *bufio.Writer
	buf   bytes.Buffer
	enc   *json.Encoder // to buf
	tool  jsonTool
	tally tallier
	files []jsonFile // the files checked, for the summary
}

func newJSONLStream(w io.Writer, in Input) Stream {
	s := &jsonlStream{w: bufio.NewWriterSize(w, 64<<10), tool: jsonTool{Name: toolName, Version: in.ToolVersion}}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	return s
}

// line writes v as one line: Encode ends it with a newline, and JSON
// escapes any in its strings.
func (s *jsonlStream) line(v any) error {
	s.buf.Reset()
	if err := s.enc.Encode(v); err != nil {
		return err
	}
	_, err := s.w.Write(safetext.JSON(s.buf.Bytes()))
	return err
}

func (s *jsonlStream) File(f File) error {
	if f.Checked {
		s.tally.file(f.Name, false)
		rs := f.Rulesets
		if rs == nil {
			rs = []string{}
		}
		s.files = append(s.files, jsonFile{File: f.Name, Rulesets: rs})
	}
	s.tally.add(f.Diagnostics)
	s.tally.notShown(f.NotShown)
	s.tally.quieted(f.Name, f.Quieted)
	for _, d := range f.Diagnostics {
		if err := s.line(newJSONDiagnostic(d)); err != nil {
			return err
		}
	}
	return s.w.Flush()
}

func (s *jsonlStream) Close([]Rule) error {
	if err := s.line(jsonlSummary{Version: jsonVersion, Tool: s.tool, Files: append(make([]jsonFile, 0, len(s.files)), s.files...), Counts: s.tally.counts()}); err != nil {
		return err
	}
	return s.w.Flush()
}

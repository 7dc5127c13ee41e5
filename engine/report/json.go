package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/loader"
)

// jsonVersion is the version of the json format; see the package comment.
const jsonVersion = 1

// jsonPrinter prints the stable json format described in the package comment.
type jsonPrinter struct{}

type jsonReport struct {
	Version     int              `json:"version"`
	Tool        jsonTool         `json:"tool"`
	Config      string           `json:"config,omitempty"`
	Files       []jsonFile       `json:"files"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
	Counts      counts           `json:"counts"`
}

// jsonFile is a file the run checked, with the rulesets that checked it.
type jsonFile struct {
	File     string   `json:"file"`
	Rulesets []string `json:"rulesets"`
}

// jsonFiles lists the checked files of in, by name (the order of the
// report).
func jsonFiles(in Input) []jsonFile {
	out := make([]jsonFile, 0, len(in.Files))
	for _, f := range slices.Sorted(slices.Values(in.Files)) {
		rs := in.Rulesets[f]
		if rs == nil {
			rs = []string{}
		}
		out = append(out, jsonFile{File: f, Rulesets: rs})
	}
	return out
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// jsonDiagnostic is its own type, not engine.Diagnostic, so that the format
// stays put when the engine's type changes.
type jsonDiagnostic struct {
	File       string          `json:"file"`
	RuleID     string          `json:"ruleId"`
	Code       string          `json:"code,omitempty"`
	Aliases    []string        `json:"aliases,omitempty"`
	Severity   engine.Severity `json:"severity"`
	Message    string          `json:"message"`
	Pointer    string          `json:"pointer"`
	Line       int             `json:"line,omitempty"`
	Column     int             `json:"column,omitempty"`
	EndLine    int             `json:"endLine,omitempty"`
	EndColumn  int             `json:"endColumn,omitempty"`
	Related    []jsonRelated   `json:"related,omitempty"`
	URL        string          `json:"url,omitempty"`
	RuleError  bool            `json:"ruleError,omitempty"`
	InputError bool            `json:"inputError,omitempty"`
	Fix        []loader.Edit   `json:"fix,omitempty"`
}

// jsonRelated is another position a diagnostic concerns.
type jsonRelated struct {
	Message string `json:"message"`
	Pointer string `json:"pointer"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

func (jsonPrinter) Print(w io.Writer, in Input) error {
	r := jsonReport{
		Version:     jsonVersion,
		Tool:        jsonTool{Name: toolName, Version: in.ToolVersion},
		Config:      in.Config,
		Files:       jsonFiles(in),
		Diagnostics: []jsonDiagnostic{}, // each written in turn by encodeJSON
		Counts:      tally(in),
	}
	return encodeJSON(w, r, jsonHole{member: "diagnostics", depth: 1, n: len(in.Diagnostics), elem: func(i int) any {
		return newJSONDiagnostic(in.Diagnostics[i])
	}})
}

// newJSONDiagnostic is d in the json format.
func newJSONDiagnostic(d engine.Diagnostic) jsonDiagnostic {
	jd := jsonDiagnostic{
		File:       d.File,
		RuleID:     d.RuleID,
		Code:       d.Code,
		Aliases:    d.Aliases,
		Severity:   d.Severity,
		Message:    d.Message,
		Pointer:    d.Pointer,
		Line:       d.Line,
		Column:     d.Column,
		EndLine:    d.EndLine,
		EndColumn:  d.EndColumn,
		URL:        d.URL,
		RuleError:  d.RuleError,
		InputError: d.InputError,
		Fix:        d.Fix,
	}
	for _, rel := range d.Related {
		jd.Related = append(jd.Related, jsonRelated(rel))
	}
	return jd
}

// jsonHole is an array member of a document that encodeJSON writes an
// element at a time: the member of that name at that depth (1 for a
// member of the top-level object), which the document holds empty, and
// its n elements, made by elem when their turn comes.
type jsonHole struct {
	member string
	depth  int
	n      int
	elem   func(i int) any
}

// encodeJSON writes v indented by two spaces, without HTML escaping, and
// followed by a newline. Characters a terminal would act on that
// encoding/json leaves raw (DEL, C1 controls, bidi and invisible
// characters) and "##[" are written as \u escapes: the same JSON values,
// safe to print in a terminal or a CI log (see [safetext.JSON]).
//
// The elements of hole's array are encoded one at a time, into the place
// of the empty array v holds: the document is never whole in memory, and
// the bytes are those of encoding it whole.
func encodeJSON(w io.Writer, v any, hole jsonHole) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	doc := safetext.JSON(buf.Bytes())
	// The member's name is at the start of a line, after its depth's
	// indent: a string holding the same text has its quotes escaped, and
	// a member deeper down has a longer indent.
	indent := strings.Repeat("  ", hole.depth)
	at := bytes.Index(doc, []byte("\n"+indent+strconv.Quote(hole.member)+": []"))
	if at < 0 {
		return fmt.Errorf("report: no empty %q array to fill in the document", hole.member)
	}
	at += len(indent) + len(hole.member) + 5 // just before "[]"
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(doc[:at])
	if hole.n == 0 {
		bw.WriteString("[]")
	} else {
		bw.WriteByte('[')
		var elem bytes.Buffer
		enc := json.NewEncoder(&elem)
		enc.SetEscapeHTML(false)
		enc.SetIndent(indent+"  ", "  ")
		for i := range hole.n {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString("\n" + indent + "  ")
			elem.Reset()
			if err := enc.Encode(hole.elem(i)); err != nil {
				return err
			}
			bw.Write(safetext.JSON(bytes.TrimSuffix(elem.Bytes(), []byte("\n"))))
		}
		bw.WriteString("\n" + indent + "]")
	}
	bw.Write(doc[at+2:])
	return bw.Flush()
}

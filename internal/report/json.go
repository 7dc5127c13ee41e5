package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
)

// jsonVersion is the version of the json format; see the package comment.
const jsonVersion = 1

// jsonPrinter prints the stable json format described in the package comment.
type jsonPrinter struct{}

type jsonReport struct {
	Version     int              `json:"version"`
	Tool        jsonTool         `json:"tool"`
	Config      string           `json:"config,omitempty"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
	Counts      counts           `json:"counts"`
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
		Diagnostics: make([]jsonDiagnostic, len(in.Diagnostics)),
		Counts:      tally(in),
	}
	for i, d := range in.Diagnostics {
		r.Diagnostics[i] = jsonDiagnostic{
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
		}
	}
	for i, d := range in.Diagnostics {
		for _, rel := range d.Related {
			r.Diagnostics[i].Related = append(r.Diagnostics[i].Related, jsonRelated(rel))
		}
	}
	return encodeJSON(w, r)
}

// encodeJSON writes v indented by two spaces, without HTML escaping, and
// followed by a newline. Characters a terminal would act on that
// encoding/json leaves raw (DEL, C1 controls, bidi and invisible
// characters) and "##[" are written as \u escapes: the same JSON values,
// safe to print in a terminal or a CI log (see [safetext.JSON]).
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(safetext.JSON(buf.Bytes()))
	return err
}

package engine

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/celint/celint/loader"
)

// Severity orders diagnostics: Error is the most severe.
type Severity int

// The severities, from the requirement levels must, should and may.
const (
	Info Severity = iota
	Warning
	Error
)

// String returns "error", "warning" or "info".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// MarshalText implements encoding.TextMarshaler.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	*s = v
	return err
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q: expected error, warning or info", s)
}

// SeverityOfLevel maps a requirement level to a severity: must → error,
// should → warning, may → info.
func SeverityOfLevel(level string) Severity {
	switch level {
	case "must":
		return Error
	case "should":
		return Warning
	}
	return Info
}

// Diagnostic is one finding: a rule's verdict on one location of a document,
// or an error of the rule itself (RuleError), or of the input (InputError).
type Diagnostic struct {
	File   string `json:"file"`
	RuleID string `json:"ruleId"`
	// Code names which of the rule's findings this is; "" for the rule's
	// own. Aliases are other tools' codes for it.
	Code     string   `json:"code,omitempty"`
	Aliases  []string `json:"aliases,omitempty"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Pointer  string   `json:"pointer"`
	// Path is Pointer with the index of each array item that the ruleset
	// identifies by a member (context.identity) replaced by that member's
	// value, as in /tools/[name="get_weather"]/description: it stays the
	// same when items are inserted or removed above. "" when no item on
	// the way is identified.
	Path   string `json:"-"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// EndLine and EndColumn are where the offending value ends: just past
	// its last character. Zero when unknown.
	EndLine   int `json:"endLine,omitempty"`
	EndColumn int `json:"endColumn,omitempty"`
	// Related are other places the finding concerns, such as the
	// references through which a referenced value was reached.
	Related []Related `json:"related,omitempty"`
	// URL is the page that documents the rule, when it is published.
	URL string `json:"url,omitempty"`
	// Fix, when not nil, are the edits that mend the finding, at pointers
	// from the document's root (see loader.Edits).
	Fix []loader.Edit `json:"fix,omitempty"`
	// RuleError marks a failure of the rule itself (evaluation error, cost
	// budget exceeded): the document was not fully checked by that rule.
	RuleError bool `json:"ruleError,omitempty"`
	// InputError marks a document that could not be read or parsed.
	InputError bool `json:"inputError,omitempty"`
	// OptIn marks a finding of an opt-in code (Code.OptIn): a linter that
	// honours the mark reports it only when asked to, as engine/lint
	// does when a config file gives the code a level.
	OptIn bool `json:"-"`
	// Cause is the error behind a rule error, for errors.Is: ErrBudget,
	// ErrRuleTimeout, cel.ErrCostLimit, cel.ErrPanic, or the CEL runtime
	// error. Nil for findings.
	Cause error `json:"-"`
}

// Related is a position that a diagnostic refers to, with what it is.
type Related struct {
	Message string `json:"message"`
	Pointer string `json:"pointer"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

// sameFinding reports whether a and b are the same finding, whatever their
// related positions.
func sameFinding(a, b Diagnostic) bool {
	return a.File == b.File && a.RuleID == b.RuleID && a.Code == b.Code && a.Severity == b.Severity &&
		a.Message == b.Message && a.Pointer == b.Pointer && a.Line == b.Line &&
		a.Column == b.Column && a.EndLine == b.EndLine && a.EndColumn == b.EndColumn &&
		a.URL == b.URL && a.RuleError == b.RuleError && a.InputError == b.InputError
}

// Label names the finding as celint prints it: the rule id, and "/code"
// when the finding has a code.
func (d Diagnostic) Label() string {
	if d.Code == "" {
		return d.RuleID
	}
	return d.RuleID + "/" + d.Code
}

// String renders "file:line:col: severity: message [rule]", or
// "[rule/code]" for a finding with a code.
func (d Diagnostic) String() string {
	id := d.RuleID
	if d.Code != "" {
		id += "/" + d.Code
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", d.File, d.Line, d.Column, d.Severity, d.Message, id)
}

// SortDiagnostics orders diagnostics deterministically: by file, line,
// column, pointer, rule id, then message.
func SortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int { return compareDiagnostics(&a, &b) })
}

// CompareDiagnostics orders a and b as SortDiagnostics does: negative
// when a comes first, positive when b does, 0 when neither.
func CompareDiagnostics(a, b Diagnostic) int { return compareDiagnostics(&a, &b) }

// compareDiagnostics is the order of SortDiagnostics.
func compareDiagnostics(a, b *Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Pointer, b.Pointer),
		cmp.Compare(a.RuleID, b.RuleID),
		cmp.Compare(a.Code, b.Code),
		cmp.Compare(a.Message, b.Message),
	)
}

// Counts tallies diagnostics by severity.
type Counts struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	RuleErrors int `json:"ruleErrors"`
}

// Add returns the sum of c and o.
func (c Counts) Add(o Counts) Counts {
	return Counts{Errors: c.Errors + o.Errors, Warnings: c.Warnings + o.Warnings, Infos: c.Infos + o.Infos, RuleErrors: c.RuleErrors + o.RuleErrors}
}

// Count tallies ds.
func Count(ds []Diagnostic) Counts {
	var c Counts
	for _, d := range ds {
		switch d.Severity {
		case Error:
			c.Errors++
		case Warning:
			c.Warnings++
		default:
			c.Infos++
		}
		if d.RuleError {
			c.RuleErrors++
		}
	}
	return c
}

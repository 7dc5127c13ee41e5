package lsp

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/internal/ruledoc"
	"github.com/celint/celint/loader"
)

// analysis is what the lint of one version of a document found, with
// what hovers and code actions need of it.
type analysis struct {
	version     int32
	text        *text
	setup       *setup
	parsed      *lint.Document // nil when the document could not be read
	result      *lint.Result   // nil when the document gets no diagnostics
	description bool           // the document is one a ruleset lints
	diagnostics []protocol.Diagnostic
}

// maxHoverRules bounds the rules a hover on a key lists.
const maxHoverRules = 12

// severity returns the LSP severity of a finding.
func severity(s engine.Severity) protocol.DiagnosticSeverity {
	switch s {
	case engine.Error:
		return protocol.DiagnosticSeverityError
	case engine.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// span returns the LSP range of a finding: from its position to where the
// offending value ends, or to the end of its line when that is unknown or
// on a later line (a finding about a whole object marks its first line,
// not every line of it).
func (a *analysis) span(d *engine.Diagnostic) protocol.Range {
	line, col := d.Line, d.Column
	if line <= 0 {
		line, col = 1, 1
	}
	if d.EndLine != line {
		return a.text.lspRange(line, col, 0, 0)
	}
	return a.text.lspRange(line, col, d.EndLine, d.EndColumn)
}

// convert returns the LSP diagnostics of the findings, in report order,
// then one saying how many more were left out, if any.
func (a *analysis) convert(u protocol.DocumentUri) []protocol.Diagnostic {
	res := a.result
	out := make([]protocol.Diagnostic, 0, len(res.Diagnostics)+1)
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		sev := severity(d.Severity)
		if d.RuleError {
			sev = protocol.DiagnosticSeverityError
		}
		pd := diagnostic(a.span(d), sev, d.Label(), d.Message)
		if d.URL != "" {
			pd.CodeDescription = &protocol.CodeDescription{HRef: d.URL}
		}
		for _, rel := range d.Related {
			r := a.text.lspRange(rel.Line, rel.Column, 0, 0)
			if a.parsed != nil && rel.Pointer != "" {
				if start, end := a.parsed.Parsed.Span(rel.Pointer); !start.IsZero() {
					r = a.text.lspRange(int(start.Line), int(start.Col), int(end.Line), int(end.Col))
				}
			}
			pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: u, Range: r},
				Message:  rel.Message,
			})
		}
		out = append(out, pd)
	}
	if o := res.Omitted; o.Errors+o.Warnings+o.Infos > 0 {
		at := a.text.position(a.text.BOM)
		out = append(out, diagnostic(protocol.Range{Start: at, End: at}, protocol.DiagnosticSeverityInformation, "",
			fmt.Sprintf("%d more findings are not shown (%d errors, %d warnings, %d infos): at most %d are, the first in document order",
				o.Errors+o.Warnings+o.Infos, o.Errors, o.Warnings, o.Infos, len(res.Diagnostics))))
	}
	return out
}

// diagnostic returns an LSP diagnostic of celint's; code "" for none.
func diagnostic(r protocol.Range, sev protocol.DiagnosticSeverity, code, message string) protocol.Diagnostic {
	d := protocol.Diagnostic{Range: r, Severity: &sev, Source: ptr("celint"), Message: message}
	if code != "" {
		d.Code = &protocol.IntegerOrString{Value: code}
	}
	return d
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// rule returns the rule of a finding, and the ruleset it is in.
func (a *analysis) rule(id string) (*engine.Ruleset, *engine.Rule) {
	if a.result == nil {
		return nil, nil
	}
	for _, rs := range a.result.Rulesets {
		if r := rs.Rule(id); r != nil {
			return rs, r
		}
	}
	return nil, nil
}

// before reports whether the LSP position p comes before q.
func before(p, q protocol.Position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
}

// contains reports whether r holds p (its end included, so that a hover
// right after a one-character value finds it).
func contains(r protocol.Range, p protocol.Position) bool {
	return !before(p, r.Start) && !before(r.End, p)
}

// overlaps reports whether two ranges share a position.
func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// hover returns what the findings at p say, or else what the rules that
// select the value (or member) at p are about; nil for nothing.
func (a *analysis) hover(p protocol.Position) *protocol.Hover {
	if a.result == nil {
		return nil
	}
	var b strings.Builder
	var at *protocol.Range
	for i := range a.result.Diagnostics {
		d := &a.result.Diagnostics[i]
		r := a.span(d)
		if d.InputError || !contains(r, p) {
			continue
		}
		if at == nil {
			at = &r
		}
		if b.Len() > 0 {
			b.WriteString("\n\n---\n\n")
		}
		a.describeFinding(&b, d)
	}
	if b.Len() == 0 {
		a.describeRules(&b, p, &at)
	}
	if b.Len() == 0 {
		return nil
	}
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: b.String()},
		Range:    at,
	}
}

// describeFinding writes what a finding's rule says: its title, its
// requirement and its page.
func (a *analysis) describeFinding(b *strings.Builder, d *engine.Diagnostic) {
	fmt.Fprintf(b, "**%s** (%s): %s", markdown(d.Label()), d.Severity, markdown(d.Message))
	if _, r := a.rule(d.RuleID); r != nil {
		if r.Doc.Title != "" {
			fmt.Fprintf(b, "\n\n%s", markdown(r.Doc.Title))
		}
		if req := strings.TrimSpace(r.Doc.Requirement); req != "" {
			fmt.Fprintf(b, "\n\n> %s", strings.ReplaceAll(markdown(req), "\n", "\n> "))
		}
	}
	if d.URL != "" {
		fmt.Fprintf(b, "\n\n[%s](%s)", markdown(d.RuleID), d.URL)
	}
}

// describeRules writes the rules that select the value or member at p, of
// the rulesets that lint the document.
func (a *analysis) describeRules(b *strings.Builder, p protocol.Position, at **protocol.Range) {
	if a.parsed == nil {
		return
	}
	off, err := a.text.offset(p)
	if err != nil {
		return
	}
	doc := a.parsed.Parsed
	line, col := a.text.SourcePos(off)
	n := nodeAt(doc, loader.Pos{Line: int32(line), Col: int32(col)})
	if n == nil || n == doc.Root {
		return
	}
	type found struct {
		rs *engine.Ruleset
		r  *engine.Rule
	}
	// The rules that select the value, or else the nearest value it is in
	// that rules select (a member is mostly checked by the rules of its
	// object).
	var rules []found
	for ; n != nil && n != doc.Root && len(rules) == 0; n = n.Parent {
		for _, rs := range a.parsed.Rulesets {
			for _, r := range rs.Rules {
				if r.SelectsNode(doc, n) {
					rules = append(rules, found{rs, r})
				}
			}
		}
		if len(rules) > 0 {
			break
		}
	}
	if len(rules) == 0 {
		return
	}
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].r.ID < rules[j].r.ID })
	fmt.Fprintf(b, "celint: %d %s check `%s`", len(rules), plural(len(rules), "rule", "rules"), codeSpan(n.Pointer()))
	for i, f := range rules {
		if i == maxHoverRules {
			fmt.Fprintf(b, "\n- and %d more", len(rules)-i)
			break
		}
		fmt.Fprintf(b, "\n- **%s** (%s)", markdown(f.r.ID), f.r.Severity)
		if f.r.Doc.Title != "" {
			fmt.Fprintf(b, ": %s", markdown(f.r.Doc.Title))
		}
		if u := ruledoc.PageURL(f.rs, f.r); u != "" {
			fmt.Fprintf(b, " ([page](%s))", u)
		}
	}
	start := n.Pos
	if !n.KeyPos.IsZero() {
		start = n.KeyPos
	}
	end := doc.End(n)
	r := a.text.lspRange(int(start.Line), int(start.Col), int(end.Line), int(end.Col))
	*at = &r
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// markdown escapes the characters of text that Markdown would read as
// markup, and drops control characters.
func markdown(text string) string {
	var b strings.Builder
	for _, r := range text {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
		case strings.ContainsRune("\\`*_{}[]()<>#+!|~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// codeSpan returns text fit to put between backquotes: without them and
// without control characters.
func codeSpan(text string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '`':
			return '\''
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, text)
}

// posBefore reports whether p comes before q.
func posBefore(p, q loader.Pos) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
}

// nodeAt returns the deepest node of doc whose member name or value holds
// pos; the root when none of its children does.
func nodeAt(doc *loader.Document, pos loader.Pos) *loader.Node {
	n := doc.Root
	for n != nil {
		kids := n.Children()
		start := func(c *loader.Node) loader.Pos {
			if !c.KeyPos.IsZero() {
				return c.KeyPos
			}
			return c.Pos
		}
		// The last child that starts at or before pos.
		i := sort.Search(len(kids), func(i int) bool { return posBefore(pos, start(kids[i])) }) - 1
		if i < 0 || posBefore(doc.End(kids[i]), pos) {
			return n
		}
		n = kids[i]
	}
	return n
}

// codeActions returns the quick fixes of the findings in r: each
// finding's fix, and for YAML a comment that suppresses it.
func (a *analysis) codeActions(u protocol.DocumentUri, r protocol.Range) []protocol.CodeAction {
	actions := []protocol.CodeAction{}
	if a.result == nil || a.parsed == nil {
		return actions
	}
	for i := range a.result.Diagnostics {
		d := &a.result.Diagnostics[i]
		if d.InputError || d.RuleError {
			continue
		}
		dr := a.span(d)
		if !overlaps(dr, r) {
			continue
		}
		diag := a.diagnostics[i]
		if len(d.Fix) > 0 {
			if edit, ok := a.fixEdit(d); ok {
				actions = append(actions, protocol.CodeAction{
					Title:       a.fixTitle(d),
					Kind:        ptr(protocol.CodeActionKindQuickFix),
					Diagnostics: []protocol.Diagnostic{diag},
					IsPreferred: ptr(true),
					Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{u: {edit}}},
				})
			}
		}
		if a.parsed.Parsed.Format == "yaml" {
			if edit, ok := a.suppressEdit(d); ok {
				actions = append(actions, protocol.CodeAction{
					Title:       "Suppress " + d.Label() + " on this line",
					Kind:        ptr(protocol.CodeActionKindQuickFix),
					Diagnostics: []protocol.Diagnostic{diag},
					Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{u: {edit}}},
				})
			}
		}
	}
	return actions
}

// fixTitle returns the title of a finding's fix: what the rule says the
// fix does, or that it is celint's fix.
func (a *analysis) fixTitle(d *engine.Diagnostic) string {
	if _, r := a.rule(d.RuleID); r != nil {
		for _, f := range r.Fixes {
			if f.Code == d.Code && f.Description != "" {
				return "Fix " + d.Label() + ": " + f.Description
			}
		}
	}
	return "Fix " + d.Label()
}

// fixEdit returns the edit that makes a finding's fix, as loader.Edits
// writes it into the source.
func (a *analysis) fixEdit(d *engine.Diagnostic) (protocol.TextEdit, bool) {
	opts := a.loadOptions()
	if opts == nil {
		return protocol.TextEdit{}, false
	}
	src := a.text.Data[a.text.BOM:]
	after, err := loader.Edits(a.parsed.Name, src, *opts, d.Fix)
	if err != nil {
		return protocol.TextEdit{}, false
	}
	return a.text.textEdit(append(bytes.Clone(a.text.Data[:a.text.BOM]), after...)), true
}

// suppressPrefix starts the comment that suppresses findings on the next
// line.
const suppressPrefix = "# celint-disable-next-line "

// suppressEdit returns the edit that suppresses a finding with a comment
// on the line before it: a new comment line, indented as the finding's
// line, or the finding's code added to such a comment already there. It
// is refused when the comment would change the document's value.
func (a *analysis) suppressEdit(d *engine.Diagnostic) (protocol.TextEdit, bool) {
	t := a.text
	li := d.Line - 1
	if li < 0 || li >= len(t.Lines) {
		return protocol.TextEdit{}, false
	}
	var edit protocol.TextEdit
	if li > 0 {
		prev := t.line(li - 1)
		trimmed := bytes.TrimLeft(prev, " \t")
		if bytes.HasPrefix(trimmed, []byte(suppressPrefix)) {
			// Add to the list, before a reason.
			end := t.Lines[li-1] + len(prev)
			if k := bytes.Index(prev, []byte(" -- ")); k >= 0 {
				end = t.Lines[li-1] + k
			}
			at := t.position(end)
			edit = protocol.TextEdit{Range: protocol.Range{Start: at, End: at}, NewText: ", " + d.Label()}
		}
	}
	if edit.NewText == "" {
		line := t.line(li)
		indent := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if li == 0 {
			indent = bytes.TrimPrefix(indent, t.Data[:t.BOM])
		}
		brk := "\n"
		if end := t.LineEnd(li); bytes.HasPrefix(t.Data[end:], []byte("\r\n")) {
			brk = "\r\n"
		}
		at := t.position(t.Lines[li] + len(line) - len(bytes.TrimLeft(line, " \t")))
		at.Character = 0
		if li == 0 {
			at = t.position(t.BOM)
		}
		edit = protocol.TextEdit{Range: protocol.Range{Start: at, End: at}, NewText: string(indent) + suppressPrefix + d.Label() + brk}
	}
	// The comment must leave the value as it is.
	after, err := apply(t.Data, []change{{Range: &edit.Range, Text: edit.NewText}}, len(t.Data)+len(edit.NewText))
	if err != nil {
		return protocol.TextEdit{}, false
	}
	opts := a.loadOptions()
	if opts == nil {
		return protocol.TextEdit{}, false
	}
	doc, err := loader.Parse(a.parsed.Name, after, *opts)
	if err != nil || !reflect.DeepEqual(doc.Root.Value(), a.parsed.Parsed.Root.Value()) {
		return protocol.TextEdit{}, false
	}
	return edit, true
}

package ruledoc

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
)

// textWidth is the column plain-text prose is wrapped at.
const textWidth = 78

// Text renders the plain-text explanation of rule r of ruleset rs, for
// `celint explain`: the same parts as Page, as terminal text.
func Text(rs *engine.Ruleset, r *engine.Rule) ([]byte, error) {
	m, err := build(rs, r)
	if err != nil {
		return nil, err
	}
	// The model is sanitized already; the guard keeps a CI runner from
	// reading any line (a title, a wrapped word) as a workflow command.
	return []byte(safetext.Guard(string(m.text()))), nil
}

func (m *model) text() []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	section := func(name string) { p("\n%s\n%s\n", name, strings.Repeat("-", len(name))) }

	p("%s (%s, %s)\n", m.ID, m.Level, m.Ruleset)
	p("%s\n", m.Title)
	if m.Description != "" {
		p("\n%s", wrap(m.Description, "", textWidth))
	}

	if m.Requirement != "" {
		section("Requirement")
		p("%s", wrap(m.Requirement, "", textWidth))
	}

	section("Details")
	width := 0
	for _, line := range m.Details {
		for _, f := range line {
			width = max(width, len(f.Label))
		}
	}
	for _, line := range m.Details {
		for _, f := range line {
			p("%-*s %s\n", width+1, f.Label+":", f.Value)
		}
	}

	if len(m.Codes) > 0 {
		section("Codes")
		for _, c := range m.Codes {
			p("%s/%s (%s)", m.ID, c.Name, c.Level)
			if len(c.Aliases) > 0 {
				p("  aliases: %s", strings.Join(c.Aliases, ", "))
			}
			p("\n")
		}
	}

	if len(m.Fixes) > 0 {
		section("Fixes")
		for _, f := range m.Fixes {
			p("- %s", wrap(fixFindings(f, false)+": "+fixDescription(f), "  ", textWidth)[2:])
		}
	}

	if len(m.RequiredBy) > 0 {
		section("Required by")
		for _, rb := range m.RequiredBy {
			p("%s\n", requiredByHeading(rb))
			if rb.Quote != "" {
				p("  \"%s\"\n", rb.Quote)
			}
			for _, req := range rb.Requirements {
				p("  - %s\n", requirementItem(rb.Title, req))
			}
		}
	}

	if len(m.BasedOn) > 0 {
		section("Based on")
		for _, bo := range m.BasedOn {
			p("%s", wrap(basedOnHeading(bo), "", textWidth))
			for _, s := range bo.Sources {
				p("  - %s\n", s)
			}
		}
	}

	if len(m.Examples) > 0 {
		section("Examples")
		for i, ex := range m.Examples {
			if i > 0 {
				p("\n")
			}
			src := "inline document"
			if ex.Source != "" {
				src = ex.Source
			}
			sel := "the whole document"
			if ex.Selected != "" {
				sel = ex.Selected
			}
			p("%s\n", exampleHeading(ex))
			p("Source: %s · Selected: %s\n\n", src, sel)
			p("%s", indent(ex.JSON, "    "))
			if ex.Fixed != "" {
				p("\nWith its fixes made:\n\n%s", indent(ex.Fixed, "    "))
			}
		}
	}

	section("Rule source code")
	where := m.SourceName
	if m.SourceURL != "" {
		where = m.SourceURL
	}
	if m.Added {
		p("%s, a rule file added to %s, not one of its files at tag %s\n\n", where, m.Ruleset, m.Tag)
	} else {
		p("%s at pinned tag %s\n\n", where, m.Tag)
	}
	p("%s", indent(m.SourceYAML, "    "))
	if m.ParamsYAML != "" {
		p("\nthe params of %s that the rule names:\n\n", m.Ruleset)
		p("%s", indent(m.ParamsYAML, "    "))
	}
	return b.Bytes()
}

// wrap fills text to width, each line starting with prefix; paragraphs
// (separated by blank lines) stay apart. The result ends with a newline.
func wrap(text, prefix string, width int) string {
	var b strings.Builder
	paras := strings.Split(strings.TrimSpace(text), "\n\n")
	for i, para := range paras {
		if i > 0 {
			b.WriteByte('\n')
		}
		col := 0
		for _, w := range strings.Fields(para) {
			switch {
			case col == 0:
				b.WriteString(prefix)
				col = len(prefix)
			case col+1+utf8.RuneCountInString(w) > width:
				b.WriteByte('\n')
				b.WriteString(prefix)
				col = len(prefix)
			default:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += utf8.RuneCountInString(w)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// indent prefixes every non-empty line of s; the result ends with a newline.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// FindCode returns the code of rule r named code, or having it as an
// alias; ok is false when r has none.
func FindCode(r *engine.Rule, code string) (c engine.Code, ok bool) {
	for _, c := range r.Codes {
		if c.Name != "" && (c.Name == code || slices.Contains(c.Aliases, code)) {
			return c, true
		}
	}
	return engine.Code{}, false
}

// CodeText renders, for `celint explain ID/CODE`, the part of rule r
// that reports code c (its level, aliases, message and check), followed
// by the whole rule's text.
func CodeText(rs *engine.Ruleset, r *engine.Rule, c engine.Code) ([]byte, error) {
	m, err := build(rs, r)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	section := func(name string) { p("\n%s\n%s\n", name, strings.Repeat("-", len(name))) }
	name, level := safetext.Line(c.Name), safetext.Line(c.LevelLabel())
	p("%s/%s (%s, %s)\n", m.ID, name, level, m.Ruleset)
	if c.OptIn {
		p("reported only where a config file names it: rules: {%s/%s: %s}\n", m.ID, name, c.Severity)
	}
	p("a finding of rule %s: %s\n", m.ID, m.Title)
	if len(c.Aliases) > 0 {
		p("aliases: %s\n", strings.Join(lines(c.Aliases), ", "))
	}
	if c.Message != "" {
		section("Message")
		p("%s\n", safetext.Line(c.Message))
	}
	if c.Pos.Line > 0 {
		if block, err := ruleBlock(r.Text, int(c.Pos.Line)); err == nil {
			section("Check")
			p("%s:%d\n\n%s", safetext.Line(r.File), c.Pos.Line, indent(block, "    "))
		}
	}
	p("\n%s\n", strings.Repeat("=", textWidth))
	b.Write(m.text())
	return []byte(safetext.Guard(b.String())), nil
}

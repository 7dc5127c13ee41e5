package ruledoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/loader"
)

// Page renders the Markdown page of rule r of ruleset rs: YAML front matter
// (title, description, and the page's source URL when published), the
// description, then the Requirement, Details, Required by, Based on,
// Examples and Rule Source Code sections, in the order of the published
// pages; requirement ids, example sources and the rule file link to the
// specification, fixtures and sources at the pinned tag where the ruleset's
// docs block says they are. Text from the rule is
// escaped, so that it reads on the page as it is written in the YAML.
func Page(rs *engine.Ruleset, r *engine.Rule) ([]byte, error) {
	m, err := build(rs, r)
	if err != nil {
		return nil, err
	}
	return m.markdown(true), nil
}

// Help renders the help of rule r of ruleset rs for a code-scanning
// service (a SARIF rule's help): the plain text of Text and the Markdown of
// Page without its front matter.
func Help(rs *engine.Ruleset, r *engine.Rule) (text, markdown string, err error) {
	m, err := build(rs, r)
	if err != nil {
		return "", "", err
	}
	return safetext.Guard(string(m.text())), string(m.markdown(false)), nil
}

// markdown renders the page, after its YAML front matter when front.
func (m *model) markdown(front bool) []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	if front {
		p("---\n")
		p("title: %s\n", yamlString(m.Title))
		p("description: %s\n", yamlString(m.Summary))
		if m.PageURL != "" {
			p("source: %s\n", yamlString(m.PageURL))
		}
		p("ruleId: %s\n", yamlString(m.ID))
		p("tag: %s\n", yamlString(m.Tag))
		p("---\n\n")
	} else {
		p("# %s\n\n", escapeInline(m.Title))
	}

	if m.Description != "" {
		p("%s\n\n", escapeBlock(m.Description))
	}

	if m.Requirement != "" {
		p("## Requirement\n\n%s\n\n", escapeBlock(m.Requirement))
	}

	p("## Details\n\n")
	for _, line := range m.Details {
		parts := make([]string, len(line))
		for i, f := range line {
			v := escapeInline(f.Value)
			if f.Code {
				v = codeSpan(f.Value)
			}
			parts[i] = fmt.Sprintf("**%s:** %s", f.Label, v)
		}
		p("- %s\n", strings.Join(parts, " · "))
	}
	p("\n")

	if len(m.Codes) > 0 {
		p("## Codes\n\n")
		p("Besides its own findings, the rule reports these, each under its code.\n\n")
		p("| Code | Level | Aliases |\n|---|---|---|\n")
		for _, c := range m.Codes {
			p("| `%s/%s` | %s | %s |\n", m.ID, c.Name, c.Level, escapeInline(strings.Join(c.Aliases, ", ")))
		}
		p("\n")
	}

	if len(m.Fixes) > 0 {
		p("## Fixes\n\n")
		p("`celint fix` makes these changes for the rule's findings, by code or by schema keyword.\n\n")
		for _, f := range m.Fixes {
			p("- %s: %s\n", fixFindings(f, true), escapeInline(fixDescription(f)))
		}
		p("\n")
	}

	if len(m.RequiredBy) > 0 {
		p("## Required by\n\n")
		for _, rb := range m.RequiredBy {
			p("- **%s**\n", escapeInline(requiredByHeading(rb)))
			if rb.Quote != "" {
				p("  > %s\n", escapeInline(rb.Quote))
			}
			for _, req := range rb.Requirements {
				if u := m.ReqURL[rb.Section+"\x00"+req]; u != "" {
					item := escapeInline(req)
					if rb.Title != "" {
						item = escapeInline(rb.Title) + ": " + fmt.Sprintf("[%s](%s)", escapeInline(req), linkDest(u))
					} else {
						item = fmt.Sprintf("[%s](%s)", item, linkDest(u))
					}
					p("  - %s\n", item)
					continue
				}
				p("  - %s\n", escapeInline(requirementItem(rb.Title, req)))
			}
		}
		p("\n")
	}

	if len(m.BasedOn) > 0 {
		p("## Based on\n\n")
		for _, bo := range m.BasedOn {
			p("- %s\n", escapeInline(basedOnHeading(bo)))
			for _, s := range bo.Sources {
				p("  - %s\n", escapeInline(s))
			}
		}
		p("\n")
	}

	if len(m.Examples) > 0 {
		p("## Examples\n\n")
		for _, ex := range m.Examples {
			p("### %s\n\n", escapeInline(exampleHeading(ex)))
			src := "inline document"
			if ex.Source != "" {
				src = escapeInline(ex.Source)
				if ex.URL != "" {
					src = fmt.Sprintf("[%s](%s)", src, linkDest(ex.URL))
				}
			}
			sel := "the whole document"
			if ex.Selected != "" {
				sel = codeSpan(ex.Selected)
			}
			p("Source: %s · Selected: %s\n\n", src, sel)
			p("%s\n\n", fenced("json", ex.JSON))
			if ex.Fixed != "" {
				p("With its fixes made:\n\n%s\n\n", fenced("json", ex.Fixed))
			}
		}
	}

	p("## Rule Source Code\n\n")
	file := escapeInline(m.SourceName)
	if m.SourceURL != "" {
		file = fmt.Sprintf("[%s](%s)", file, linkDest(m.SourceURL))
	}
	tag := codeSpan(m.Tag)
	if m.TreeURL != "" {
		tag = fmt.Sprintf("[%s](%s)", escapeInline(m.Tag), linkDest(m.TreeURL))
	}
	if m.Added {
		p("%s, a rule file added to %s, not one of its files at tag %s.\n\n", file, codeSpan(m.Ruleset), tag)
	} else {
		p("%s at immutable tag %s.\n\n", file, tag)
	}
	p("%s\n", fenced("yaml", m.SourceYAML))
	if m.ParamsYAML != "" {
		p("The params of %s that the rule names (its header's `params`):\n\n", codeSpan(m.Ruleset))
		p("%s\n", fenced("yaml", m.ParamsYAML))
	}
	return b.Bytes()
}

// fixFindings names the findings a fix mends: "id/code" (or the rule's
// id), or "schema keyword k", as code spans in Markdown.
func fixFindings(f fixLine, markdown bool) string {
	name := f.Findings
	if markdown {
		name = codeSpan(name)
	}
	if f.Keyword {
		return "schema keyword " + name
	}
	return name
}

// fixDescription is what a fix does, as its rule says it, or a sentence
// saying only that there is one.
func fixDescription(f fixLine) string {
	switch {
	case f.Description != "":
		return f.Description
	case f.Conditional:
		return "a fix the rule does not describe, made where its condition holds."
	}
	return "a fix the rule does not describe."
}

// requiredByHeading is "document, Section N" (or the document alone).
func requiredByHeading(rb loader.RequiredBy) string {
	if rb.Section == "" {
		return rb.Document
	}
	if rb.Document == "" {
		return "Section " + rb.Section
	}
	return rb.Document + ", Section " + rb.Section
}

// requirementItem is "section title: requirement id" (or the id alone).
func requirementItem(title, req string) string {
	if title == "" {
		return req
	}
	return title + ": " + req
}

// basedOnHeading is "Tier N — title: note", leaving out what is empty.
func basedOnHeading(bo loader.BasedOn) string {
	var s string
	if bo.Tier != 0 {
		s = "Tier " + strconv.Itoa(bo.Tier)
	}
	title := strings.TrimSpace(bo.Title)
	if title != "" {
		if s != "" {
			s += " — "
		}
		s += title
	}
	if note := strings.Join(strings.Fields(bo.Note), " "); note != "" {
		if s != "" {
			s += ": "
		}
		s += note
	}
	return s
}

// exampleHeading is "Valid example" or "Invalid example", and its title.
func exampleHeading(ex example) string {
	h := "Invalid example"
	if ex.Valid {
		h = "Valid example"
	}
	if ex.Title != "" {
		h += ": " + ex.Title
	}
	return h
}

// yamlString quotes s as a YAML double-quoted scalar (JSON string syntax,
// which YAML reads the same way).
func yamlString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

var inlineEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `|`, `\|`,
)

// escapeInline escapes the characters that Markdown would read as markup in
// running text.
func escapeInline(s string) string {
	s = inlineEscaper.Replace(s)
	return escapeLineStart(s)
}

// escapeBlock escapes a paragraph or more of text: every line as inline
// text, with what would start a heading, list or quote escaped.
func escapeBlock(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = escapeInline(strings.TrimRight(l, " \t"))
	}
	return strings.Join(lines, "\n")
}

// escapeLineStart escapes a line start that Markdown reads as a block:
// "# ", "- ", "+ ", "1. ", "1) ", "=" or "-" underlines are handled by the
// first character.
func escapeLineStart(l string) string {
	t := strings.TrimLeft(l, " ")
	lead := l[:len(l)-len(t)]
	if t == "" {
		return l
	}
	switch t[0] {
	case '#', '-', '+', '=', '~':
		return lead + `\` + t
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i < len(t) && (t[i] == '.' || t[i] == ')') {
		return lead + t[:i] + `\` + t[i:]
	}
	return l
}

// codeSpan writes s as inline code, with a fence longer than any run of
// backticks in it.
func codeSpan(s string) string {
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// fenced writes body as a fenced code block, with a fence longer than any
// run of backticks in it.
func fenced(lang, body string) string {
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	return fence + lang + "\n" + strings.TrimRight(body, "\n") + "\n" + fence
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// linkDest makes a URL safe as a Markdown link destination.
func linkDest(u string) string {
	if strings.ContainsAny(u, " ()<>") {
		return "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(u) + ">"
	}
	return u
}

// Package ruledoc renders the documentation of a rule from its YAML: a
// Markdown page for `celint docs` and plain text for `celint explain`. Both
// come from one model, built from the rule as written, its ruleset's
// fixtures and the text of its rule file. Nothing here knows any document
// format's domain: every word about one comes from the ruleset's data.
//
// Output is deterministic: no timestamps, no map iteration order.
package ruledoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/loader"
)

// summaryMax is the most runes the front-matter description takes.
const summaryMax = 200

// model is everything a rule's documentation says, in rendering order.
type model struct {
	ID          string
	Title       string
	Summary     string // the description's first sentence, at most summaryMax runes
	Description string
	Requirement string
	Level       string
	Tag         string
	Ruleset     string // name@tag

	Details    [][]fact      // one line each; a line's facts are joined with " · "
	Codes      []engine.Code // the findings a rule reports under codes of their own
	Fixes      []fixLine     // what the rule's fixes do
	RequiredBy []loader.RequiredBy
	BasedOn    []loader.BasedOn
	Examples   []example

	SourceName string // the rule file's base name; its path as the user gave it for an added rule
	Added      bool   // the rule was added to the ruleset from a folder of its own (engine.Rule.Added)
	SourceURL  string // the rule file at the pinned tag; "" when not published
	SourceYAML string // the rule's own block of its rule file
	ParamsYAML string // the values the ruleset gives the params the rule names; "" for none

	PageURL string            // the published page; "" when not published
	TreeURL string            // the sources at the pinned tag; "" when not published
	ReqURL  map[string]string // "section\x00req" → its anchor in the specification
}

// fact is one labelled value of the Details part.
type fact struct {
	Label string
	Value string
	Code  bool // render the value as code
}

// fixLine is one fix of the rule: the findings it mends and what it does.
type fixLine struct {
	Findings    string // "id/code", "id" or "schema keyword"
	Keyword     bool   // Findings is a schema keyword
	Description string // "" when the rule says nothing
	Conditional bool
}

// example is one rendered example.
type example struct {
	Valid    bool
	Title    string
	Source   string // fixture path relative to the fixture folder; "" for an inline document
	URL      string // the fixture at the pinned tag; "" when not published
	Selected string // JSON Pointer; "" for the whole document
	JSON     string // the selected fragment, indented with two spaces
	// Fixed is the same fragment of the document the rule's fixes make of
	// an invalid example, or the whole of it when the fragment is gone; ""
	// when the example states none.
	Fixed string
}

// build assembles the model of rule r of ruleset rs, reading its examples'
// fixtures and its rule file's text.
func build(rs *engine.Ruleset, r *engine.Rule) (*model, error) {
	if rs == nil || r == nil {
		return nil, errors.New("ruledoc: nil ruleset or rule")
	}
	doc := &r.Doc
	m := &model{
		ID:          r.ID,
		Title:       strings.TrimSpace(doc.Title),
		Description: strings.TrimSpace(doc.Description),
		Requirement: strings.TrimSpace(doc.Requirement),
		Level:       doc.Level,
		Tag:         r.Tag,
		Ruleset:     rs.String(),
		RequiredBy:  doc.RequiredBy,
		BasedOn:     doc.BasedOn,
		SourceName:  path.Base(r.File),
		SourceURL:   r.SourceURL,
		Added:       r.Added,
	}
	if r.Added {
		m.SourceName = r.File
	}
	if m.Title == "" {
		m.Title = r.ID
	}
	if m.Tag == "" {
		m.Tag = rs.Tag
	}
	m.PageURL = PageURL(rs, r)
	if r.Published {
		m.TreeURL = rs.Docs.Tree
	}
	m.ReqURL = map[string]string{}
	for _, rb := range m.RequiredBy {
		for _, req := range rb.Requirements {
			if u := requirementURL(rs, r, rb.Section, req); u != "" {
				m.ReqURL[rb.Section+"\x00"+req] = u
			}
		}
	}
	m.Summary = summary(m.Description)
	if m.Summary == "" {
		m.Summary = summary(m.Requirement)
	}
	m.Details = details(r)
	for _, c := range r.Codes {
		if c.Name != "" {
			c.Level = c.LevelLabel() // as pages and explain show it
			m.Codes = append(m.Codes, c)
		}
	}
	for _, f := range r.Fixes {
		l := fixLine{Findings: r.ID, Description: f.Description, Conditional: f.Conditional}
		switch {
		case f.Keyword != "":
			l.Findings, l.Keyword = f.Keyword, true
		case f.Code != "":
			l.Findings += "/" + f.Code
		}
		m.Fixes = append(m.Fixes, l)
	}

	for _, kind := range []struct {
		valid bool
		list  []loader.ExampleSpec
	}{{true, r.Examples.Valid}, {false, r.Examples.Invalid}} {
		for i := range kind.list {
			ex, err := renderExample(rs, r, &kind.list[i])
			if err != nil {
				return nil, err
			}
			ex.Valid = kind.valid
			ex.URL = fixtureURL(rs, r, ex.Source)
			m.Examples = append(m.Examples, ex)
		}
	}

	block, err := ruleBlock(r.Text, int(r.Pos.Line))
	if err != nil {
		return nil, &loader.Error{File: r.File, Pos: r.Pos, Msg: fmt.Sprintf("rule %s: %v", r.ID, err), Err: err}
	}
	m.SourceYAML = block
	m.ParamsYAML = paramsYAML(rs, block)
	m.sanitize()
	return m, nil
}

// sanitize makes every text of m that comes from the rule file, its
// fixtures or its ruleset safe to show: control, bidi and invisible
// characters are shown escaped ("<U+202E>"), in the terminal text and in
// the Markdown pages alike; see [safetext]. Multi-line texts keep their
// line feeds.
func (m *model) sanitize() {
	line, block := safetext.Line, safetext.Block
	for _, p := range []*string{&m.ID, &m.Title, &m.Summary, &m.Level, &m.Tag, &m.Ruleset, &m.SourceName, &m.SourceURL} {
		*p = line(*p)
	}
	for _, p := range []*string{&m.Description, &m.Requirement, &m.SourceYAML, &m.ParamsYAML} {
		*p = block(*p)
	}
	for _, facts := range m.Details {
		for i := range facts {
			facts[i].Value = line(facts[i].Value)
		}
	}
	codes := make([]engine.Code, len(m.Codes))
	for i, c := range m.Codes {
		c.Name = line(c.Name)
		c.Level = line(c.Level)
		c.Aliases = lines(c.Aliases)
		codes[i] = c
	}
	m.Codes = codes
	rbs := make([]loader.RequiredBy, len(m.RequiredBy))
	for i, rb := range m.RequiredBy {
		rbs[i] = loader.RequiredBy{Document: line(rb.Document), Section: line(rb.Section), Title: line(rb.Title),
			Quote: line(rb.Quote), Requirements: lines(rb.Requirements)}
	}
	m.RequiredBy = rbs
	bos := make([]loader.BasedOn, len(m.BasedOn))
	for i, bo := range m.BasedOn {
		bos[i] = loader.BasedOn{Tier: bo.Tier, Title: line(bo.Title), Note: line(bo.Note), Sources: lines(bo.Sources)}
	}
	m.BasedOn = bos
	for i := range m.Examples {
		ex := &m.Examples[i]
		ex.Title, ex.Source, ex.Selected = line(ex.Title), line(ex.Source), line(ex.Selected)
		ex.JSON, ex.Fixed = block(ex.JSON), block(ex.Fixed)
	}
	for i := range m.Fixes {
		f := &m.Fixes[i]
		f.Findings, f.Description = line(f.Findings), line(f.Description)
	}
}

// lines is [safetext.Line] of each of ss, in a new slice.
func lines(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = safetext.Line(s)
	}
	return out
}

// details lists the Details part's lines; empty facts are left out.
func details(r *engine.Rule) [][]fact {
	var lines [][]fact
	add := func(fs ...fact) {
		var line []fact
		for _, f := range fs {
			if f.Value != "" {
				line = append(line, f)
			}
		}
		if len(line) > 0 {
			lines = append(lines, line)
		}
	}
	d := &r.Doc
	add(fact{"Rule ID", r.ID, true})
	add(fact{"Owner", d.Owner, false})
	add(fact{"Surface", d.Surface, false}, fact{"Path", d.Path, true})
	add(fact{"Kind", d.Kind, false})
	add(fact{"Requirement level", d.Level, false})
	add(fact{"Aliases", strings.Join(d.Aliases, ", "), true})
	label := humanize(d.Scope.Key)
	switch sc := d.Scope; {
	case sc.Independent:
		add(fact{label, "independent of the " + strings.ToLower(strings.TrimSuffix(label, "s")), false})
	case len(sc.Values) > 0:
		add(fact{label, strings.Join(sc.Values, ", "), true})
	case sc.From != "" && sc.Until != "":
		add(fact{label, "from " + sc.From + " until " + sc.Until, false})
	case sc.From != "":
		add(fact{label, "from " + sc.From, false})
	case sc.Until != "":
		add(fact{label, "until " + sc.Until, false})
	}
	if len(d.SchemaLocations) > 0 {
		add(fact{"Document schema locations", strings.Join(d.SchemaLocations, ", "), true})
	}
	add(fact{"Status", d.Status, false}, fact{"Enforcement", d.Enforcement, false})
	return lines
}

// humanize turns a member name into a label: "protocolVersions" becomes
// "Protocol versions".
func humanize(key string) string {
	var b strings.Builder
	for i, r := range key {
		switch {
		case i == 0:
			b.WriteRune(unicode.ToUpper(r))
		case unicode.IsUpper(r):
			b.WriteByte(' ')
			b.WriteRune(unicode.ToLower(r))
		case r == '_' || r == '-':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// renderExample reads an example's document and selects its fragment. A
// missing fixture or a pointer that names nothing is an error, located at
// the example in the rule file.
func renderExample(rs *engine.Ruleset, r *engine.Rule, ex *loader.ExampleSpec) (example, error) {
	out := example{Title: strings.TrimSpace(ex.Title), Source: ex.Source.Value, Selected: ex.Selected.Value}
	fail := func(p loader.Pos, format string, args ...any) (example, error) {
		if p.IsZero() {
			p = ex.Pos
		}
		return example{}, &loader.Error{File: r.File, Pos: p, Msg: fmt.Sprintf("rule %s: ", r.ID) + fmt.Sprintf(format, args...)}
	}
	doc, err := rs.LoadExample(r, ex, engine.ExampleOptions{Lenient: true})
	if err != nil {
		var le *loader.Error
		if errors.As(err, &le) && le.File == r.File {
			return example{}, &loader.Error{File: le.File, Pos: le.Pos, Msg: fmt.Sprintf("rule %s: %s", r.ID, le.Msg)}
		}
		return fail(ex.Pos, "example %s: %v", exampleName(ex), err)
	}
	n := doc.Root
	if ex.Selected.Value != "" {
		var ok bool
		if n, ok = doc.Lookup(ex.Selected.Value); !ok {
			return fail(ex.Selected.Pos, "example %s: selected pointer %q names no value", exampleName(ex), ex.Selected.Value)
		}
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, doc.JSON()[n.Offset:doc.JSONEnd(n)], "", "  "); err != nil {
		return fail(ex.Pos, "example %s: %v", exampleName(ex), err)
	}
	out.JSON = buf.String()
	if ex.Fixed != nil {
		fixed, err := loader.Extract(r.File, r.Text, ex.Fixed, rs.LoadOptions)
		if err != nil {
			return fail(ex.Fixed.Pos, "example %s: its fixed document: %v", exampleName(ex), err)
		}
		n, ok := fixed.Lookup(ex.Selected.Value)
		if !ok {
			n = fixed.Root
		}
		buf.Reset()
		if err := json.Indent(&buf, fixed.JSON()[n.Offset:fixed.JSONEnd(n)], "", "  "); err != nil {
			return fail(ex.Fixed.Pos, "example %s: %v", exampleName(ex), err)
		}
		out.Fixed = buf.String()
	}
	return out, nil
}

func exampleName(ex *loader.ExampleSpec) string {
	if ex.Source.Value != "" {
		return fmt.Sprintf("%q", ex.Source.Value)
	}
	return "(inline document)"
}

// summary returns the first sentence of s with white space collapsed, cut at
// a word boundary (and marked with an ellipsis) when longer than summaryMax
// runes.
func summary(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := sentenceEnd(s); i > 0 {
		s = s[:i]
	}
	if utf8.RuneCountInString(s) <= summaryMax {
		return s
	}
	cut, n := 0, 0
	for i, c := range s {
		if n == summaryMax-1 {
			if cut == 0 {
				cut = i
			}
			break
		}
		if c == ' ' {
			cut = i
		}
		n++
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// sentenceEnd returns the index just past the first sentence's final
// punctuation, or 0 when s is one sentence.
func sentenceEnd(s string) int {
	for i := 0; i+1 < len(s); i++ {
		switch s[i] {
		case '.', '!', '?':
			if s[i+1] == ' ' && i+2 < len(s) && isUpper(s[i+2]) {
				return i + 1
			}
		}
	}
	return 0
}

func isUpper(b byte) bool { return 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' }

package loader

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Rule files and ruleset headers are read once: parsed by the located
// loader, then turned into specs by one visitor over the located tree, in
// the manner of cel-go's policy parser. Every problem of a file is collected
// and reported together, each at its file:line:col; inline documents and
// schemas stay located nodes of the rule file.

// RuleFile is one parsed rule file: its rule specs in source order.
type RuleFile struct {
	Name   string // the file name as given
	Source []byte // the file's text
	Rules  []*RuleSpec
}

// RulesetSpec is a parsed ruleset header (ruleset.yaml).
type RulesetSpec struct {
	Name       string
	Tag        string
	Title      string
	SourceBase string // URL prefix of the published rule files
	Accepts    *AcceptsSpec
	Loader     LoaderSpec
	Context    ContextSpec
	Variables  Vars
	Fixtures   string // the fixture folder, relative to the header
	File       string // the header's file name as given
	Pos        Pos
}

// AcceptsSpec says which documents a ruleset is for.
type AcceptsSpec struct {
	Path     Scalar   // selection path of the declared version
	Versions []string // accepted values
}

// LoaderSpec switches on serialization restrictions and sets limits.
type LoaderSpec struct {
	Reject []Scalar // feature names (see ParseFeature), checked when read
	Limits Limits   // zero fields mean the default
}

// ContextSpec configures the engine's generic evaluation context.
type ContextSpec struct {
	// Scope names an inherited member: a node's effective value is its own
	// member of that name, else its nearest ancestor's, else the root's.
	Scope *ScopeSpec
	// References names the member that marks a reference object.
	References *ReferenceSpec
}

// ScopeSpec configures the inherited scope.
type ScopeSpec struct {
	Member string
}

// ReferenceSpec configures reference resolution.
type ReferenceSpec struct {
	Key string
}

// RuleSpec is one rule as written, with the source position of every part
// the engine compiles.
type RuleSpec struct {
	ID           Scalar
	Doc          RuleDoc // what the rule says about itself
	Given        []Scalar
	When         *Expr
	Resolve      bool
	DocVariables Vars
	Variables    Vars
	Schema       *Node // a JSON Schema fragment, located in the rule file
	Checks       []CheckSpec
	Examples     ExamplesSpec
	File         string // the rule file's name as given
	Pos          Pos    // where the rule's list item starts
}

// RuleDoc is a rule's documentation as written: the one value that its
// page, `explain` and SARIF metadata are made from.
type RuleDoc struct {
	Title           string
	Description     string
	Requirement     string
	Owner           string
	Surface         string
	Path            string
	Kind            string
	Level           string // must, should or may
	Scope           Scope  // the rule's limit to scope values; zero when not written
	SchemaLocations []string
	Status          string
	Enforcement     string
	RequiredBy      []RequiredBy
	BasedOn         []BasedOn
}

// Scope is a rule's limit to some values of its ruleset's inherited scope,
// written under the scope's member name (Key): "independent", or a list.
type Scope struct {
	Key         string // the member it was written under; "" when absent
	Independent bool
	Values      []string
}

// RequiredBy names the normative text that requires a rule.
type RequiredBy struct {
	Document     string
	Section      string
	Title        string
	Requirements []string
}

// BasedOn names the sources a rule is based on.
type BasedOn struct {
	Tier    int
	Title   string
	Note    string
	Sources []string
}

// CheckSpec is one check of a rule.
type CheckSpec struct {
	Each              *Expr
	When              *Expr
	Assert            *Expr
	Forbid            *Expr
	At                Scalar
	Message           Scalar
	MessageExpression *Expr
	Pos               Pos
}

// ExamplesSpec holds a rule's examples.
type ExamplesSpec struct {
	Valid   []ExampleSpec
	Invalid []ExampleSpec
}

// ExampleSpec is one example: a fixture file or an inline document, and the
// JSON Pointer of the part the example is about.
type ExampleSpec struct {
	Title    string
	Source   Scalar // a fixture path; "" for an inline document
	Document *Node  // the inline document, located in the rule file
	Selected Scalar
	// Expect, on an invalid example, lists every diagnostic the rule must
	// give on the example, no more and no fewer.
	Expect []ExpectSpec
	Pos    Pos
}

// ExpectSpec is one expected diagnostic of an invalid example: its JSON
// Pointer and, optionally, a regular expression its message must match.
type ExpectSpec struct {
	Pointer Scalar
	Message Scalar
}

// Scalar is a string with its source position.
type Scalar struct {
	Value string
	Pos   Pos
}

// Expr is a CEL expression with the position of its text in the rule file.
type Expr struct {
	Text   string
	Pos    Pos  // position of the first character of the text
	Block  bool // the text is a YAML block scalar (| or >)
	Indent int  // for block scalars: the indentation of each text line (its first character is at column Indent+1)
}

// NamedExpr is one entry of a Vars mapping.
type NamedExpr struct {
	Name    string
	NamePos Pos
	Expr    Expr
}

// Vars is an ordered mapping of variable names to CEL expressions.
type Vars []NamedExpr

// RuleFileOptions configure how rule files are read.
type RuleFileOptions struct {
	// ScopeKey, when set, is the rule member that limits a rule to some
	// values of the inherited scope: "independent" or a list of values. It is
	// named after the ruleset's scope member; without a scope, a rule has no
	// such member.
	ScopeKey string
}

// ReadRuleFile parses a rule file. Syntax errors, unknown fields, wrong
// types and missing or malformed required fields are reported together, as
// Issues, each at its file:line:col.
func ReadRuleFile(name string, data []byte, opts RuleFileOptions) (*RuleFile, error) {
	r, root, err := newReader(name, data)
	if err != nil {
		return nil, err
	}
	rf := &RuleFile{Name: name, Source: data}
	rulesSeen := false
	r.members(root, "a rule file", []string{"rules"}, func(key string, v *Node) {
		rulesSeen = true
		r.list(v, "the list of rules", func(item *Node) {
			if spec := r.rule(item, opts); spec != nil {
				rf.Rules = append(rf.Rules, spec)
			}
		})
	})
	if !rulesSeen {
		r.add(root.Pos, "a rule file needs a top-level 'rules' list")
	}
	if err := r.issues.Err(); err != nil {
		return nil, err
	}
	return rf, nil
}

// ReadRulesetSpec parses a ruleset header file.
func ReadRulesetSpec(name string, data []byte) (*RulesetSpec, error) {
	r, root, err := newReader(name, data)
	if err != nil {
		return nil, err
	}
	rs := &RulesetSpec{File: name, Pos: root.Pos}
	fields := []string{"name", "tag", "title", "sourceBase", "accepts", "loader", "context", "variables", "fixtures"}
	r.members(root, "a ruleset header", fields, func(key string, v *Node) {
		switch key {
		case "name":
			rs.Name = r.str(v)
		case "tag":
			rs.Tag = r.str(v)
		case "title":
			rs.Title = r.str(v)
		case "sourceBase":
			rs.SourceBase = r.str(v)
		case "fixtures":
			rs.Fixtures = r.str(v)
		case "variables":
			rs.Variables = r.vars(v)
		case "accepts":
			rs.Accepts = &AcceptsSpec{}
			r.members(v, "accepts", []string{"path", "versions"}, func(key string, v *Node) {
				if key == "path" {
					rs.Accepts.Path = r.scalar(v)
				} else {
					rs.Accepts.Versions = r.strs(v)
				}
			})
		case "loader":
			r.members(v, "loader", []string{"reject", "limits"}, func(key string, v *Node) {
				if key == "reject" {
					r.list(v, "a list of loader features", func(f *Node) {
						s := r.scalar(f)
						if _, err := ParseFeature(s.Value); err != nil && s.Value != "" {
							r.add(s.Pos, "%v", err)
						}
						rs.Loader.Reject = append(rs.Loader.Reject, s)
					})
					return
				}
				l := &rs.Loader.Limits
				r.members(v, "limits", []string{"bytes", "depth", "values", "scalarBytes"}, func(key string, v *Node) {
					n := r.count(v)
					switch key {
					case "bytes":
						l.Bytes = n
					case "depth":
						l.Depth = int(n)
					case "values":
						l.Values = int(n)
					case "scalarBytes":
						l.ScalarBytes = int(n)
					}
				})
			})
		case "context":
			r.members(v, "context", []string{"scope", "references"}, func(key string, v *Node) {
				if key == "scope" {
					rs.Context.Scope = &ScopeSpec{}
					r.members(v, "context.scope", []string{"member"}, func(_ string, v *Node) { rs.Context.Scope.Member = r.str(v) })
					if rs.Context.Scope.Member == "" {
						r.add(v.Pos, "context.scope needs a 'member'")
					}
					return
				}
				rs.Context.References = &ReferenceSpec{}
				r.members(v, "context.references", []string{"key"}, func(_ string, v *Node) { rs.Context.References.Key = r.str(v) })
				if rs.Context.References.Key == "" {
					r.add(v.Pos, "context.references needs a 'key'")
				}
			})
		}
	})
	if rs.Name == "" {
		r.add(r.keyPos(root, "name"), "a ruleset needs a 'name'")
	}
	if rs.Tag == "" {
		r.add(r.keyPos(root, "tag"), "a ruleset needs a 'tag' (the spec tag it is pinned at)")
	}
	if err := r.issues.Err(); err != nil {
		return nil, err
	}
	return rs, nil
}

// reader collects the issues of one file while it is turned into specs.
type reader struct {
	file   string
	src    []byte
	lines  []string // the source's lines, split on first use
	issues Issues
}

// newReader parses a rule or ruleset file as YAML with the default options,
// so that syntax errors, duplicate keys, aliases, custom tags and the size
// and depth limits are reported just as for documents, and returns its
// top-level mapping.
func newReader(name string, data []byte) (*reader, *Node, error) {
	opts := DefaultOptions()
	opts.Format = "yaml"
	doc, err := Parse(name, data, opts)
	if err != nil {
		return nil, nil, err
	}
	if doc.Root.Kind != Object {
		return nil, nil, &Error{File: name, Pos: doc.Root.Pos, Msg: "expected a mapping at the top level, found " + kindPhrase(doc.Root)}
	}
	return &reader{file: name, src: data}, doc.Root, nil
}

func (r *reader) add(p Pos, format string, args ...any) {
	r.issues = append(r.issues, &Error{File: r.file, Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// members visits the members of mapping n in source order, reporting every
// key that is not one of known (and a non-mapping n) at its position.
func (r *reader) members(n *Node, what string, known []string, visit func(key string, v *Node)) {
	if n.Kind != Object {
		r.add(n.Pos, "%s: expected a mapping, found %s", what, kindPhrase(n))
		return
	}
	for _, c := range n.Children {
		if !contains(known, c.Key) {
			r.add(c.KeyPos, "unknown field %q; expected one of: %s", c.Key, strings.Join(known, ", "))
			continue
		}
		visit(c.Key, c)
	}
}

// list visits the elements of list n.
func (r *reader) list(n *Node, what string, visit func(*Node)) {
	if n.Kind != Array {
		r.add(n.Pos, "expected %s, found %s", what, kindPhrase(n))
		return
	}
	for _, c := range n.Children {
		visit(c)
	}
}

// scalar reads a string. Numbers and booleans are taken as their text, as a
// YAML decoder into a string would; null is the empty string.
func (r *reader) scalar(n *Node) Scalar {
	switch v := n.Value.(type) {
	case string:
		return Scalar{v, n.Pos}
	case nil:
		return Scalar{"", n.Pos}
	case bool, int64, float64:
		return Scalar{r.plainText(n), n.Pos}
	}
	r.add(n.Pos, "expected a string, found %s", kindPhrase(n))
	return Scalar{"", n.Pos}
}

// plainText returns the source text of a plain scalar.
func (r *reader) plainText(n *Node) string {
	line := r.line(n.Pos.Line)
	start := byteCol(line, n.Pos.Col)
	if start < 0 {
		return fmt.Sprint(n.Value)
	}
	text := line[start:]
	if i := strings.Index(text, " #"); i >= 0 {
		text = text[:i]
	}
	if i := strings.IndexAny(text, ",]}"); i >= 0 {
		text = text[:i]
	}
	return strings.TrimSpace(text)
}

func (r *reader) str(n *Node) string { return r.scalar(n).Value }

// strs reads a list of strings.
func (r *reader) strs(n *Node) []string {
	var out []string
	r.list(n, "a list of strings", func(c *Node) { out = append(out, r.str(c)) })
	return out
}

// scalars reads one string or a list of strings.
func (r *reader) scalars(n *Node) []Scalar {
	if n.Kind != Array {
		if n.Kind == Object {
			r.add(n.Pos, "expected a string or a list of strings, found %s", kindPhrase(n))
			return nil
		}
		return []Scalar{r.scalar(n)}
	}
	var out []Scalar
	for _, c := range n.Children {
		out = append(out, r.scalar(c))
	}
	return out
}

// count reads a non-negative integer.
func (r *reader) count(n *Node) int64 {
	i, ok := n.Value.(int64)
	if !ok || i < 0 {
		r.add(n.Pos, "expected a non-negative integer, found %s", kindPhrase(n))
		return 0
	}
	return i
}

func (r *reader) boolean(n *Node) bool {
	b, ok := n.Value.(bool)
	if !ok {
		r.add(n.Pos, "expected true or false, found %s", kindPhrase(n))
	}
	return b
}

// expr reads a CEL expression, placing it where its text starts: after the
// opening quote, or on the first line of a block scalar.
func (r *reader) expr(n *Node) *Expr {
	s, ok := n.Value.(string)
	if !ok {
		r.add(n.Pos, "expected a CEL expression (a string), found %s", kindPhrase(n))
		return nil
	}
	if strings.TrimSpace(s) == "" {
		r.add(n.Pos, "empty CEL expression")
		return nil
	}
	e := &Expr{Text: s, Pos: n.Pos}
	switch n.Style {
	case SingleQuoted, DoubleQuoted:
		e.Pos.Col++
	case Literal, Folded:
		// Keep every character on its source line: CEL reads line breaks
		// as spaces, so a folded scalar means the same.
		first := n.Pos.Line + 1
		line := r.line(first)
		col := len(line) - len(strings.TrimLeft(line, " ")) + 1
		e.Block, e.Indent, e.Pos = true, col-1, Pos{first, col}
		e.Text = blockText(r.linesFrom(first), col)
	}
	return e
}

// vars reads an ordered mapping of variable names to expressions.
func (r *reader) vars(n *Node) Vars {
	if n.Kind != Object {
		r.add(n.Pos, "expected a mapping of variable names to CEL expressions, found %s", kindPhrase(n))
		return nil
	}
	var out Vars
	for _, c := range n.Children {
		if !identRE.MatchString(c.Key) {
			r.add(c.KeyPos, "variable name %q is not an identifier (letters, digits, _)", c.Key)
			continue
		}
		if e := r.expr(c); e != nil {
			out = append(out, NamedExpr{Name: c.Key, NamePos: c.KeyPos, Expr: *e})
		}
	}
	return out
}

var (
	identRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	ruleIDRE = regexp.MustCompile(`^[a-z0-9]+([._-][a-z0-9]+)*$`)
)

// ruleFields are a rule's members, in the order the unknown-field message
// lists them; the scope member follows "level" when the ruleset has one.
var ruleFields = []string{"id", "title", "description", "requirement", "owner", "surface", "path", "kind", "level",
	"schemaLocations", "status", "enforcement", "requiredBy", "basedOn", "given", "when", "resolve",
	"documentVariables", "variables", "schema", "checks", "examples"}

// rule reads one rule and checks its required parts.
func (r *reader) rule(n *Node, opts RuleFileOptions) *RuleSpec {
	s := &RuleSpec{File: r.file, Pos: n.Pos}
	fields := ruleFields
	if opts.ScopeKey != "" {
		fields = append(append(fields[:9:9], opts.ScopeKey), ruleFields[9:]...)
	}
	var level Scalar
	checksSeen := false
	r.members(n, "a rule", fields, func(key string, v *Node) {
		d := &s.Doc
		switch key {
		case "id":
			s.ID = r.scalar(v)
		case "title":
			d.Title = r.str(v)
		case "description":
			d.Description = r.str(v)
		case "requirement":
			d.Requirement = r.str(v)
		case "owner":
			d.Owner = r.str(v)
		case "surface":
			d.Surface = r.str(v)
		case "path":
			d.Path = r.str(v)
		case "kind":
			d.Kind = r.str(v)
		case "level":
			level = r.scalar(v)
		case opts.ScopeKey:
			d.Scope = r.scope(v, key)
		case "schemaLocations":
			d.SchemaLocations = r.strs(v)
		case "status":
			d.Status = r.str(v)
		case "enforcement":
			d.Enforcement = r.str(v)
		case "requiredBy":
			r.list(v, "a list of requirements", func(c *Node) { d.RequiredBy = append(d.RequiredBy, r.requiredBy(c)) })
		case "basedOn":
			r.list(v, "a list of sources", func(c *Node) { d.BasedOn = append(d.BasedOn, r.basedOn(c)) })
		case "given":
			s.Given = r.scalars(v)
		case "when":
			s.When = r.expr(v)
		case "resolve":
			s.Resolve = r.boolean(v)
		case "documentVariables":
			s.DocVariables = r.vars(v)
		case "variables":
			s.Variables = r.vars(v)
		case "schema":
			s.Schema = v
		case "checks":
			checksSeen = true
			r.list(v, "a list of checks", func(c *Node) { s.Checks = append(s.Checks, r.check(c)) })
		case "examples":
			r.examples(v, &s.Examples)
		}
	})
	if n.Kind != Object {
		return nil
	}
	id := s.ID.Value
	switch {
	case id == "":
		r.add(s.Pos, "a rule needs an 'id'")
	case !ruleIDRE.MatchString(id) || !strings.Contains(id, "."):
		r.add(s.ID.Pos, "rule id %q must be dotted lower-case words, like owner.area.name", id)
	}
	switch level.Value {
	case "must", "should", "may":
		s.Doc.Level = level.Value
	case "":
		r.add(s.Pos, "rule %s needs a 'level': must, should or may", id)
	default:
		r.add(level.Pos, "level %q is not one of must, should, may", level.Value)
	}
	if len(s.Given) == 0 {
		r.add(s.Pos, "rule %s needs 'given': one or more selection paths", id)
	}
	if !checksSeen && s.Schema == nil {
		r.add(s.Pos, "rule %s needs 'checks' or a 'schema'", id)
	}
	return s
}

// scope reads a rule's scope values: "independent" or a list.
func (r *reader) scope(n *Node, key string) Scope {
	sc := Scope{Key: key}
	if n.Value == "independent" {
		sc.Independent = true
		return sc
	}
	if n.Kind != Array {
		r.add(n.Pos, `expected "independent" or a list of versions, found %s`, kindPhrase(n))
		return sc
	}
	for _, c := range n.Children {
		if c.Kind == Object || c.Kind == Array {
			r.add(c.Pos, "expected a version string, found %s", kindPhrase(c))
			continue
		}
		sc.Values = append(sc.Values, r.str(c))
	}
	return sc
}

func (r *reader) requiredBy(n *Node) RequiredBy {
	var q RequiredBy
	r.members(n, "requiredBy", []string{"document", "section", "title", "requirements"}, func(key string, v *Node) {
		switch key {
		case "document":
			q.Document = r.str(v)
		case "section":
			q.Section = r.str(v)
		case "title":
			q.Title = r.str(v)
		case "requirements":
			q.Requirements = r.strs(v)
		}
	})
	return q
}

func (r *reader) basedOn(n *Node) BasedOn {
	var b BasedOn
	r.members(n, "basedOn", []string{"tier", "title", "note", "sources"}, func(key string, v *Node) {
		switch key {
		case "tier":
			b.Tier = int(r.count(v))
		case "title":
			b.Title = r.str(v)
		case "note":
			b.Note = r.str(v)
		case "sources":
			b.Sources = r.strs(v)
		}
	})
	return b
}

func (r *reader) check(n *Node) CheckSpec {
	c := CheckSpec{Pos: n.Pos}
	fields := []string{"each", "when", "assert", "forbid", "at", "message", "messageExpression"}
	seen := map[string]bool{}
	r.members(n, "a check", fields, func(key string, v *Node) {
		seen[key] = true
		switch key {
		case "each":
			c.Each = r.expr(v)
		case "when":
			c.When = r.expr(v)
		case "assert":
			c.Assert = r.expr(v)
		case "forbid":
			c.Forbid = r.expr(v)
		case "at":
			c.At = r.scalar(v)
		case "message":
			c.Message = r.scalar(v)
		case "messageExpression":
			c.MessageExpression = r.expr(v)
		}
	})
	if n.Kind != Object {
		return c
	}
	if seen["assert"] == seen["forbid"] {
		r.add(c.Pos, "a check needs exactly one of 'assert' or 'forbid'")
	}
	if seen["message"] && seen["messageExpression"] {
		r.add(c.Message.Pos, "a check takes 'message' or 'messageExpression', not both")
	}
	return c
}

func (r *reader) examples(n *Node, out *ExamplesSpec) {
	r.members(n, "examples", []string{"valid", "invalid"}, func(key string, v *Node) {
		valid := key == "valid"
		r.list(v, "a list of examples", func(c *Node) {
			ex := r.example(c, valid)
			if valid {
				out.Valid = append(out.Valid, ex)
			} else {
				out.Invalid = append(out.Invalid, ex)
			}
		})
	})
}

func (r *reader) example(n *Node, valid bool) ExampleSpec {
	e := ExampleSpec{Pos: n.Pos}
	fields := []string{"title", "source", "document", "selected", "expect"}
	r.members(n, "an example", fields, func(key string, v *Node) {
		switch key {
		case "title":
			e.Title = r.str(v)
		case "source":
			e.Source = r.scalar(v)
		case "document":
			e.Document = v
		case "selected":
			e.Selected = r.scalar(v)
		case "expect":
			r.list(v, "a list of expected diagnostics", func(c *Node) {
				var x ExpectSpec
				r.members(c, "an expected diagnostic", []string{"pointer", "message"}, func(key string, v *Node) {
					if key == "pointer" {
						x.Pointer = r.scalar(v)
					} else {
						x.Message = r.scalar(v)
					}
				})
				if x.Pointer.Value != "" && !strings.HasPrefix(x.Pointer.Value, "/") {
					r.add(x.Pointer.Pos, "expected pointer %q must start with '/'", x.Pointer.Value)
				}
				if _, err := regexp.Compile(x.Message.Value); err != nil {
					r.add(x.Message.Pos, "expected message %q is not a regular expression: %v", x.Message.Value, err)
				}
				e.Expect = append(e.Expect, x)
			})
		}
	})
	if n.Kind != Object {
		return e
	}
	if (e.Source.Value == "") == (e.Document == nil) {
		r.add(e.Pos, "an example needs exactly one of 'source' (a fixture file) or 'document' (inline)")
	}
	if len(e.Expect) > 0 && valid {
		r.add(e.Pos, "a valid example expects no diagnostic: 'expect' belongs to invalid examples")
	}
	if e.Selected.Value != "" && !strings.HasPrefix(e.Selected.Value, "/") {
		r.add(e.Selected.Pos, "selected %q must be a JSON Pointer starting with '/' (or be omitted for the whole document)", e.Selected.Value)
	}
	return e
}

// keyPos returns where member key of n is written, else n's position.
func (r *reader) keyPos(n *Node, key string) Pos {
	if m := n.Member(key); m != nil {
		return m.KeyPos
	}
	return n.Pos
}

// line returns line l (1-based) of the source, without its line break.
func (r *reader) line(l int) string {
	if r.lines == nil {
		r.lines = strings.Split(strings.ReplaceAll(string(r.src), "\r\n", "\n"), "\n")
	}
	if l < 1 || l > len(r.lines) {
		return ""
	}
	return r.lines[l-1]
}

// linesFrom returns the source lines from line l (1-based) on.
func (r *reader) linesFrom(l int) []string {
	r.line(l)
	if l < 1 || l > len(r.lines) {
		return nil
	}
	return r.lines[l-1:]
}

// blockText returns a block scalar's lines as written, without their
// indentation and joined by newlines, so that every character of the text
// keeps its source line; the block ends at the first less-indented line.
func blockText(lines []string, indent int) string {
	var out []string
	for _, l := range lines {
		trimmed := strings.TrimRight(l, " \t\r")
		if trimmed == "" {
			out = append(out, "")
			continue
		}
		if len(trimmed)-len(strings.TrimLeft(trimmed, " ")) < indent-1 {
			break
		}
		out = append(out, trimmed[indent-1:])
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// byteCol returns the byte offset in line of 1-based column col (counted in
// code points), or -1 when the line is shorter.
func byteCol(line string, col int) int {
	c := 1
	for i := range line {
		if c == col {
			return i
		}
		c++
	}
	if c == col {
		return len(line)
	}
	return -1
}

// kindPhrase names a node's kind for messages: "a mapping", "a list", "a
// string", "the number 12", ...
func kindPhrase(n *Node) string {
	switch n.Kind {
	case Object:
		return "a mapping"
	case Array:
		return "a list"
	case String:
		return "a string"
	case Null:
		return "nothing (null)"
	case Bool:
		return "the boolean " + strconv.FormatBool(n.Value.(bool))
	}
	return "a number"
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

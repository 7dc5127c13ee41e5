package loader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// RuleFile is one parsed rule file: a list of rule specs in source order.
type RuleFile struct {
	Name  string     `yaml:"-"` // the file name as given
	Rules []RuleSpec `yaml:"rules"`
}

// RulesetSpec is a parsed ruleset header (ruleset.yaml).
type RulesetSpec struct {
	Name       string       `yaml:"name"`
	Tag        string       `yaml:"tag"`
	Title      string       `yaml:"title"`
	SourceBase string       `yaml:"sourceBase"`
	Accepts    *AcceptsSpec `yaml:"accepts"`
	Loader     LoaderSpec   `yaml:"loader"`
	Context    ContextSpec  `yaml:"context"`
	Variables  Vars         `yaml:"variables"`
	Fixtures   string       `yaml:"fixtures"`
	File       string       `yaml:"-"`
	Pos        Pos          `yaml:"-"`
}

// AcceptsSpec says which documents a ruleset is for.
type AcceptsSpec struct {
	Path     Scalar   `yaml:"path"`     // gjson path of the declared version
	Versions []string `yaml:"versions"` // accepted values
}

// LoaderSpec switches on serialization restrictions and sets limits.
type LoaderSpec struct {
	Reject []Scalar  `yaml:"reject"`
	Limits LimitSpec `yaml:"limits"`
}

// LimitSpec overrides loader limits; zero means the default.
type LimitSpec struct {
	Bytes       int64 `yaml:"bytes"`
	Depth       int   `yaml:"depth"`
	Values      int   `yaml:"values"`
	ScalarBytes int   `yaml:"scalarBytes"`
}

// ContextSpec configures the engine's generic evaluation context.
type ContextSpec struct {
	// Scope names an inherited member: a node's effective value is its own
	// member of that name, else its nearest ancestor's, else the root's.
	Scope *ScopeSpec `yaml:"scope"`
	// References names the member that marks a reference object.
	References *ReferenceSpec `yaml:"references"`
}

// ScopeSpec configures the inherited scope.
type ScopeSpec struct {
	Member string `yaml:"member"`
}

// ReferenceSpec configures reference resolution.
type ReferenceSpec struct {
	Key string `yaml:"key"`
}

// RuleSpec is one rule as written, with the source position of every expression.
type RuleSpec struct {
	ID          Scalar `yaml:"id"`
	Title       string `yaml:"title"`
	Description string `yaml:"description"`
	Requirement string `yaml:"requirement"`
	Owner       string `yaml:"owner"`
	Surface     string `yaml:"surface"`
	Path        string `yaml:"path"`
	Kind        string `yaml:"kind"`
	Level       Scalar `yaml:"level"`
	// Scope lists the scope values the rule is limited to, written under the
	// member named by the ruleset's scope (ScopeKey); see RuleFileOptions.
	Scope           Versions     `yaml:"-"`
	ScopeKey        string       `yaml:"-"`
	SchemaLocations []string     `yaml:"schemaLocations"`
	Status          string       `yaml:"status"`
	Enforcement     string       `yaml:"enforcement"`
	RequiredBy      []RequiredBy `yaml:"requiredBy"`
	BasedOn         []BasedOn    `yaml:"basedOn"`
	Given           Scalars      `yaml:"given"`
	When            *Expr        `yaml:"when"`
	Resolve         bool         `yaml:"resolve"`
	DocVariables    Vars         `yaml:"documentVariables"`
	Variables       Vars         `yaml:"variables"`
	Schema          *Raw         `yaml:"schema"`
	Checks          []CheckSpec  `yaml:"checks"`
	Examples        ExamplesSpec `yaml:"examples"`
	Pos             Pos          `yaml:"-"`
	File            string       `yaml:"-"`
}

// RequiredBy names the normative text that requires a rule.
type RequiredBy struct {
	Document     string   `yaml:"document"`
	Section      string   `yaml:"section"`
	Title        string   `yaml:"title"`
	Requirements []string `yaml:"requirements"`
}

// BasedOn names the sources a rule is based on.
type BasedOn struct {
	Tier    int      `yaml:"tier"`
	Title   string   `yaml:"title"`
	Note    string   `yaml:"note"`
	Sources []string `yaml:"sources"`
}

// CheckSpec is one check of a rule.
type CheckSpec struct {
	Each              *Expr  `yaml:"each"`
	When              *Expr  `yaml:"when"`
	Assert            *Expr  `yaml:"assert"`
	Forbid            *Expr  `yaml:"forbid"`
	At                Scalar `yaml:"at"`
	Message           Scalar `yaml:"message"`
	MessageExpression *Expr  `yaml:"messageExpression"`
	Pos               Pos    `yaml:"-"`
}

// ExamplesSpec holds a rule's examples.
type ExamplesSpec struct {
	Valid   []ExampleSpec `yaml:"valid"`
	Invalid []ExampleSpec `yaml:"invalid"`
}

// ExampleSpec is one example: a fixture file or an inline document, and the
// JSON Pointer of the part the example is about.
type ExampleSpec struct {
	Title    string `yaml:"title"`
	Source   Scalar `yaml:"source"`
	Document *Raw   `yaml:"document"`
	Selected Scalar `yaml:"selected"`
	// Expect, on an invalid example, lists every diagnostic the rule must
	// give on the example, no more and no fewer.
	Expect []ExpectSpec `yaml:"expect"`
	Pos    Pos          `yaml:"-"`
}

// ExpectSpec is one expected diagnostic of an invalid example: its JSON
// Pointer and, optionally, a regular expression its message must match.
type ExpectSpec struct {
	Pointer Scalar `yaml:"pointer"`
	Message Scalar `yaml:"message"`
}

// Scalar is a scalar string with its source position.
type Scalar struct {
	Value string
	Pos   Pos
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (s *Scalar) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &Error{Pos: Pos{n.Line, n.Column}, Msg: "expected a string, found " + nodeKind(n)}
	}
	s.Value, s.Pos = n.Value, Pos{n.Line, n.Column}
	return nil
}

// Scalars is one string or a list of strings.
type Scalars []Scalar

// UnmarshalYAML implements yaml.Unmarshaler.
func (s *Scalars) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var one Scalar
		if err := one.UnmarshalYAML(n); err != nil {
			return err
		}
		*s = Scalars{one}
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return &Error{Pos: Pos{n.Line, n.Column}, Msg: "expected a string or a list of strings, found " + nodeKind(n)}
	}
	for _, c := range n.Content {
		var one Scalar
		if err := one.UnmarshalYAML(c); err != nil {
			return err
		}
		*s = append(*s, one)
	}
	return nil
}

// Versions is either the word "independent" (Independent set) or a list of versions.
type Versions struct {
	Independent bool
	List        []string
	Pos         Pos
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (v *Versions) UnmarshalYAML(n *yaml.Node) error {
	v.Pos = Pos{n.Line, n.Column}
	if n.Kind == yaml.ScalarNode && n.Value == "independent" {
		v.Independent = true
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return &Error{Pos: v.Pos, Msg: `expected "independent" or a list of versions, found ` + nodeKind(n)}
	}
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			return &Error{Pos: Pos{c.Line, c.Column}, Msg: "expected a version string, found " + nodeKind(c)}
		}
		v.List = append(v.List, c.Value)
	}
	return nil
}

// Expr is a CEL expression with the position of its text in the rule file.
type Expr struct {
	Text   string
	Pos    Pos  // position of the first character of the text
	Block  bool // the text is a YAML block scalar (| or >)
	Indent int  // for block scalars: the indentation of each text line (its first character is at column Indent+1)
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (e *Expr) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &Error{Pos: Pos{n.Line, n.Column}, Msg: "expected a CEL expression (a string), found " + nodeKind(n)}
	}
	e.Text = n.Value
	e.Pos = Pos{n.Line, n.Column}
	switch n.Style {
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		e.Pos.Col++
	case yaml.LiteralStyle, yaml.FoldedStyle:
		e.Block = true
		e.Pos.Line++
		e.Indent = blockIndent(n)
		e.Pos.Col = e.Indent
	}
	if strings.TrimSpace(e.Text) == "" {
		return &Error{Pos: Pos{n.Line, n.Column}, Msg: "empty CEL expression"}
	}
	return nil
}

// blockIndent is a first guess at the column of a block scalar's text, which
// yaml.v3 does not report; fixBlockIndents corrects it from the source.
func blockIndent(n *yaml.Node) int { return n.Column + 2 }

var exprType = reflect.TypeOf(Expr{})

// blockText returns a block scalar's lines as written, without their
// indentation and joined by newlines: CEL reads line breaks as spaces, so a
// folded scalar means the same, and every character keeps its source line.
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

// fixBlockIndents sets the Indent of every block-scalar Expr inside v to the
// column where its first text line starts in the source, so that compile
// errors point at the right column.
func fixBlockIndents(v reflect.Value, lines []string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			fixBlockIndents(v.Elem(), lines)
		}
	case reflect.Struct:
		if v.Type() == exprType {
			e := v.Addr().Interface().(*Expr)
			if e.Block && e.Pos.Line-1 < len(lines) && e.Pos.Line >= 1 {
				line := lines[e.Pos.Line-1]
				col := 1
				for _, r := range line {
					if r != ' ' {
						break
					}
					col++
				}
				e.Indent, e.Pos.Col = col-1, col
				e.Text = blockText(lines[e.Pos.Line-1:], col)
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fixBlockIndents(v.Field(i), lines)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			fixBlockIndents(v.Index(i), lines)
		}
	}
}

// NamedExpr is one entry of a Vars mapping.
type NamedExpr struct {
	Name    string
	NamePos Pos
	Expr    Expr
}

// Vars is an ordered mapping of variable names to CEL expressions.
type Vars []NamedExpr

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// UnmarshalYAML implements yaml.Unmarshaler.
func (v *Vars) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return &Error{Pos: Pos{n.Line, n.Column}, Msg: "expected a mapping of variable names to CEL expressions, found " + nodeKind(n)}
	}
	seen := map[string]Pos{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		kp := Pos{k.Line, k.Column}
		if !identRE.MatchString(k.Value) {
			return &Error{Pos: kp, Msg: fmt.Sprintf("variable name %q is not an identifier (letters, digits, _)", k.Value)}
		}
		if p, dup := seen[k.Value]; dup {
			return &Error{Pos: kp, Msg: fmt.Sprintf("variable %q is declared twice (first at %s)", k.Value, p)}
		}
		seen[k.Value] = kp
		var e Expr
		if err := e.UnmarshalYAML(val); err != nil {
			return err
		}
		*v = append(*v, NamedExpr{Name: k.Value, NamePos: kp, Expr: e})
	}
	return nil
}

// Raw keeps a YAML subtree as a JSON-compatible value, with its position.
type Raw struct {
	Value any
	Node  *yaml.Node
	Pos   Pos
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (r *Raw) UnmarshalYAML(n *yaml.Node) error {
	r.Node, r.Pos = n, Pos{n.Line, n.Column}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	if err := enc.Encode(n); err != nil {
		return &Error{Pos: r.Pos, Msg: err.Error()}
	}
	doc, err := Parse("inline.yaml", buf.Bytes(), DefaultOptions())
	if err != nil {
		var le *Error
		if errors.As(err, &le) {
			return &Error{Pos: r.Pos, Msg: le.Msg}
		}
		return &Error{Pos: r.Pos, Msg: err.Error()}
	}
	r.Value = doc.Root.Value
	return nil
}

// Source returns the subtree re-serialised as YAML, so that it can be parsed
// as a located document of its own.
func (r *Raw) Source() []byte {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	_ = enc.Encode(r.Node)
	return buf.Bytes()
}

// Issues is a list of located errors; it is itself an error.
type Issues []*Error

// Error joins the issues, one a line.
func (is Issues) Error() string {
	var b strings.Builder
	for i, e := range is {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// RuleFileOptions configure how rule files are read.
type RuleFileOptions struct {
	// ScopeKey, when set, is the rule member that limits a rule to some
	// values of the inherited scope: "independent" or a list of values. It is
	// named after the ruleset's scope member; without a scope, a rule has no
	// such member.
	ScopeKey string
}

// ReadRuleFile parses a rule file. Unknown fields, wrong types and missing
// required fields are reported together, each at its file:line:col.
func ReadRuleFile(name string, data []byte, opts RuleFileOptions) (*RuleFile, error) {
	root, err := yamlRoot(name, data)
	if err != nil {
		return nil, err
	}
	var issues Issues
	scopes := takeScopes(name, root, opts.ScopeKey, &issues)
	checkFields(name, root, reflect.TypeOf(RuleFile{}), &issues)
	rf := &RuleFile{Name: name}
	decodeInto(name, root, rf, &issues)
	rulesNode := mappingValue(root, "rules")
	if rulesNode == nil {
		issues = append(issues, &Error{File: name, Pos: Pos{root.Line, root.Column}, Msg: "a rule file needs a top-level 'rules' list"})
	}
	if len(issues) == 0 && rulesNode != nil {
		fixBlockIndents(reflect.ValueOf(rf), strings.Split(string(data), "\n"))
		for i := range rf.Rules {
			n := rulesNode.Content[i]
			r := &rf.Rules[i]
			r.Pos, r.File = Pos{n.Line, n.Column}, name
			if sc, ok := scopes[i]; ok {
				r.Scope, r.ScopeKey = sc, opts.ScopeKey
			}
			issues = append(issues, checkRule(name, r, n)...)
		}
	}
	if len(issues) > 0 {
		return nil, issues
	}
	return rf, nil
}

// takeScopes reads the scope member of every rule and removes it from the
// tree, so that the rest decodes as a fixed structure. It returns the
// values by rule index.
func takeScopes(name string, root *yaml.Node, key string, issues *Issues) map[int]Versions {
	rules := mappingValue(root, "rules")
	if key == "" || rules == nil || rules.Kind != yaml.SequenceNode {
		return nil
	}
	out := map[int]Versions{}
	for i, r := range rules.Content {
		if r.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(r.Content); j += 2 {
			if r.Content[j].Value != key {
				continue
			}
			var v Versions
			if err := v.UnmarshalYAML(r.Content[j+1]); err != nil {
				le := err.(*Error)
				le.File = name
				*issues = append(*issues, le)
			}
			out[i] = v
			r.Content = append(r.Content[:j:j], r.Content[j+2:]...)
			break
		}
	}
	return out
}

// ReadRulesetSpec parses a ruleset header file.
func ReadRulesetSpec(name string, data []byte) (*RulesetSpec, error) {
	root, err := yamlRoot(name, data)
	if err != nil {
		return nil, err
	}
	var issues Issues
	checkFields(name, root, reflect.TypeOf(RulesetSpec{}), &issues)
	rs := &RulesetSpec{File: name, Pos: Pos{root.Line, root.Column}}
	decodeInto(name, root, rs, &issues)
	if len(issues) == 0 {
		fixBlockIndents(reflect.ValueOf(rs), strings.Split(string(data), "\n"))
	}
	at := func(key string) Pos {
		if k := mappingKey(root, key); k != nil {
			return Pos{k.Line, k.Column}
		}
		return Pos{root.Line, root.Column}
	}
	if len(issues) == 0 {
		if rs.Name == "" {
			issues = append(issues, &Error{File: name, Pos: at("name"), Msg: "a ruleset needs a 'name'"})
		}
		if rs.Tag == "" {
			issues = append(issues, &Error{File: name, Pos: at("tag"), Msg: "a ruleset needs a 'tag' (the spec tag it is pinned at)"})
		}
		for _, r := range rs.Loader.Reject {
			if _, err := ParseFeature(r.Value); err != nil {
				issues = append(issues, &Error{File: name, Pos: r.Pos, Msg: err.Error()})
			}
		}
	}
	if len(issues) > 0 {
		return nil, issues
	}
	return rs, nil
}

// yamlRoot reads a rule or ruleset file's top-level mapping. The file is
// first read as a document with the default options, so that syntax errors,
// duplicate keys, aliases, custom tags and the size and depth limits are
// reported with their positions just as for documents.
func yamlRoot(name string, data []byte) (*yaml.Node, error) {
	if _, err := Parse(name+"#.yaml", data, DefaultOptions()); err != nil {
		var le *Error
		if errors.As(err, &le) {
			le.File = name
		}
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, &Error{File: name, Msg: "the file is empty"}
		}
		return nil, yamlError(name, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &Error{File: name, Pos: Pos{doc.Line, doc.Column}, Msg: "expected a mapping at the top level"}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		return nil, &Error{File: name, Pos: Pos{extra.Line, extra.Column}, Msg: "expected one YAML document, found another"}
	}
	if err := rejectAliases(name, doc.Content[0]); err != nil {
		return nil, err
	}
	return doc.Content[0], nil
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func yamlError(name string, err error) *Error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		var line int
		fmt.Sscan(m[1], &line)
		return &Error{File: name, Pos: Pos{line, 1}, Msg: m[2]}
	}
	return &Error{File: name, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

func rejectAliases(name string, n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		return &Error{File: name, Pos: Pos{n.Line, n.Column}, Msg: "YAML aliases are not allowed in rule files"}
	}
	for _, c := range n.Content {
		if err := rejectAliases(name, c); err != nil {
			return err
		}
	}
	return nil
}

func decodeInto(name string, n *yaml.Node, v any, issues *Issues) {
	if len(*issues) > 0 {
		return
	}
	if err := n.Decode(v); err != nil {
		var le *Error
		var te *yaml.TypeError
		switch {
		case errors.As(err, &le):
			le.File = name
			*issues = append(*issues, le)
		case errors.As(err, &te):
			for _, m := range te.Errors {
				*issues = append(*issues, yamlError(name, errors.New("yaml: "+m)))
			}
		default:
			*issues = append(*issues, yamlError(name, err))
		}
	}
}

var unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

// checkFields walks a mapping against a struct type's yaml tags and reports
// every unknown key at its position, recursing into nested structs and lists.
func checkFields(name string, n *yaml.Node, t reflect.Type, issues *Issues) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // the decoder reports the type mismatch
		}
		fields := map[string]reflect.Type{}
		var names []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			fields[tag] = f.Type
			names = append(names, tag)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			ft, ok := fields[k.Value]
			if !ok {
				*issues = append(*issues, &Error{File: name, Pos: Pos{k.Line, k.Column},
					Msg: fmt.Sprintf("unknown field %q; expected one of: %s", k.Value, strings.Join(names, ", "))})
				continue
			}
			checkFields(name, n.Content[i+1], ft, issues)
		}
	case reflect.Slice:
		if n.Kind == yaml.SequenceNode {
			for _, c := range n.Content {
				checkFields(name, c, t.Elem(), issues)
			}
		}
	}
}

func mappingKey(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}

func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

var ruleIDRE = regexp.MustCompile(`^[a-z0-9]+([._-][a-z0-9]+)*$`)

// checkRule reports missing or malformed required parts of one rule.
func checkRule(name string, r *RuleSpec, n *yaml.Node) Issues {
	var issues Issues
	add := func(p Pos, format string, args ...any) {
		issues = append(issues, &Error{File: name, Pos: p, Msg: fmt.Sprintf(format, args...)})
	}
	if r.ID.Value == "" {
		add(r.Pos, "a rule needs an 'id'")
	} else if !ruleIDRE.MatchString(r.ID.Value) || !strings.Contains(r.ID.Value, ".") {
		add(r.ID.Pos, "rule id %q must be dotted lower-case words, like owner.area.name", r.ID.Value)
	}
	switch r.Level.Value {
	case "must", "should", "may":
	case "":
		add(r.Pos, "rule %s needs a 'level': must, should or may", r.ID.Value)
	default:
		add(r.Level.Pos, "level %q is not one of must, should, may", r.Level.Value)
	}
	if len(r.Given) == 0 {
		add(r.Pos, "rule %s needs 'given': one or more selection paths", r.ID.Value)
	}
	if len(r.Checks) == 0 && r.Schema == nil {
		add(r.Pos, "rule %s needs 'checks' or a 'schema'", r.ID.Value)
	}
	checksNode := mappingValue(n, "checks")
	for i := range r.Checks {
		c := &r.Checks[i]
		if checksNode != nil && i < len(checksNode.Content) {
			c.Pos = Pos{checksNode.Content[i].Line, checksNode.Content[i].Column}
		}
		if (c.Assert == nil) == (c.Forbid == nil) {
			add(c.Pos, "a check needs exactly one of 'assert' or 'forbid'")
		}
		if c.Message.Value != "" && c.MessageExpression != nil {
			add(c.Message.Pos, "a check takes 'message' or 'messageExpression', not both")
		}
	}
	exNode := mappingValue(n, "examples")
	for _, kind := range []string{"valid", "invalid"} {
		list := r.Examples.Valid
		if kind == "invalid" {
			list = r.Examples.Invalid
		}
		seq := mappingValue(exNode, kind)
		for i := range list {
			e := &list[i]
			if seq != nil && i < len(seq.Content) {
				e.Pos = Pos{seq.Content[i].Line, seq.Content[i].Column}
			}
			if (e.Source.Value == "") == (e.Document == nil) {
				add(e.Pos, "an example needs exactly one of 'source' (a fixture file) or 'document' (inline)")
			}
			if len(e.Expect) > 0 && kind == "valid" {
				add(e.Pos, "a valid example expects no diagnostic: 'expect' belongs to invalid examples")
			}
			for _, x := range e.Expect {
				if x.Pointer.Value != "" && !strings.HasPrefix(x.Pointer.Value, "/") {
					add(x.Pointer.Pos, "expected pointer %q must start with '/'", x.Pointer.Value)
				}
				if _, err := regexp.Compile(x.Message.Value); err != nil {
					add(x.Message.Pos, "expected message %q is not a regular expression: %v", x.Message.Value, err)
				}
			}
			if e.Selected.Value != "" && !strings.HasPrefix(e.Selected.Value, "/") {
				add(e.Selected.Pos, "selected %q must be a JSON Pointer starting with '/' (or be omitted for the whole document)", e.Selected.Value)
			}
		}
	}
	return issues
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return "a scalar"
}

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
	// Extends names the ruleset this one builds on, as name@tag; "" when
	// none. Its header, selections and rules are inherited.
	Extends Scalar
	// Library is the version of celint's CEL library the rules were written
	// for; 0 when not written (the newest).
	Library    int
	LibraryPos Pos
	Accepts    *AcceptsSpec
	Loader     LoaderSpec
	Context    ContextSpec
	Selections []SelectionSpec
	Variables  Vars
	// Include lists rule folders, relative to the header's folder, whose
	// rule files are part of the ruleset, compiled in its context.
	Include []Scalar
	// Params are named constants: CEL reads them as params.<name>, and a
	// {$param: name} mapping in a schema fragment stands for the value.
	Params []ParamSpec
	// Disable lists inherited or included rules switched off; Levels
	// changes the level of inherited or included rules (or of their codes,
	// as id/code).
	Disable  []Scalar
	Levels   []LevelSpec
	Fixtures string // the fixture folder, relative to the header
	// Docs says where the ruleset's pages, specification and fixtures are
	// published, for the links of rule pages and diagnostics.
	Docs DocsSpec
	// Migrations name the rule folders that upgrade documents of earlier
	// versions to this ruleset's.
	Migrations []MigrationSpec
	File       string // the header's file name as given
	Pos        Pos
}

// DocsSpec is a ruleset header's docs block: URL bases, so that Go code
// invents none.
type DocsSpec struct {
	// Pages is the URL under which the rule pages are published: a rule's
	// page is Pages + <tag without v>/<owner>/<slug>/.
	Pages string
	// Specification is the URL of the specification at this tag; a
	// section's page is Specification + Sections[<chapter>], and a
	// requirement id its anchor there.
	Specification string
	// Sections maps a chapter number ("4") to the name of its page
	// ("overview").
	Sections map[string]string
	// Fixtures is the URL of the fixture folder at this tag: an example's
	// source is Fixtures + <source>.
	Fixtures string
	// Tree is the URL of the sources at this tag, for "at immutable tag".
	Tree string
}

// SelectionSpec is a named selection: one or more selection paths that
// rules use in 'given' as $name.
type SelectionSpec struct {
	Name  string
	Pos   Pos
	Paths []Scalar
}

// ParamSpec is one named constant of a ruleset header.
type ParamSpec struct {
	Name  string
	Pos   Pos
	Value *Node
}

// LevelSpec changes the level of an inherited rule or code.
type LevelSpec struct {
	ID    Scalar // a rule id, or id/code
	Level Scalar
}

// MigrationSpec is one migration of a ruleset header: the versions (as
// the documents declare them) it upgrades from, and the folder, relative
// to the header, of the ruleset whose fixes make the upgrade.
type MigrationSpec struct {
	From  []string
	Rules Scalar
	Pos   Pos
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
	// Scalars names the schema of plain YAML scalars (core or json; see
	// ParseScalarSchema), checked when read; "" keeps the default.
	Scalars Scalar
}

// ContextSpec configures the engine's generic evaluation context.
type ContextSpec struct {
	// Scope names an inherited member: a node's effective value is its own
	// member of that name, else its nearest ancestor's, else the root's.
	Scope *ScopeSpec
	// References names the member that marks a reference object.
	References *ReferenceSpec
	// Identity names the member that identifies the items of some arrays
	// across edits (a baseline keys findings by it).
	Identity []IdentitySpec
}

// IdentitySpec names the member whose value identifies an array item: the
// items the At selection paths select are named by Member, not by their
// index, where their value of it is a string no sibling shares.
type IdentitySpec struct {
	At     []Scalar
	Member Scalar
	Pos    Pos
}

// ScopeSpec configures the inherited scope.
type ScopeSpec struct {
	Member string
	// Values is the closed, ordered list of scope values, oldest first;
	// nil when the ruleset declares none (then values have no order).
	Values []Scalar
	// At lists the selection paths of the objects whose member counts as a
	// scope; nil means every object's.
	At  []Scalar
	Pos Pos
}

// ReferenceSpec configures reference resolution.
type ReferenceSpec struct {
	Key string
	// At lists the selection paths of the places a reference object is
	// recognised; nil means anywhere.
	At []Scalar
	// Rule is the id of the rule that reports unresolvable references;
	// other rules then skip what does not resolve.
	Rule Scalar
	// Targets limit what the references at some places may name; a
	// reference whose target is not one its place takes does not resolve.
	Targets []ReferenceTargetSpec
	Pos     Pos
}

// ReferenceTargetSpec says what the references at some places may name:
// a reference object that the At selection paths select resolves only to
// a node that the To selection paths select.
type ReferenceTargetSpec struct {
	At  []Scalar
	To  []Scalar
	Pos Pos
}

// RuleSpec is one rule as written, with the source position of every part
// the engine compiles.
type RuleSpec struct {
	ID           Scalar
	Doc          RuleDoc // what the rule says about itself
	Given        []Scalar
	Assume       *Assume // the shape of node the rule needs; nil when none
	When         *Expr
	Resolve      bool
	DocVariables Vars
	Variables    Vars
	Schema       *Node // a JSON Schema fragment, located in the rule file
	// SchemaMessages are the messages of the schema fragment's findings,
	// per schema keyword.
	SchemaMessages []SchemaMessage
	// SchemaFixes are fixes per schema keyword, for the findings of the
	// schema fragment.
	SchemaFixes []NamedFix
	Checks      []CheckSpec
	Examples    ExamplesSpec
	File        string // the rule file's name as given
	Pos         Pos    // where the rule's list item starts
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
	Level           string   // must, should or may
	Scope           Scope    // the rule's limit to scope values; zero when not written
	Aliases         []string // other tools' codes for the rule's findings
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
	Values      []string // a list of values; or
	From, Until string   // a range of the ordered values, both ends included; either may be ""
	Pos         Pos
}

// IsZero reports whether the scope was not written.
func (s Scope) IsZero() bool { return s.Key == "" }

// Assume is the shape of node a rule or check needs: a small JSON Schema
// (Shape), or a CEL condition (Expr).
type Assume struct {
	Shape *Node
	Expr  *Expr
	Pos   Pos
}

// SchemaMessage is the message of the findings of one schema keyword
// (Name): a template (Text), a CEL expression (Expr), or both, when the
// expression reads the template's message.
type SchemaMessage struct {
	Name string
	Text Scalar // the template; its Value is "" when none is written
	Expr *Expr  // nil when none is written
}

// RequiredBy names the normative text that requires a rule.
type RequiredBy struct {
	Document     string
	Section      string
	Title        string
	Quote        string // a short quote of the normative sentence
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
	// Code names the check's finding within its rule; with Level and
	// Aliases it makes one rule able to report several distinct findings.
	Code  Scalar
	Level Scalar // "" for the rule's level
	// OptIn: the code is reported only where a config file or a ruleset's
	// levels name it (id/code); a check with OptIn has a code.
	OptIn             bool
	Aliases           []string
	Scope             Scope   // the check's limit to scope values; zero when not written
	Assume            *Assume // the shape of node the check needs
	Each              *Expr
	When              *Expr
	Assert            *Expr
	Forbid            *Expr
	At                Scalar
	Pointer           *Expr // a computed relative pointer, used as it is
	Message           Scalar
	MessageExpression *Expr
	// Fix, when not nil, is the edit that mends the check's finding.
	Fix *FixSpec
	Pos Pos
}

// FixSpec is a check's fix: edits of the document, each at a pointer
// relative to the selected node, with values computed by CEL, made when
// When (if any) holds.
type FixSpec struct {
	// Description says, for people, what the fix does: rule pages and
	// celint explain list it.
	Description string
	When        *Expr
	Edits       []FixEditSpec
	Pos         Pos
}

// FixEditSpec is one edit of a fix: a JSON Patch operation (replace,
// remove, add, move) at a template pointer relative to the node, with the
// value of a CEL expression for replace and add, and the template pointer
// of the value moved for move.
type FixEditSpec struct {
	Op    Scalar
	At    Scalar
	From  Scalar
	Value *Expr
	Pos   Pos
}

// NamedFix is a fix of the findings of one schema keyword. A keyword may
// have several, in order: the first whose when holds is made.
type NamedFix struct {
	Name string
	Fix  *FixSpec
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
	// Params, when not empty, limits the example to the rulesets whose
	// header params have these values.
	Params []ParamSpec
	// Fixed, on an invalid example, is the document the rule's fixes make
	// of it, located in the rule file.
	Fixed *Node
	Pos   Pos
}

// ExpectSpec is one expected diagnostic of an invalid example: its JSON
// Pointer and, optionally, a regular expression its message must match.
type ExpectSpec struct {
	Pointer Scalar
	Message Scalar
}

// Scalar is a string with its source position: where its text starts
// (after the opening quote of a quoted scalar).
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
	// Trees, when not nil, holds rule files parsed in an earlier run (see
	// Trees): a file found there is not parsed again.
	Trees *Trees
}

// ReadRuleFile parses a rule file. Syntax errors, unknown fields, wrong
// types and missing or malformed required fields are reported together, as
// Issues, each at its file:line:col. With issues, the rule file is
// returned too when the file parsed, with the rules as far as they read,
// so that the caller can report the problems of their expressions and
// templates beside these; such rules are not to be used.
func ReadRuleFile(name string, data []byte, opts RuleFileOptions) (*RuleFile, error) {
	r, root, err := newReader(name, data, opts.Trees)
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
		return rf, err
	}
	return rf, nil
}

// ReadRulesetSpec parses a ruleset header file.
func ReadRulesetSpec(name string, data []byte) (*RulesetSpec, error) {
	r, root, err := newReader(name, data, nil)
	if err != nil {
		return nil, err
	}
	rs := &RulesetSpec{File: name, Pos: root.Pos}
	fields := []string{"name", "tag", "title", "sourceBase", "extends", "library", "accepts", "loader", "context",
		"selections", "variables", "include", "params", "disable", "levels", "fixtures", "docs", "migrations"}
	r.members(root, "a ruleset header", fields, func(key string, v *Node) {
		switch key {
		case "name":
			rs.Name = r.str(v)
			if rs.Name != "" && !validRulesetName(rs.Name) {
				r.add(v.Pos, "ruleset name %q: expected lower-case words (letters and digits, joined by - or _, starting with a letter), at most 64 characters", rs.Name)
			}
		case "tag":
			rs.Tag = r.str(v)
			if rs.Tag != "" && !validRulesetTag(rs.Tag) {
				r.add(v.Pos, "ruleset tag %q: expected a version like v1, v0.9.0 or v1.2.3-rc.1 (semantic-version style), at most 64 characters", rs.Tag)
			}
		case "title":
			rs.Title = r.str(v)
		case "sourceBase":
			rs.SourceBase = r.str(v)
		case "fixtures":
			rs.Fixtures = r.str(v)
		case "docs":
			r.members(v, "docs", []string{"pages", "specification", "sections", "fixtures", "tree"}, func(key string, v *Node) {
				switch key {
				case "pages":
					rs.Docs.Pages = r.url(v)
				case "specification":
					rs.Docs.Specification = r.url(v)
				case "fixtures":
					rs.Docs.Fixtures = r.url(v)
				case "tree":
					rs.Docs.Tree = r.url(v)
				case "sections":
					if v.Kind != Object {
						r.add(v.Pos, "docs.sections: expected a mapping of chapter numbers to page names, found %s", KindPhrase(v))
						return
					}
					rs.Docs.Sections = map[string]string{}
					for _, c := range v.Children() {
						rs.Docs.Sections[c.Key()] = r.str(c)
					}
				}
			})
		case "variables":
			rs.Variables = r.vars(v)
		case "extends":
			rs.Extends = r.scalar(v)
			name, tag, ok := strings.Cut(rs.Extends.Value, "@")
			if !ok || !validRulesetName(name) || !validRulesetTag(tag) {
				r.add(v.Pos, "extends %q: expected name@tag, the ruleset it builds on and its pinned tag (such as house@v1.2.0)", rs.Extends.Value)
			}
		case "library":
			rs.Library, rs.LibraryPos = int(r.count(v)), v.Pos
			if rs.Library == 0 {
				r.add(v.Pos, "library versions start at 1")
			}
		case "selections":
			if v.Kind != Object {
				r.add(v.Pos, "selections: expected a mapping of names to selection paths, found %s", KindPhrase(v))
				return
			}
			for _, c := range v.Children() {
				if !identRE.MatchString(c.Key()) {
					r.add(c.KeyPos, "selection name %q is not an identifier (letters, digits, _)", c.Key())
					continue
				}
				rs.Selections = append(rs.Selections, SelectionSpec{Name: c.Key(), Pos: c.KeyPos, Paths: r.scalars(c)})
			}
		case "migrations":
			r.list(v, "a list of migrations", func(c *Node) {
				m := MigrationSpec{Pos: c.Pos}
				r.members(c, "a migration", []string{"from", "rules"}, func(key string, v *Node) {
					if key == "from" {
						m.From = r.strs(v)
						return
					}
					m.Rules = r.scalar(v)
				})
				if c.Kind == Object && (len(m.From) == 0 || m.Rules.Value == "") {
					r.add(c.Pos, "a migration needs 'from' (the versions it upgrades) and 'rules' (its folder, relative to this header)")
				}
				rs.Migrations = append(rs.Migrations, m)
			})
		case "include":
			r.list(v, "a list of rule folders", func(c *Node) {
				f := r.scalar(c)
				if f.Value == "" {
					r.add(c.Pos, "include: expected a folder, relative to this header (such as ../shared)")
					return
				}
				rs.Include = append(rs.Include, f)
			})
		case "params":
			if v.Kind != Object {
				r.add(v.Pos, "params: expected a mapping of names to values, found %s", KindPhrase(v))
				return
			}
			for _, c := range v.Children() {
				if !identRE.MatchString(c.Key()) {
					r.add(c.KeyPos, "param name %q is not an identifier (letters, digits, _)", c.Key())
					continue
				}
				rs.Params = append(rs.Params, ParamSpec{Name: c.Key(), Pos: c.KeyPos, Value: c})
			}
		case "disable":
			r.list(v, "a list of rule ids", func(c *Node) { rs.Disable = append(rs.Disable, r.scalar(c)) })
		case "levels":
			if v.Kind != Object {
				r.add(v.Pos, "levels: expected a mapping of rule ids to levels, found %s", KindPhrase(v))
				return
			}
			for _, c := range v.Children() {
				l := r.scalar(c)
				if !isLevel(l.Value) {
					r.add(l.Pos, "level %q is not one of must, should, may", l.Value)
				}
				rs.Levels = append(rs.Levels, LevelSpec{ID: Scalar{c.Key(), c.KeyPos}, Level: l})
			}
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
			r.members(v, "loader", []string{"reject", "limits", "scalars"}, func(key string, v *Node) {
				if key == "scalars" {
					rs.Loader.Scalars = r.scalar(v)
					if _, err := ParseScalarSchema(rs.Loader.Scalars.Value); err != nil {
						r.add(rs.Loader.Scalars.Pos, "loader.scalars: %v", err)
					}
					return
				}
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
						if n > MaxBytes {
							r.add(v.Pos, "limits.bytes: %d is above %d, the largest document celint reads", n, MaxBytes)
							n = MaxBytes
						}
						l.Bytes = n
					case "depth":
						if n > MaxDepth {
							r.add(v.Pos, "limits.depth: %d is above %d, the deepest nesting celint can walk safely", n, MaxDepth)
							n = MaxDepth
						}
						l.Depth = int(n)
					case "values":
						l.Values = int(n)
					case "scalarBytes":
						l.ScalarBytes = int(n)
					}
				})
			})
		case "context":
			r.members(v, "context", []string{"scope", "references", "identity"}, func(key string, v *Node) {
				if key == "identity" {
					r.list(v, "a list of {at, member}: the array items a member identifies", func(c *Node) {
						id := IdentitySpec{Pos: c.Pos}
						r.members(c, "context.identity item", []string{"at", "member"}, func(key string, v *Node) {
							switch key {
							case "at":
								id.At = r.scalars(v)
							case "member":
								id.Member = r.scalar(v)
							}
						})
						if len(id.At) == 0 {
							r.add(c.Pos, "a context.identity item needs 'at', the selection paths of the items it identifies")
						}
						if id.Member.Value == "" {
							r.add(c.Pos, "a context.identity item needs 'member', the name of the member that identifies an item")
						}
						rs.Context.Identity = append(rs.Context.Identity, id)
					})
					return
				}
				if key == "scope" {
					sc := &ScopeSpec{Pos: v.Pos}
					rs.Context.Scope = sc
					r.members(v, "context.scope", []string{"member", "values", "at"}, func(key string, v *Node) {
						switch key {
						case "member":
							sc.Member = r.str(v)
						case "values":
							r.list(v, "the ordered list of scope values", func(c *Node) { sc.Values = append(sc.Values, r.scalar(c)) })
						case "at":
							sc.At = r.scalars(v)
						}
					})
					if sc.Member == "" {
						r.add(v.Pos, "context.scope needs a 'member'")
					}
					seen := map[string]bool{}
					for _, val := range sc.Values {
						if seen[val.Value] {
							r.add(val.Pos, "scope value %q is listed twice", val.Value)
						}
						seen[val.Value] = true
					}
					return
				}
				ref := &ReferenceSpec{Pos: v.Pos}
				rs.Context.References = ref
				r.members(v, "context.references", []string{"key", "at", "rule", "targets"}, func(key string, v *Node) {
					switch key {
					case "key":
						ref.Key = r.str(v)
					case "at":
						ref.At = r.scalars(v)
					case "rule":
						ref.Rule = r.scalar(v)
					case "targets":
						r.list(v, "a list of {at, to}: what the references at some places may name", func(c *Node) {
							t := ReferenceTargetSpec{Pos: c.Pos}
							r.members(c, "context.references.targets item", []string{"at", "to"}, func(key string, v *Node) {
								switch key {
								case "at":
									t.At = r.scalars(v)
								case "to":
									t.To = r.scalars(v)
								}
							})
							if len(t.At) == 0 || len(t.To) == 0 {
								r.add(c.Pos, "a context.references.targets item needs 'at', the selection paths of the references it limits, and 'to', those of the nodes they may name")
							}
							ref.Targets = append(ref.Targets, t)
						})
					}
				})
				if ref.Key == "" {
					r.add(v.Pos, "context.references needs a 'key'")
				}
			})
		}
	})
	if rs.Name == "" {
		r.add(r.keyPos(root, "name"), "a ruleset needs a 'name'")
	}
	if (len(rs.Disable) > 0 || len(rs.Levels) > 0) && rs.Extends.Value == "" && len(rs.Include) == 0 {
		r.add(r.keyPos(root, "disable"), "'disable' and 'levels' change inherited or included rules: they need 'extends' or 'include'")
	}
	if rs.Tag == "" {
		r.add(r.keyPos(root, "tag"), "a ruleset needs a 'tag' (the spec tag it is pinned at)")
	}
	if err := r.issues.Err(); err != nil {
		return nil, err
	}
	return rs, nil
}

// A ruleset's name is lower-case words; its tag is a version in the style
// of semantic versioning, "v" optional, with one to three numbers and an
// optional pre-release and build. Both name folders of `celint docs` and
// are printed in every table, so nothing else is allowed in them.
var (
	rulesetNameRE = regexp.MustCompile(`^[a-z][a-z0-9]*([-_][a-z0-9]+)*$`)
	rulesetTagRE  = regexp.MustCompile(`^v?[0-9]+(\.[0-9]+){0,2}(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)
)

// maxRulesetName is the longest ruleset name, and the longest tag.
const maxRulesetName = 64

func validRulesetName(s string) bool {
	return len(s) <= maxRulesetName && rulesetNameRE.MatchString(s)
}

func validRulesetTag(s string) bool {
	return len(s) <= maxRulesetName && rulesetTagRE.MatchString(s)
}

// reader collects the issues of one file while it is turned into specs.
type reader struct {
	doc    *Document
	file   string
	src    []byte
	lines  []string // the source's lines, split on first use
	issues Issues
}

// newReader parses a rule or ruleset file as YAML with the default options,
// so that syntax errors, duplicate keys, aliases, custom tags and the size
// and depth limits are reported just as for documents, and returns its
// top-level mapping.
func newReader(name string, data []byte, trees *Trees) (*reader, *Node, error) {
	opts := DefaultOptions()
	opts.Format = "yaml"
	doc, err := trees.Parse(name, data, opts)
	if err != nil {
		return nil, nil, err
	}
	if doc.Root.Kind != Object {
		return nil, nil, &Error{File: name, Pos: doc.Root.Pos, Msg: "expected a mapping at the top level, found " + KindPhrase(doc.Root)}
	}
	return &reader{file: name, src: data, doc: doc}, doc.Root, nil
}

func (r *reader) add(p Pos, format string, args ...any) {
	r.issues = append(r.issues, &Error{File: r.file, Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// members visits the members of mapping n in source order, reporting every
// key that is not one of known (and a non-mapping n) at its position.
func (r *reader) members(n *Node, what string, known []string, visit func(key string, v *Node)) {
	if n.Kind != Object {
		r.add(n.Pos, "%s: expected a mapping, found %s", what, KindPhrase(n))
		return
	}
	for _, c := range n.Children() {
		if !contains(known, c.Key()) {
			r.add(c.KeyPos, "unknown field %q; expected one of: %s", c.Key(), strings.Join(known, ", "))
			continue
		}
		visit(c.Key(), c)
	}
}

// list visits the elements of list n.
func (r *reader) list(n *Node, what string, visit func(*Node)) {
	if n.Kind != Array {
		r.add(n.Pos, "expected %s, found %s", what, KindPhrase(n))
		return
	}
	for _, c := range n.Children() {
		visit(c)
	}
}

// scalar reads a string. Numbers and booleans are taken as their text, as a
// YAML decoder into a string would; null is the empty string.
func (r *reader) scalar(n *Node) Scalar {
	switch v := n.Value().(type) {
	case string:
		p := n.Pos
		if n.Style == SingleQuoted || n.Style == DoubleQuoted {
			p.Col++ // where the text starts, as for expressions
		}
		return Scalar{v, p}
	case nil:
		return Scalar{"", n.Pos}
	case bool, int64, float64:
		return Scalar{r.plainText(n), n.Pos}
	}
	r.add(n.Pos, "expected a string, found %s", KindPhrase(n))
	return Scalar{"", n.Pos}
}

// plainText returns the source text of a plain scalar, as the document's
// spans give it.
func (r *reader) plainText(n *Node) string {
	start, end := r.doc.Offset(n.Pos), r.doc.Offset(r.doc.End(n))
	if start < 0 || end < start {
		return fmt.Sprint(n.Value())
	}
	return string(r.doc.Source[start:end])
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
			r.add(n.Pos, "expected a string or a list of strings, found %s", KindPhrase(n))
			return nil
		}
		return []Scalar{r.scalar(n)}
	}
	var out []Scalar
	for _, c := range n.Children() {
		out = append(out, r.scalar(c))
	}
	return out
}

// count reads a non-negative integer.
func (r *reader) count(n *Node) int64 {
	i, ok := n.Value().(int64)
	if !ok || i < 0 {
		r.add(n.Pos, "expected a non-negative integer, found %s", KindPhrase(n))
		return 0
	}
	return i
}

// url reads an absolute http(s) URL.
func (r *reader) url(n *Node) string {
	s := r.str(n)
	if s != "" && !strings.HasPrefix(s, "https://") && !strings.HasPrefix(s, "http://") {
		r.add(n.Pos, "expected an absolute http or https URL, found %q", s)
		return ""
	}
	return s
}

func (r *reader) boolean(n *Node) bool {
	b, ok := n.Value().(bool)
	if !ok {
		r.add(n.Pos, "expected true or false, found %s", KindPhrase(n))
	}
	return b
}

// expr reads a CEL expression, placing it where its text starts: after the
// opening quote, or on the first line of a block scalar.
func (r *reader) expr(n *Node) *Expr {
	s, ok := n.Value().(string)
	if !ok {
		r.add(n.Pos, "expected a CEL expression (a string), found %s", KindPhrase(n))
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
		line := r.line(int(first))
		col := len(line) - len(strings.TrimLeft(line, " ")) + 1
		e.Block, e.Indent, e.Pos = true, col-1, Pos{first, int32(col)}
		e.Text = blockText(r.linesFrom(int(first)), col)
	}
	return e
}

// vars reads an ordered mapping of variable names to expressions.
func (r *reader) vars(n *Node) Vars {
	if n.Kind != Object {
		r.add(n.Pos, "expected a mapping of variable names to CEL expressions, found %s", KindPhrase(n))
		return nil
	}
	var out Vars
	for _, c := range n.Children() {
		if !identRE.MatchString(c.Key()) {
			r.add(c.KeyPos, "variable name %q is not an identifier (letters, digits, _)", c.Key())
			continue
		}
		if e := r.expr(c); e != nil {
			out = append(out, NamedExpr{Name: c.Key(), NamePos: c.KeyPos, Expr: *e})
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
	"aliases", "schemaLocations", "status", "enforcement", "requiredBy", "basedOn", "given", "assume", "when", "resolve",
	"documentVariables", "variables", "schema", "schemaMessages", "schemaFixes", "checks", "examples"}

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
		case "aliases":
			d.Aliases = r.strs(v)
		case "assume":
			s.Assume = r.assume(v)
		case "schemaMessages":
			if v.Kind != Object {
				r.add(v.Pos, "schemaMessages: expected a mapping of schema keywords to messages, found %s", KindPhrase(v))
				return
			}
			for _, c := range v.Children() {
				s.SchemaMessages = append(s.SchemaMessages, r.schemaMessage(c))
			}
		case "schemaFixes":
			if v.Kind != Object {
				r.add(v.Pos, "schemaFixes: expected a mapping of schema keywords to fixes, found %s", KindPhrase(v))
				return
			}
			for _, c := range v.Children() {
				if c.Kind == Array {
					// several fixes, the first whose when holds is made
					for _, f := range c.Children() {
						s.SchemaFixes = append(s.SchemaFixes, NamedFix{Name: c.Key(), Fix: r.fix(f)})
					}
					continue
				}
				s.SchemaFixes = append(s.SchemaFixes, NamedFix{Name: c.Key(), Fix: r.fix(c)})
			}
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
			r.list(v, "a list of checks", func(c *Node) { s.Checks = append(s.Checks, r.check(c, opts.ScopeKey)) })
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
	switch {
	case isLevel(level.Value):
		s.Doc.Level = level.Value
	case level.Value == "":
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
	codes := map[string]Pos{}
	for _, c := range s.Checks {
		if c.Code.Value == "" {
			continue
		}
		if p, dup := codes[c.Code.Value]; dup {
			r.add(c.Code.Pos, "code %q is already used by the check at %s; a code names one finding", c.Code.Value, p)
		}
		codes[c.Code.Value] = c.Pos
	}
	return s
}

func isLevel(s string) bool { return s == "must" || s == "should" || s == "may" }

var codeRE = regexp.MustCompile(`^[a-z0-9]+([._-][a-z0-9]+)*$`)

// assume reads a precondition: a mapping is a small JSON Schema, a string
// a CEL condition.
func (r *reader) assume(n *Node) *Assume {
	a := &Assume{Pos: n.Pos}
	switch n.Kind {
	case Object, Bool:
		a.Shape = n
	case String:
		a.Expr = r.expr(n)
	default:
		r.add(n.Pos, "assume: expected a JSON Schema (a mapping) or a CEL condition (a string), found %s", KindPhrase(n))
		return nil
	}
	return a
}

// scope reads a rule's scope values: "independent" or a list.
func (r *reader) scope(n *Node, key string) Scope {
	sc := Scope{Key: key, Pos: n.Pos}
	if n.Value() == "independent" {
		sc.Independent = true
		return sc
	}
	if n.Kind == Object {
		r.members(n, key, []string{"from", "until"}, func(k string, v *Node) {
			if k == "from" {
				sc.From = r.str(v)
			} else {
				sc.Until = r.str(v)
			}
		})
		if sc.From == "" && sc.Until == "" {
			r.add(n.Pos, "%s: give 'from', 'until' or both", key)
		}
		return sc
	}
	if n.Kind != Array {
		r.add(n.Pos, `expected "independent", a list of values, or {from, until}, found %s`, KindPhrase(n))
		return sc
	}
	for _, c := range n.Children() {
		if c.Kind == Object || c.Kind == Array {
			r.add(c.Pos, "expected a version string, found %s", KindPhrase(c))
			continue
		}
		sc.Values = append(sc.Values, r.str(c))
	}
	return sc
}

func (r *reader) requiredBy(n *Node) RequiredBy {
	var q RequiredBy
	r.members(n, "requiredBy", []string{"document", "section", "title", "quote", "requirements"}, func(key string, v *Node) {
		switch key {
		case "quote":
			q.Quote = r.str(v)
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

func (r *reader) check(n *Node, scopeKey string) CheckSpec {
	c := CheckSpec{Pos: n.Pos}
	fields := []string{"code", "level", "optIn", "aliases"}
	if scopeKey != "" {
		fields = append(fields, scopeKey)
	}
	fields = append(fields, "assume", "each", "when", "assert", "forbid", "at", "pointer", "message", "messageExpression", "fix")
	seen := map[string]bool{}
	r.members(n, "a check", fields, func(key string, v *Node) {
		seen[key] = true
		switch key {
		case "code":
			c.Code = r.scalar(v)
			if !codeRE.MatchString(c.Code.Value) {
				r.add(v.Pos, "code %q must be lower-case words joined by '.', '-' or '_'", c.Code.Value)
			}
		case "level":
			c.Level = r.scalar(v)
			if !isLevel(c.Level.Value) {
				r.add(v.Pos, "level %q is not one of must, should, may", c.Level.Value)
			}
		case "optIn":
			c.OptIn = r.boolean(v)
		case "aliases":
			c.Aliases = r.strs(v)
		case scopeKey:
			c.Scope = r.scope(v, key)
		case "assume":
			c.Assume = r.assume(v)
		case "pointer":
			c.Pointer = r.expr(v)
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
		case "fix":
			c.Fix = r.fix(v)
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
	if seen["at"] && seen["pointer"] {
		r.add(c.At.Pos, "a check takes 'at' (a template) or 'pointer' (a CEL expression), not both")
	}
	if (seen["level"] || seen["aliases"]) && !seen["code"] {
		r.add(c.Pos, "a check with its own level or aliases needs a 'code' that names its finding")
	}
	if seen["optIn"] && !seen["code"] {
		r.add(c.Pos, "a check with optIn needs a 'code' that names its finding, which a config file turns on")
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
	fields := []string{"title", "source", "document", "selected", "expect", "params", "fixed"}
	r.members(n, "an example", fields, func(key string, v *Node) {
		switch key {
		case "fixed":
			e.Fixed = v
		case "params":
			if v.Kind != Object {
				r.add(v.Pos, "params: expected a mapping of header params to the values the example needs, found %s", KindPhrase(v))
				return
			}
			for _, c := range v.Children() {
				e.Params = append(e.Params, ParamSpec{Name: c.Key(), Pos: c.KeyPos, Value: c})
			}
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
	if e.Fixed != nil && valid {
		r.add(e.Pos, "a valid example has nothing to fix: 'fixed' belongs to invalid examples")
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

// kindPhrase names a node's kind for messages: "a mapping", "a list", "a
// string", "the number 12", ...
// KindPhrase names a node's kind for a message: "a mapping", "a list",
// "a string", "a number", "the boolean true", "nothing (null)".
func KindPhrase(n *Node) string {
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
		return "the boolean " + strconv.FormatBool(n.Value().(bool))
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

// schemaMessage reads the message of one schema keyword: a template, or a
// mapping with a template (message), a CEL expression
// (messageExpression), or both.
func (r *reader) schemaMessage(n *Node) SchemaMessage {
	m := SchemaMessage{Name: n.Key()}
	if n.Kind != Object {
		m.Text = r.scalar(n)
		return m
	}
	hasExpr := false
	r.members(n, "a schema message", []string{"message", "messageExpression"}, func(key string, v *Node) {
		switch key {
		case "message":
			m.Text = r.scalar(v)
		case "messageExpression":
			m.Expr, hasExpr = r.expr(v), true
		}
	})
	if m.Text.Value == "" && !hasExpr {
		r.add(n.Pos, "a schema message takes a 'message' template, a 'messageExpression', or both")
	}
	return m
}

// fix reads a check's fix.
func (r *reader) fix(n *Node) *FixSpec {
	f := &FixSpec{Pos: n.Pos}
	r.members(n, "a fix", []string{"description", "when", "edits"}, func(key string, v *Node) {
		switch key {
		case "description":
			f.Description = strings.TrimSpace(r.str(v))
			return
		case "when":
			f.When = r.expr(v)
			return
		}
		r.list(v, "a list of edits", func(e *Node) {
			ed := FixEditSpec{Pos: e.Pos}
			hasFrom := false
			r.members(e, "an edit", []string{"op", "at", "from", "value"}, func(key string, v *Node) {
				switch key {
				case "op":
					ed.Op = r.scalar(v)
					if ed.Op.Value != "replace" && ed.Op.Value != "remove" && ed.Op.Value != "add" && ed.Op.Value != "move" {
						r.add(v.Pos, "op %q is not one of replace, remove, add, move", ed.Op.Value)
					}
				case "at":
					ed.At = r.scalar(v)
				case "from":
					ed.From, hasFrom = r.scalar(v), true
				case "value":
					ed.Value = r.expr(v)
				}
			})
			switch {
			case e.Kind != Object:
			case ed.Op.Value == "move" && (ed.Value != nil || !hasFrom):
				r.add(e.Pos, "a move edit has a 'from' (the pointer of the value moved) and no 'value'")
			case ed.Op.Value != "move" && hasFrom:
				r.add(e.Pos, "only a move edit has a 'from'")
			case ed.Op.Value != "move" && (ed.Value == nil) != (ed.Op.Value == "remove"):
				r.add(e.Pos, "an edit has a 'value' exactly when its op is replace or add")
			}
			f.Edits = append(f.Edits, ed)
		})
	})
	if n.Kind == Object && len(f.Edits) == 0 {
		r.add(n.Pos, "a fix needs 'edits'")
	}
	return f
}

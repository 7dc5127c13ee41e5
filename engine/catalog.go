package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/celint/celint/loader"
)

// ErrNoRuleset is the cause of the error Catalog.Load returns when no
// ruleset accepts a document: a caller may then let the user pin one.
var ErrNoRuleset = errors.New("no ruleset accepts the document")

// ErrUndeclaredVersion is the cause of the error Catalog.Load returns for
// a document that declares no version at all where the rulesets look for
// one: none of their documents (a package.json among them, say). Such an
// error also matches ErrNoRuleset.
var ErrUndeclaredVersion = errors.New("declares no version the rulesets look for")

// undeclaredVersion matches ErrUndeclaredVersion and ErrNoRuleset.
type undeclaredVersion struct{}

func (undeclaredVersion) Error() string { return ErrUndeclaredVersion.Error() }
func (undeclaredVersion) Is(target error) bool {
	return target == ErrUndeclaredVersion || target == ErrNoRuleset
}

// Catalog is the set of pinned rulesets a document's ruleset is chosen from.
type Catalog struct {
	rulesets []*Ruleset // newest tag first
}

// NewCatalog returns a catalog of rs. Two rulesets with the same name and
// tag are an error.
func NewCatalog(rs ...*Ruleset) (*Catalog, error) {
	c := &Catalog{rulesets: slices.Clone(rs)}
	// A ruleset that names the versions it accepts is chosen before one
	// that takes every document (a house ruleset of its own), whatever
	// their tags: the latter runs beside the former (Companions), never in
	// its place.
	slices.SortStableFunc(c.rulesets, func(a, b *Ruleset) int {
		if (a.Accepts == nil) != (b.Accepts == nil) {
			if a.Accepts == nil {
				return 1
			}
			return -1
		}
		if d := CompareTags(b.Tag, a.Tag); d != 0 {
			return d
		}
		return strings.Compare(a.Name, b.Name)
	})
	for i := 1; i < len(c.rulesets); i++ {
		a, b := c.rulesets[i-1], c.rulesets[i]
		if a.Name == b.Name && a.Tag == b.Tag {
			return nil, fmt.Errorf("ruleset %s is defined twice (%s and %s)", a, a.Dir, b.Dir)
		}
	}
	return c, nil
}

// Rulesets returns the rulesets, newest tag first.
func (c *Catalog) Rulesets() []*Ruleset { return slices.Clone(c.rulesets) }

// Find returns the ruleset pinned at spec: a tag ("v0.9.0-rc.3"), or
// name@tag when several rulesets share a tag. When no ruleset is pinned
// at spec, the error matches ErrNoRuleset.
func (c *Catalog) Find(spec string) (*Ruleset, error) {
	name, tag, hasName := strings.Cut(spec, "@")
	if !hasName {
		name, tag = "", spec
	}
	var found []*Ruleset
	for _, rs := range c.rulesets {
		if rs.Tag == tag && (name == "" || rs.Name == name) {
			found = append(found, rs)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		var known []string
		for _, rs := range c.rulesets {
			known = append(known, rs.String())
		}
		return nil, &loader.Error{Msg: fmt.Sprintf("no pinned ruleset %q; known: %s", spec, strings.Join(known, ", ")), Err: ErrNoRuleset}
	}
	return nil, fmt.Errorf("several rulesets are pinned at %q; name one as name@tag", spec)
}

// With returns a catalog that also holds rs.
func (c *Catalog) With(rs *Ruleset) (*Catalog, error) {
	return NewCatalog(append(c.Rulesets(), rs)...)
}

// Without returns a catalog without rs.
func (c *Catalog) Without(rs *Ruleset) *Catalog {
	out := &Catalog{}
	for _, r := range c.rulesets {
		if r != rs {
			out.rulesets = append(out.rulesets, r)
		}
	}
	return out
}

// Replace returns a catalog in which rs takes the place of the ruleset with
// its name and tag.
func (c *Catalog) Replace(rs *Ruleset) *Catalog {
	out := &Catalog{rulesets: slices.Clone(c.rulesets)}
	for i, old := range out.rulesets {
		if old.Name == rs.Name && old.Tag == rs.Tag {
			out.rulesets[i] = rs
		}
	}
	return out
}

// WithFolder returns a catalog of c's rulesets, each with the rules of
// folder added (Ruleset.WithFolder), as celint check --rules adds a folder
// without a ruleset header.
func (c *Catalog) WithFolder(folder Folder) (*Catalog, error) {
	out := make([]*Ruleset, 0, len(c.rulesets))
	for _, rs := range c.rulesets {
		ext, err := rs.WithFolder(folder)
		if err != nil {
			return nil, err
		}
		out = append(out, ext)
	}
	return NewCatalog(out...)
}

// LoadFile reads the document at path and chooses its ruleset, as Load
// does. A file larger than every candidate's size limit is refused before it
// is read. Its error is a loader.Issues, as Load's.
func (c *Catalog) LoadFile(path string, pinned *Ruleset) (*loader.Document, *Ruleset, error) {
	var limit int64
	for _, rs := range c.candidates(pinned) {
		limit = max(limit, rs.LoadOptions.Limits.Bytes)
	}
	if limit <= 0 {
		limit = loader.DefaultLimits().Bytes
	}
	data, err := loader.ReadFile(path, limit)
	if err != nil {
		return nil, nil, issues(err)
	}
	return c.Load(path, data, pinned)
}

func (c *Catalog) candidates(pinned *Ruleset) []*Ruleset {
	if pinned != nil {
		return []*Ruleset{pinned}
	}
	return c.rulesets
}

// Load parses a document and chooses its ruleset: pinned when not nil, else
// the newest ruleset that accepts the version the document declares,
// pinned at a release when one accepts it, else at a pre-release. The
// document is read with the chosen ruleset's options; name is used in
// positions and to tell JSON from YAML.
//
// Its error is a loader.Issues: errors.Is finds ErrNoRuleset (and
// ErrUndeclaredVersion, loader.ErrLimit) in it, errors.As each
// *loader.Error.
func (c *Catalog) Load(name string, data []byte, pinned *Ruleset) (*loader.Document, *Ruleset, error) {
	doc, rs, err := c.load(name, data, pinned)
	if err != nil {
		return nil, nil, issues(err)
	}
	return doc, rs, nil
}

// issues is err as a loader.Issues list (see Issues.Append).
func issues(err error) error {
	var is loader.Issues
	is.Append(err)
	return is.Err()
}

func (c *Catalog) load(name string, data []byte, pinned *Ruleset) (*loader.Document, *Ruleset, error) {
	if pinned != nil {
		doc, err := loader.Parse(name, data, pinned.LoadOptions)
		if err != nil {
			return nil, nil, err
		}
		// Pinning chooses the ruleset whatever version the document
		// declares; a document that declares none is no description.
		if a := pinned.Accepts; a != nil && a.versionNode(doc) == nil {
			return nil, nil, notVersioned(name, doc, []*Ruleset{pinned})
		}
		return doc, pinned, nil
	}
	if len(c.rulesets) == 0 {
		return nil, nil, &loader.Error{File: name, Msg: "no rulesets to choose from", Err: ErrNoRuleset}
	}
	// A ruleset pinned at a release is chosen before one pinned at a
	// pre-release (v0.9.0-rc.3), which checks a document only when no
	// release accepts it. The document is parsed once per ruleset.
	// A ruleset that names no versions (a house ruleset of its own) is
	// chosen only when no ruleset names any: otherwise it runs beside the
	// chosen one (Companions), and a document no ruleset that names
	// versions accepts is no description.
	versioned := slices.ContainsFunc(c.rulesets, func(rs *Ruleset) bool { return rs.Accepts != nil })
	var first *loader.Document
	parsed := map[*Ruleset]*loader.Document{}
	for _, stable := range []bool{true, false} {
		for i, rs := range c.rulesets {
			if IsPrerelease(rs.Tag) == stable || versioned && rs.Accepts == nil {
				continue
			}
			doc, ok := parsed[rs]
			if !ok {
				var err error
				doc, err = loader.Parse(name, data, rs.LoadOptions)
				if err != nil {
					if i == 0 {
						return nil, nil, err
					}
					parsed[rs] = nil
					continue
				}
				parsed[rs] = doc
			}
			if doc == nil {
				continue
			}
			if first == nil {
				first = doc
			}
			if rs.AcceptsDocument(doc) {
				return doc, rs, nil
			}
		}
	}
	if first == nil {
		// Every ruleset refused the document: the newest one's reason.
		_, err := loader.Parse(name, data, c.rulesets[0].LoadOptions)
		return nil, nil, err
	}
	for _, rs := range c.rulesets {
		if rs.Accepts == nil {
			continue
		}
		n := rs.Accepts.versionNode(first)
		if n == nil || n.Kind != loader.String {
			return nil, nil, notVersioned(name, first, c.rulesets)
		}
		return nil, nil, &loader.Error{File: name, Pos: n.Pos, Err: ErrNoRuleset,
			Msg: fmt.Sprintf("%s %q is not a version celint has rules for; it knows %s. Declare one of those, or check the document with another version's rules using --spec (celint version lists them)",
				rs.Accepts.Path, n.Value(), knownVersions(c.rulesets))}
	}
	return nil, nil, &loader.Error{File: name, Pos: first.Root.Pos, Err: ErrNoRuleset, Msg: "no ruleset accepts this document"}
}

// knownVersions lists the versions the rulesets accept, each with the
// rulesets that accept it: "1.0 (spec@v1.0.0, spec@v2.0.0-rc.1),
// 2.0 (spec@v2.0.0-rc.1)".
func knownVersions(rulesets []*Ruleset) string {
	by := map[string][]string{}
	var versions []string
	for _, rs := range rulesets {
		if rs.Accepts == nil {
			continue
		}
		for _, v := range rs.Accepts.Versions {
			if _, ok := by[v]; !ok {
				versions = append(versions, v)
			}
			by[v] = append(by[v], rs.String())
		}
	}
	slices.SortFunc(versions, CompareTags)
	parts := make([]string, len(versions))
	for i, v := range versions {
		parts[i] = fmt.Sprintf("%s (%s)", v, strings.Join(by[v], ", "))
	}
	return strings.Join(parts, ", ")
}

// IsPrerelease reports whether a spec tag names a pre-release, such as
// v0.9.0-rc.3. A tag that is not a version is not one.
func IsPrerelease(tag string) bool {
	v, ok := parseTag(tag)
	return ok && v.pre != ""
}

// notVersioned explains why doc declares no version any of the rulesets
// accept: the member is there but not a string (said at the value), or it
// is absent and the document is no description.
func notVersioned(name string, doc *loader.Document, rulesets []*Ruleset) error {
	var want []string
	for _, rs := range rulesets {
		if a := rs.Accepts; a != nil {
			want = append(want, fmt.Sprintf("%s accepts %s %s", rs, a.Path, strings.Join(a.Versions, ", ")))
		}
	}
	for _, rs := range rulesets {
		a := rs.Accepts
		if a == nil {
			continue
		}
		var at *loader.Node
		_ = a.sel.match(doc, func(n *loader.Node) {
			if at == nil {
				at = n
			}
		})
		if at != nil {
			return &loader.Error{File: name, Pos: at.Pos, Err: ErrNoRuleset,
				Msg: fmt.Sprintf("%s is %s; a description declares its version as a string, such as %q (%s)", a.Path, kindPhrase(at), lastOr(a.Versions, "1.0.0"), strings.Join(want, "; "))}
		}
		return &loader.Error{File: name, Pos: doc.Root.Pos, Err: undeclaredVersion{},
			Msg: fmt.Sprintf("not a description: it has no %s member declaring its version (%s)", a.Path, strings.Join(want, "; "))}
	}
	return &loader.Error{File: name, Pos: doc.Root.Pos, Err: ErrNoRuleset, Msg: "no ruleset accepts this document"}
}

// kindPhrase names a node's kind for a message, with the value of a
// number (the likeliest mistake: an unquoted version).
func kindPhrase(n *loader.Node) string {
	if n.Kind == loader.Number {
		return fmt.Sprintf("the number %v", n.Value())
	}
	return loader.KindPhrase(n)
}

func lastOr(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[len(s)-1]
}

// Companions returns the rulesets that also lint doc beside chosen, the
// ruleset Load chose: of every other ruleset name, the newest ruleset that
// accepts doc. A house ruleset of its own (a --rules folder with a header
// that extends nothing) so adds its rules to a description's instead of
// competing with them.
func (c *Catalog) Companions(doc *loader.Document, chosen *Ruleset) []*Ruleset {
	var out []*Ruleset
	seen := map[string]bool{chosen.Name: true}
	for _, rs := range c.rulesets { // newest first within each kind
		if seen[rs.Name] || !rs.AcceptsDocument(doc) {
			continue
		}
		seen[rs.Name] = true
		out = append(out, rs)
	}
	return out
}

// CompareTags orders spec tags like semantic versions: v1.2.3 > v1.2.3-rc.2
// > v1.2.3-rc.1 > v1.2.2. Tags that are not versions compare as strings,
// after all versions.
func CompareTags(a, b string) int {
	va, oka := parseTag(a)
	vb, okb := parseTag(b)
	switch {
	case !oka && !okb:
		return strings.Compare(a, b)
	case !oka:
		return -1
	case !okb:
		return 1
	}
	for i := 0; i < 3; i++ {
		if va.nums[i] != vb.nums[i] {
			if va.nums[i] < vb.nums[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case va.pre == "" && vb.pre == "":
		return 0
	case va.pre == "":
		return 1
	case vb.pre == "":
		return -1
	}
	pa, pb := strings.Split(va.pre, "."), strings.Split(vb.pre, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil:
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
		case ea == nil:
			return -1
		case eb == nil:
			return 1
		default:
			if d := strings.Compare(pa[i], pb[i]); d != 0 {
				return d
			}
		}
	}
	return len(pa) - len(pb)
}

type tagVersion struct {
	nums [3]int
	pre  string
}

func parseTag(t string) (tagVersion, bool) {
	var v tagVersion
	t = strings.TrimPrefix(t, "v")
	core, pre, _ := strings.Cut(t, "-")
	parts := strings.Split(core, ".")
	if len(parts) == 0 || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v.nums[i] = n
	}
	v.pre = pre
	return v, true
}

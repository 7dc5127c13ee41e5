package ruledoc

import (
	"cmp"
	"path"
	"strings"

	"github.com/celint/celint/engine"
)

// PagePath is where a rule's page is published, relative to the pages'
// root: <tag without v>/<owner>/<slug>/index.md, the slug being the rule id
// without its owner's prefix, dots made dashes:
// mcpdesc.elicitation.members at tag v0.9.0-rc.3 is
// 0.9.0-rc.3/mcpdesc/elicitation-members/index.md.
func PagePath(rs *engine.Ruleset, r *engine.Rule) string {
	return path.Join(pageDir(rs, r), IndexFile)
}

func pageDir(rs *engine.Ruleset, r *engine.Rule) string {
	owner := r.Doc.Owner
	if !safeName(owner) {
		owner = rs.Name // no owner, or one that cannot name a folder
	}
	slug := strings.TrimPrefix(r.ID, owner+".")
	slug = strings.ReplaceAll(slug, ".", "-")
	return path.Join(strings.TrimPrefix(cmp.Or(r.Tag, rs.Tag), "v"), owner, slug)
}

// PageURL is the URL of a rule's published page: the ruleset's docs.pages
// followed by the page's folder; "" when the ruleset publishes no pages or
// the rule is not one of its own (a rule a --rules folder added).
func PageURL(rs *engine.Ruleset, r *engine.Rule) string {
	if rs == nil || r == nil || rs.Docs.Pages == "" || !r.Published {
		return ""
	}
	return strings.TrimSuffix(rs.Docs.Pages, "/") + "/" + pageDir(rs, r) + "/"
}

// requirementURL links a requirement id to its anchor in the specification
// page of its section's chapter ("12.3" is chapter 12); "" when the
// ruleset does not say where that page is.
func requirementURL(rs *engine.Ruleset, r *engine.Rule, section, req string) string {
	if !r.Published || rs.Docs.Specification == "" {
		return ""
	}
	chapter, _, _ := strings.Cut(section, ".")
	page := rs.Docs.Sections[chapter]
	if page == "" {
		return ""
	}
	return strings.TrimSuffix(rs.Docs.Specification, "/") + "/" + page + "#" + req
}

// fixtureURL links an example's source to the fixture at the pinned tag.
func fixtureURL(rs *engine.Ruleset, r *engine.Rule, source string) string {
	if !r.Published || rs.Docs.Fixtures == "" || source == "" {
		return ""
	}
	return strings.TrimSuffix(rs.Docs.Fixtures, "/") + "/" + source
}

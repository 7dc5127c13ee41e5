package ruledoc

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/outfile"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/loader"
)

// IndexFile is the name of the page listing a ruleset's rules.
const IndexFile = "index.md"

// ManifestFile is the name of the file, in a ruleset's index folder
// (dir/<tag without v>/<ruleset name>/), that lists the pages WriteAll
// wrote there, one path a line, relative to the tag's folder.
const ManifestFile = ".celint-pages"

// WriteAll writes the page of every rule of rs at its published place,
// dir/<tag without v>/<owner>/<slug>/index.md (see PagePath), and an index
// page listing them (id, level, surface, title) at
// dir/<tag without v>/<ruleset name>/index.md, and lists what it wrote in
// the manifest beside the index (ManifestFile). The pages the manifest of
// an earlier run lists that this run no longer writes (a rule removed or
// renamed) are removed, and the folders they leave empty; nothing else
// under dir is removed, so pages written by hand or by another tool stay.
// It returns the paths written: the rule pages in rule id order, then the
// index. Every page is rendered before anything is written, so that a rule
// that cannot be documented leaves no partial output. Each page is written
// as a new regular file (package outfile): a symbolic link at its path is
// an error, never followed.
func WriteAll(rs *engine.Ruleset, dir string) ([]string, error) {
	if rs == nil {
		return nil, errors.New("ruledoc: nil ruleset")
	}
	tag := strings.TrimPrefix(rs.Tag, "v")
	for _, part := range []struct{ what, v string }{{"name", rs.Name}, {"tag", tag}} {
		if !safeName(part.v) {
			return nil, fmt.Errorf("ruleset %s: %s %q cannot name a folder", rs, part.what, part.v)
		}
	}
	type file struct {
		rel  string // relative to the tag's folder, with slashes
		data []byte
	}
	var files []file
	var issues loader.Issues
	for _, r := range rs.Rules {
		rel := PagePath(rs, r)
		parts := strings.Split(rel, "/")
		if len(parts) != 4 || !safeName(parts[0]) || !safeName(parts[1]) || !safeName(parts[2]) {
			issues.Append(&loader.Error{File: r.File, Pos: r.Pos, Msg: fmt.Sprintf("rule %q (owner %q) cannot name a page folder", r.ID, r.Doc.Owner)})
			continue
		}
		data, err := Page(rs, r)
		if err != nil {
			issues.Append(err)
			continue
		}
		files = append(files, file{strings.Join(parts[1:], "/"), data})
	}
	if err := issues.Err(); err != nil {
		return nil, err
	}
	files = append(files, file{rs.Name + "/" + IndexFile, Index(rs)})
	tagDir := filepath.Join(dir, tag)
	manifest := filepath.Join(tagDir, rs.Name, ManifestFile)
	before := readManifest(manifest)
	written := map[string]bool{}
	var paths []string
	var list bytes.Buffer
	for _, f := range files {
		path := filepath.Join(tagDir, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return paths, err
		}
		if err := outfile.WriteFile(path, f.data); err != nil {
			return paths, err
		}
		written[f.rel] = true
		paths = append(paths, path)
		list.WriteString(f.rel + "\n")
	}
	if err := outfile.WriteFile(manifest, list.Bytes()); err != nil {
		return paths, err
	}
	return paths, removeStale(tagDir, before, written)
}

// readManifest returns the pages a manifest lists: the lines that name a
// page WriteAll writes (<owner>/<slug>/index.md or <name>/index.md, of
// safe names); other lines are ignored. A missing manifest lists nothing.
func readManifest(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var pages []string
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.Split(line, "/")
		if len(parts) < 2 || len(parts) > 3 || parts[len(parts)-1] != IndexFile {
			continue
		}
		ok := true
		for _, p := range parts[:len(parts)-1] {
			ok = ok && safeName(p)
		}
		if ok {
			pages = append(pages, line)
		}
	}
	return pages
}

// removeStale removes the pages of before, relative to tagDir, that this
// run did not write, when they are regular files, then the folders they
// leave empty. Nothing else is touched.
func removeStale(tagDir string, before []string, written map[string]bool) error {
	for _, rel := range before {
		if written[rel] {
			continue
		}
		page := filepath.Join(tagDir, filepath.FromSlash(rel))
		if st, err := os.Lstat(page); err != nil || !st.Mode().IsRegular() {
			continue
		}
		if err := os.Remove(page); err != nil {
			return err
		}
		_ = os.Remove(filepath.Dir(page)) // only when empty
	}
	return nil
}

// Index renders the Markdown page listing the rules of rs, each linked to
// its page.
func Index(rs *engine.Ruleset) []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	title := safetext.Line(rs.Title)
	if title == "" {
		title = safetext.Line(rs.String())
	}
	name, tag := safetext.Line(rs.Name), safetext.Line(rs.Tag)
	p("---\n")
	p("title: %s\n", yamlString(title))
	p("description: %s\n", yamlString(fmt.Sprintf("The rules of ruleset %s at tag %s.", name, tag)))
	p("ruleset: %s\n", yamlString(name))
	p("tag: %s\n", yamlString(tag))
	p("---\n\n")
	p("# %s\n\n", escapeInline(title))
	p("Ruleset %s pinned at tag %s: %d rule", codeSpan(name), codeSpan(tag), len(rs.Rules))
	if len(rs.Rules) != 1 {
		p("s")
	}
	p(".\n\n")
	if len(rs.Rules) == 0 {
		return b.Bytes()
	}
	p("| Rule | Level | Surface | Title |\n")
	p("| --- | --- | --- | --- |\n")
	for _, r := range rs.Rules {
		title := safetext.Line(strings.TrimSpace(r.Doc.Title))
		if title == "" {
			title = r.ID
		}
		p("| [%s](%s) | %s | %s | %s |\n",
			codeSpan(r.ID), linkDest(indexLink(rs, r)),
			cell(safetext.Line(r.Doc.Level)), cell(safetext.Line(r.Doc.Surface)), cell(title))
	}
	return b.Bytes()
}

// indexLink is the link from the ruleset's index page
// (<tag>/<ruleset name>/index.md) to a rule's page.
func indexLink(rs *engine.Ruleset, r *engine.Rule) string {
	parts := strings.Split(PagePath(rs, r), "/") // tag, owner, slug, index.md
	if parts[1] == rs.Name {
		return url.PathEscape(parts[2]) + "/"
	}
	return "../" + url.PathEscape(parts[1]) + "/" + url.PathEscape(parts[2]) + "/"
}

// cell escapes s for a table cell.
func cell(s string) string {
	return escapeInline(strings.Join(strings.Fields(s), " "))
}

// safeName reports whether s can be one path element: not empty, not a dot
// name, without separators.
func safeName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\:`) && !strings.ContainsRune(s, 0) &&
		!strings.ContainsFunc(s, safetext.Hidden)
}

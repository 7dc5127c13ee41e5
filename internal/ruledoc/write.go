package ruledoc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/loader"
)

// IndexFile is the name of the page listing a ruleset's rules.
const IndexFile = "index.md"

// WriteAll writes the page of every rule of rs to
// dir/<ruleset name>/<tag>/<rule id>.md, and an index page listing them (id,
// level, surface, title) beside them. It returns the paths written: the
// rule pages in rule id order, then the index. Every page is rendered before
// anything is written, so that a rule that cannot be documented leaves no
// partial output.
func WriteAll(rs *engine.Ruleset, dir string) ([]string, error) {
	if rs == nil {
		return nil, errors.New("ruledoc: nil ruleset")
	}
	for _, part := range []struct{ what, v string }{{"name", rs.Name}, {"tag", rs.Tag}} {
		if !safeName(part.v) {
			return nil, fmt.Errorf("ruleset %s: %s %q cannot name a folder", rs, part.what, part.v)
		}
	}
	out := filepath.Join(dir, rs.Name, rs.Tag)
	type file struct {
		path string
		data []byte
	}
	var files []file
	var issues loader.Issues
	for _, r := range rs.Rules {
		if !safeName(r.ID) {
			issues.Append(&loader.Error{File: r.File, Pos: r.Pos, Msg: fmt.Sprintf("rule id %q cannot name a file", r.ID)})
			continue
		}
		data, err := Page(rs, r)
		if err != nil {
			issues.Append(err)
			continue
		}
		files = append(files, file{filepath.Join(out, r.ID+".md"), data})
	}
	if err := issues.Err(); err != nil {
		return nil, err
	}
	files = append(files, file{filepath.Join(out, IndexFile), Index(rs)})
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, f := range files {
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			return written, err
		}
		written = append(written, f.path)
	}
	return written, nil
}

// Index renders the Markdown page listing the rules of rs, each linked to
// its page (<rule id>.md in the same folder).
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
			codeSpan(r.ID), linkDest(r.ID+".md"),
			cell(safetext.Line(r.Doc.Level)), cell(safetext.Line(r.Doc.Surface)), cell(title))
	}
	return b.Bytes()
}

// cell escapes s for a table cell.
func cell(s string) string {
	return escapeInline(strings.Join(strings.Fields(s), " "))
}

// safeName reports whether s can be one path element: not empty, not a dot
// name, without separators.
func safeName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\:`) && !strings.ContainsRune(s, 0)
}

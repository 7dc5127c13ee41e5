package engine_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportedNamesDomainFree: the engine knows no document format's
// domain, so none of its exported package-level names carries one of its
// words (a description, MCP). A field or method named Description, text a
// rule says about itself, is not such a name.
func TestExportedNamesDomainFree(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range f.Scope.Objects {
			if !ast.IsExported(obj.Name) {
				continue
			}
			low := strings.ToLower(obj.Name)
			for _, word := range []string{"description", "mcp"} {
				if strings.Contains(low, word) {
					t.Errorf("%s: exported name %s carries the domain word %q", name, obj.Name, word)
				}
			}
		}
	}
}

// TestSourceDomainFree: no non-test Go file of the engine (its
// subpackages included), cel or loader mentions MCP, in code, strings or
// comments: what celint knows of a format lives in rulesets/, as data.
func TestSourceDomainFree(t *testing.T) {
	for _, root := range []string{".", "../cel", "../loader"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(src), "\n") {
				if strings.Contains(strings.ToLower(line), "mcp") {
					t.Errorf("%s:%d mentions MCP: %s", path, i+1, strings.TrimSpace(line))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

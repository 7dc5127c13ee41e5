package engine_test

import (
	"go/ast"
	"go/parser"
	"go/token"
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

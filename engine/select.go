package engine

import (
	"fmt"
	"strings"

	"github.com/celint/celint/loader"
	"github.com/tidwall/gjson"
)

// A selector is a parsed selection path: gjson path syntax, split into
// components so that every match keeps its exact location.
//
// gjson evaluates each component on the raw JSON of the current node, and
// reports the byte offset of what it found; the document's offset index maps
// that back to a located node. Evaluating component by component keeps the
// locations that gjson itself loses under nested '#' and keeps the work linear
// in the size of the document.
type selector struct {
	text  string
	parts []component
}

type componentKind uint8

const (
	compKey      componentKind = iota // a key, index or wildcard key: gjson.Get on the node
	compEach                          // '#': every element of an array
	compQueryAll                      // '#(...)#': every matching element
	compQueryOne                      // '#(...)': the first matching element
)

type component struct {
	kind componentKind
	text string // the gjson path of this component
}

// parseSelector splits a gjson path into components. It accepts keys (with
// '\' escapes and the wildcards '*' and '?'), array indexes, '#', and the
// queries '#(...)' and '#(...)#'. Modifiers ('@'), pipes ('|'), multipaths
// ('[' and '{' at a component start), static values ('!') and JSON-lines
// paths ('..') are refused: their results carry no location.
func parseSelector(path string) (*selector, error) {
	if path == "" {
		return nil, fmt.Errorf("empty selection path")
	}
	if path == "$" || path == "@this" {
		return &selector{text: path}, nil
	}
	s := &selector{text: path}
	i := 0
	for i <= len(path) {
		if i == len(path) {
			return nil, fmt.Errorf("selection path %q ends with '.'", path)
		}
		start := i
		switch {
		case strings.HasPrefix(path[i:], "#("):
			end, err := scanQuery(path, i+1)
			if err != nil {
				return nil, fmt.Errorf("selection path %q: %v", path, err)
			}
			i = end
			kind := compQueryOne
			if i < len(path) && path[i] == '#' {
				kind = compQueryAll
				i++
			}
			s.parts = append(s.parts, component{kind: kind, text: path[start:i]})
		case path[i] == '#':
			i++
			s.parts = append(s.parts, component{kind: compEach, text: "#"})
		default:
			switch path[i] {
			case '@':
				return nil, fmt.Errorf("selection path %q: modifiers ('@...') are not allowed: their results carry no location", path)
			case '!':
				return nil, fmt.Errorf("selection path %q: static values ('!...') are not allowed", path)
			case '[', '{':
				return nil, fmt.Errorf("selection path %q: multipaths are not allowed; list several paths under 'given' instead", path)
			case '.':
				return nil, fmt.Errorf("selection path %q: empty component at offset %d", path, i)
			}
			for i < len(path) && path[i] != '.' {
				switch path[i] {
				case '\\':
					i++
					if i == len(path) {
						return nil, fmt.Errorf("selection path %q ends with a lone '\\'", path)
					}
				case '|':
					return nil, fmt.Errorf("selection path %q: pipes ('|') are not allowed; use '.'", path)
				case '#', '(', ')':
					return nil, fmt.Errorf("selection path %q: unexpected %q inside a key at offset %d (escape it with '\\')", path, path[i], i)
				}
				i++
			}
			s.parts = append(s.parts, component{kind: compKey, text: path[start:i]})
		}
		if i == len(path) {
			break
		}
		if path[i] != '.' {
			return nil, fmt.Errorf("selection path %q: expected '.' at offset %d, found %q", path, i, path[i])
		}
		i++
	}
	return s, nil
}

// scanQuery returns the offset just past the ')' that closes the '(' at i,
// skipping quoted strings and nested parentheses. Like gjson's own query
// parser, it counts '[' and ']' as parentheses too: otherwise the two would
// end the query at different places, and gjson's result would carry no
// location (for example "#((])#)", which gjson reads as "#((])" then "#)").
func scanQuery(path string, i int) (int, error) {
	depth := 0
	for ; i < len(path); i++ {
		switch path[i] {
		case '\\':
			i++
		case '"':
			for i++; i < len(path) && path[i] != '"'; i++ {
				if path[i] == '\\' {
					i++
				}
			}
			if i >= len(path) {
				return 0, fmt.Errorf("unterminated string in query")
			}
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		}
	}
	return 0, fmt.Errorf("unbalanced parentheses in query")
}

// match returns the nodes the selector selects, in document order for each
// step, calling visit for every node. It stops early with the first error,
// for example a location that could not be mapped back (which would be a bug
// in celint, reported rather than hidden).
func (s *selector) match(doc *loader.Document, visit func(*loader.Node)) error {
	cur := []*loader.Node{doc.Root}
	for _, c := range s.parts {
		var next []*loader.Node
		for _, n := range cur {
			var err error
			next, err = c.step(doc, n, next)
			if err != nil {
				return fmt.Errorf("selection path %q: %w", s.text, err)
			}
		}
		cur = next
		if len(cur) == 0 {
			return nil
		}
	}
	for _, n := range cur {
		visit(n)
	}
	return nil
}

func (c component) step(doc *loader.Document, n *loader.Node, out []*loader.Node) ([]*loader.Node, error) {
	switch c.kind {
	case compEach:
		if n.Kind == loader.Array {
			out = append(out, n.Children...)
		}
		return out, nil
	case compQueryAll:
		if n.Kind != loader.Array {
			return out, nil
		}
		res := gjson.GetBytes(doc.JSON[n.Offset:n.End], c.text)
		for _, idx := range res.Indexes {
			m, err := locate(doc, n, idx)
			if err != nil {
				return out, err
			}
			out = append(out, m)
		}
		return out, nil
	}
	if n.Kind != loader.Array && n.Kind != loader.Object {
		return out, nil
	}
	res := gjson.GetBytes(doc.JSON[n.Offset:n.End], c.text)
	if !res.Exists() {
		return out, nil
	}
	m, err := locate(doc, n, res.Index)
	if err != nil {
		return out, err
	}
	return append(out, m), nil
}

// locate maps an offset relative to n's raw JSON back to a node.
func locate(doc *loader.Document, n *loader.Node, rel int) (*loader.Node, error) {
	m := doc.NodeAt(n.Offset + rel)
	if m == nil || rel <= 0 {
		return nil, fmt.Errorf("internal error: no node at offset %d under %q", n.Offset+rel, n.Pointer())
	}
	return m, nil
}

package engine

import (
	"strconv"
	"strings"
	"sync"

	"github.com/celint/celint/loader"
)

// An identity names the items of some arrays by a member, so that a finding
// keeps its key when items are inserted, removed or reordered above it
// (context.identity in a ruleset header).
type identity struct {
	at     []*selector
	member string
}

// identityToken is the reference token that stands for an array item whose
// member has the given string value: [name="get_weather"]. Brackets never
// begin an array index, so it is told from one.
func identityToken(member, value string) string {
	return loader.EscapeToken("[" + member + "=" + strconv.Quote(value) + "]")
}

// pathsOf returns what gives the Path of a diagnostic of doc: its pointer
// with every identified item's index replaced by its identity token, or ""
// when no item on its way is identified. An item is identified only when
// its member's value is a string that no sibling identified by the same
// member shares; the others keep their index. The items are found on the
// first call. nil when the ruleset identifies nothing.
func (rs *Ruleset) pathsOf(doc *loader.Document) func(pointer string) string {
	if len(rs.identities) == 0 || doc.Root == nil {
		return nil
	}
	names := sync.OnceValue(func() map[*loader.Node]string { return rs.identified(doc) })
	return func(pointer string) string {
		if n := names(); len(n) > 0 {
			return stablePath(doc, pointer, n)
		}
		return ""
	}
}

// identified returns the identity token of each identified item of doc.
func (rs *Ruleset) identified(doc *loader.Document) map[*loader.Node]string {
	names := map[*loader.Node]string{}
	for _, id := range rs.identities {
		var items []*loader.Node
		for _, sel := range id.at {
			// A selection that fails names nothing; the rules that use
			// the same paths report why.
			_ = sel.match(doc, func(n *loader.Node) {
				if n.Parent != nil && n.Parent.Kind == loader.Array {
					items = append(items, n)
				}
			})
		}
		shared := map[*loader.Node]map[string]int{} // by array: how many items have each value
		for _, n := range items {
			if v, ok := identityOf(n, id.member); ok {
				if shared[n.Parent] == nil {
					shared[n.Parent] = map[string]int{}
				}
				shared[n.Parent][v]++
			}
		}
		for _, n := range items {
			if v, ok := identityOf(n, id.member); ok && shared[n.Parent][v] == 1 {
				if _, named := names[n]; !named {
					names[n] = identityToken(id.member, v)
				}
			}
		}
	}
	return names
}

// identityOf returns the string value of n's member, if n is an object
// that has it.
func identityOf(n *loader.Node, member string) (string, bool) {
	if n.Kind != loader.Object {
		return "", false
	}
	m := n.Member(member)
	if m == nil {
		return "", false
	}
	s, ok := m.Value().(string)
	return s, ok
}

// stablePath returns pointer with the tokens of named items replaced by
// their names, or "" when no item on its way is named. The tokens after the
// first one that names no node are kept as they are.
func stablePath(doc *loader.Document, pointer string, names map[*loader.Node]string) string {
	if pointer == "" || pointer[0] != '/' {
		return ""
	}
	toks := strings.Split(pointer[1:], "/")
	n, changed := doc.Root, false
	for i, tok := range toks {
		if n == nil {
			break
		}
		n = n.Child(tok)
		if name, ok := names[n]; ok {
			toks[i], changed = name, true
		}
	}
	if !changed {
		return ""
	}
	return "/" + strings.Join(toks, "/")
}

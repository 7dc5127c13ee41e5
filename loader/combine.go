package loader

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/celint/celint/internal/jsonpointer"
)

// Combine chooses, among fixes, those that can be made together, and
// returns their edits in the order that gives each the change it was
// computed for. Each fix is the edits of one finding, made in order, all
// computed on the same value, root.
//
// A fix is taken unless it touches a place an earlier taken fix touches:
// the same location, one inside the other, or, for a fix of several edits
// that inserts or removes array items, anything inside the nearest value
// holding all its edits. A fix whose edits are those of a taken fix is
// taken too, and adds nothing. taken[i] says whether fix i is taken; a fix
// that is not is left for a later round, when its finding is computed
// again on the changed document.
//
// The taken fixes are put in reverse document order of the last place each
// touches: a fix that inserts or removes array items then comes after every
// fix at a later index of that array, so every edit finds at its pointer
// the value it was computed for (an item removed at /tags/1 does not move
// the one a later fix edits at /tags/3).
func Combine(root any, fixes [][]Edit) (edits []Edit, taken []bool) {
	type chosen struct {
		places [][]string // the places it touches
		last   []string   // the last of them in document order
		edits  []Edit
	}
	var picked []chosen
	taken = make([]bool, len(fixes))
next:
	for i, fx := range fixes {
		if len(fx) == 0 {
			continue
		}
		for _, c := range picked {
			if sameEdits(c.edits, fx) {
				taken[i] = true
				continue next
			}
		}
		places, ok := touched(root, fx)
		if !ok {
			continue
		}
		for _, c := range picked {
			for _, p := range places {
				for _, q := range c.places {
					if prefixOf(p, q) || prefixOf(q, p) {
						continue next
					}
				}
			}
		}
		last := places[0]
		for _, p := range places[1:] {
			if compareTokens(p, last) > 0 {
				last = p
			}
		}
		picked = append(picked, chosen{places: places, last: last, edits: fx})
		taken[i] = true
	}
	slices.SortStableFunc(picked, func(a, b chosen) int { return compareTokens(b.last, a.last) })
	for _, c := range picked {
		edits = append(edits, c.edits...)
	}
	return edits, taken
}

// touched lists the places, as tokens, that the edits of one fix touch:
// each edit's pointer (and a move's from), or, when the fix has several
// edits and one of them inserts or removes an array item, the one place
// that holds them all. It reports false for a malformed pointer.
func touched(root any, fx []Edit) ([][]string, bool) {
	var places [][]string
	shifts := false
	for _, e := range fx {
		ptrs := []string{e.Pointer}
		if e.Op == Move {
			ptrs = append(ptrs, e.From)
		}
		for _, p := range ptrs {
			toks, err := jsonpointer.Parse(p)
			if err != nil {
				return nil, false
			}
			places = append(places, toks)
			if e.Op != Replace && len(toks) > 0 {
				if _, isArray := at(root, toks[:len(toks)-1]).([]any); isArray || at(root, toks[:len(toks)-1]) == nil {
					shifts = true
				}
			}
		}
	}
	if len(fx) == 1 || !shifts {
		return places, true
	}
	common := places[0]
	for _, p := range places[1:] {
		n := 0
		for n < len(common) && n < len(p) && common[n] == p[n] {
			n++
		}
		common = common[:n]
	}
	return [][]string{common}, true
}

// at is the value at toks in v, or nil.
func at(v any, toks []string) any {
	for _, t := range toks {
		switch c := v.(type) {
		case map[string]any:
			v = c[t]
		case []any:
			i, ok := jsonpointer.ArrayIndex(t)
			if !ok || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

// prefixOf reports whether p is q or a place holding q.
func prefixOf(p, q []string) bool {
	return len(p) <= len(q) && slices.Equal(p, q[:len(p)])
}

// compareTokens orders pointers in document order: a value before what it
// holds, array items by index ("-", the place after the last item, after
// every index), members by name.
func compareTokens(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		ai, aIndex := tokenIndex(a[i])
		bi, bIndex := tokenIndex(b[i])
		switch {
		case aIndex && bIndex:
			return cmp.Compare(ai, bi)
		case aIndex:
			return -1
		case bIndex:
			return 1
		}
		return cmp.Compare(a[i], b[i])
	}
	return cmp.Compare(len(a), len(b))
}

// tokenIndex reads an array index token; "-" is after every index.
func tokenIndex(t string) (int, bool) {
	if t == "-" {
		return math.MaxInt, true
	}
	return jsonpointer.ArrayIndex(t)
}

// sameEdits reports whether two fixes make the same edits.
func sameEdits(a, b []Edit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Op != b[i].Op || a[i].Pointer != b[i].Pointer || a[i].From != b[i].From || !sameJSON(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

// PointerMap follows locations through a list of edits: what a location
// of the value before them is called after them.
type PointerMap struct {
	edits  []Edit
	before []any // the value before each edit
}

// NewPointerMap prepares to follow locations of root through edits, made
// in order as [Edits] makes them. An edit that does not apply ends the
// list.
func NewPointerMap(root any, edits []Edit) *PointerMap {
	m := &PointerMap{}
	v := root
	for _, e := range edits {
		next, err := patched(v, e)
		if err != nil {
			break
		}
		m.edits = append(m.edits, e)
		m.before = append(m.before, v)
		v = next
	}
	return m
}

// Map returns the pointer, after the edits, of the location ptr names
// before them, and false when an edit took the location away (it removed
// or replaced a value holding it) or ptr is malformed. Array items after
// one removed or inserted move with it; a moved value's locations move to
// its new place.
func (m *PointerMap) Map(ptr string) (string, bool) {
	toks, err := jsonpointer.Parse(ptr)
	if err != nil {
		return "", false
	}
	for i, e := range m.edits {
		var ok bool
		if toks, ok = mapTokens(m.before[i], e, toks); !ok {
			return "", false
		}
	}
	return jsonpointer.Join(toks...), true
}

// mapTokens follows toks, a location of v, through the edit e of v.
func mapTokens(v any, e Edit, toks []string) ([]string, bool) {
	at, err := jsonpointer.Parse(e.Pointer)
	if err != nil {
		return nil, false
	}
	switch e.Op {
	case Replace:
		if prefixOf(at, toks) && len(at) < len(toks) {
			return nil, false
		}
		return toks, true
	case Remove:
		return shifted(v, at, toks, -1)
	case Add:
		return shifted(v, at, toks, +1)
	case Move:
		from, err := jsonpointer.Parse(e.From)
		if err != nil {
			return nil, false
		}
		if prefixOf(from, toks) {
			return append(slices.Clone(at), toks[len(from):]...), true
		}
		toks, ok := shifted(v, from, toks, -1)
		if !ok {
			return nil, false
		}
		mid, err := patched(v, Edit{Op: Remove, Pointer: e.From})
		if err != nil {
			return nil, false
		}
		return shifted(mid, at, toks, +1)
	}
	return toks, true
}

// shifted follows toks through the removal (by -1) or the insertion (by
// +1) of the value at place in v: a location inside a removed value is
// gone, and a later item of the same array moves by one.
func shifted(v any, place, toks []string, by int) ([]string, bool) {
	if by < 0 && prefixOf(place, toks) {
		return nil, false
	}
	if len(place) == 0 || len(toks) < len(place) || !slices.Equal(place[:len(place)-1], toks[:len(place)-1]) {
		return toks, true
	}
	list, isArray := at(v, place[:len(place)-1]).([]any)
	if !isArray {
		return toks, true
	}
	i, ok := jsonpointer.ArrayIndex(place[len(place)-1])
	if place[len(place)-1] == "-" {
		i, ok = len(list), true
	}
	j, isIndex := jsonpointer.ArrayIndex(toks[len(place)-1])
	if !ok || !isIndex || j < i || (by < 0 && j == i) {
		return toks, true
	}
	out := slices.Clone(toks)
	out[len(place)-1] = strconv.Itoa(j + by)
	return out, true
}

package cel

import (
	"reflect"

	"github.com/celint/celint/internal/celtree"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// groups is the map indexesBy returns: each key, in the order its first
// element came, with the list of its elements' indexes. A description's
// lists have thousands of elements, most with a key of their own: built
// as a cel-go map, each key cost a list of its own and a list value, the
// map a second table, and every iteration walked the map by reflection.
// Here the keys are a list, the indexes one list cut in groups, and the
// list values one array; what rules rarely ask (equality, conversion, a
// key of another numeric type) is answered by the cel-go map it stands
// for, built for that question.
type groups struct {
	keys  []ref.Val
	at    map[ref.Val]int32 // key → its place in keys
	lists []indexList       // lists[k] holds the indexes of keys[k]
}

// newGroups groups the indexes of elems by their keys (see groupKey):
// key[i] is element i's place in keys, or -1 when it has none.
func newGroups(keys []ref.Val, at map[ref.Val]int32, key []int32) *groups {
	count := make([]int32, len(keys)+1)
	for _, k := range key {
		if k >= 0 {
			count[k+1]++
		}
	}
	for k := 1; k < len(count); k++ {
		count[k] += count[k-1] // count[k] is now where group k starts
	}
	flat := make([]ref.Val, count[len(keys)])
	next := count[:len(keys)]
	g := &groups{keys: keys, at: at, lists: make([]indexList, len(keys))}
	for k := range g.lists {
		g.lists[k].vals = flat[count[k]:count[k+1]]
	}
	for i, k := range key {
		if k >= 0 {
			flat[next[k]] = types.Int(i)
			next[k]++
		}
	}
	return g
}

// place is key's place in g.keys, when key is one of them. Only the kinds
// of key groupKey makes are looked up: a value of another kind may not
// even be hashable, and is the cel-go map's to answer.
func (g *groups) place(key ref.Val) (int32, bool) {
	switch key.(type) {
	case types.String, types.Int, types.Uint:
		k, ok := g.at[key]
		return k, ok
	}
	return 0, false
}

// asMap is the cel-go map g stands for.
func (g *groups) asMap() traits.Mapper {
	m := make(map[ref.Val]ref.Val, len(g.keys))
	for k, key := range g.keys {
		m[key] = types.NewRefValList(types.DefaultTypeAdapter, g.lists[k].vals)
	}
	return types.NewRefValMap(types.DefaultTypeAdapter, m).(traits.Mapper)
}

// ConvertToNative implements ref.Val.
func (g *groups) ConvertToNative(t reflect.Type) (any, error) { return g.asMap().ConvertToNative(t) }

// ConvertToType implements ref.Val.
func (g *groups) ConvertToType(t ref.Type) ref.Val { return g.asMap().ConvertToType(t) }

// Equal implements ref.Val.
func (g *groups) Equal(other ref.Val) ref.Val { return g.asMap().Equal(other) }

// Type implements ref.Val.
func (g *groups) Type() ref.Type { return types.MapType }

// Value implements ref.Val.
func (g *groups) Value() any { return g.asMap().Value() }

// Contains implements traits.Container.
func (g *groups) Contains(key ref.Val) ref.Val {
	if _, ok := g.place(key); ok {
		return types.True
	}
	return g.asMap().Contains(key)
}

// Get implements traits.Indexer.
func (g *groups) Get(key ref.Val) ref.Val {
	if k, ok := g.place(key); ok {
		return &g.lists[k]
	}
	return g.asMap().Get(key)
}

// Find implements traits.Mapper.
func (g *groups) Find(key ref.Val) (ref.Val, bool) {
	if k, ok := g.place(key); ok {
		return &g.lists[k], true
	}
	return g.asMap().Find(key)
}

// Iterator implements traits.Iterable: the keys, in the order they came.
func (g *groups) Iterator() traits.Iterator { return &valIterator{vals: g.keys} }

// Size implements traits.Sizer.
func (g *groups) Size() ref.Val { return types.Int(len(g.keys)) }

// IsZeroValue reports whether the map is empty.
func (g *groups) IsZeroValue() bool { return len(g.keys) == 0 }

// indexList is one key's list of indexes in a groups map. What rules
// rarely ask of it is answered by the cel-go list it stands for.
type indexList struct{ vals []ref.Val }

func (l *indexList) asList() traits.Lister {
	return types.NewRefValList(types.DefaultTypeAdapter, l.vals).(traits.Lister)
}

// ConvertToNative implements ref.Val.
func (l *indexList) ConvertToNative(t reflect.Type) (any, error) {
	return l.asList().ConvertToNative(t)
}

// ConvertToType implements ref.Val.
func (l *indexList) ConvertToType(t ref.Type) ref.Val { return l.asList().ConvertToType(t) }

// Equal implements ref.Val.
func (l *indexList) Equal(other ref.Val) ref.Val { return l.asList().Equal(other) }

// Type implements ref.Val.
func (l *indexList) Type() ref.Type { return types.ListType }

// Value implements ref.Val.
func (l *indexList) Value() any { return l.asList().Value() }

// Add implements traits.Adder.
func (l *indexList) Add(other ref.Val) ref.Val { return l.asList().Add(other) }

// Contains implements traits.Container.
func (l *indexList) Contains(v ref.Val) ref.Val { return l.asList().Contains(v) }

// Get implements traits.Indexer.
func (l *indexList) Get(i ref.Val) ref.Val {
	if x, ok := i.(types.Int); ok && x >= 0 && int64(x) < int64(len(l.vals)) {
		return l.vals[x]
	}
	return l.asList().Get(i)
}

// Iterator implements traits.Iterable.
func (l *indexList) Iterator() traits.Iterator { return &valIterator{vals: l.vals} }

// Size implements traits.Sizer.
func (l *indexList) Size() ref.Val { return types.Int(len(l.vals)) }

// IsZeroValue reports whether the list is empty.
func (l *indexList) IsZeroValue() bool { return len(l.vals) == 0 }

// valIterator iterates a list of values.
type valIterator struct {
	celtree.IteratorVal
	vals []ref.Val
	i    int
}

// HasNext implements traits.Iterator.
func (it *valIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.vals)) }

// Next implements traits.Iterator.
func (it *valIterator) Next() ref.Val {
	if it.i >= len(it.vals) {
		return nil
	}
	it.i++
	return it.vals[it.i-1]
}

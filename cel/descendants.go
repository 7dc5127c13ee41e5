package cel

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/celint/celint/internal/jsonpointer"
)

// maxDescendantsNodes bounds the nodes descendants visits.
const maxDescendantsNodes = 1_000_000

// The member names of a descendants entry.
const (
	descPath  = types.String("path")
	descKey   = types.String("key")
	descValue = types.String("value")
)

// descendants returns every value nested inside v (not v itself), depth
// first and pre-order: map members in sorted key order, list elements in
// order. It visits at most bound nodes; more is an error.
func descendants(v ref.Val, bound int) ([]ref.Val, error) {
	w := &walker{bound: bound}
	if err := w.walk("", v); err != nil {
		return nil, err
	}
	if w.out == nil {
		w.out = []ref.Val{}
	}
	return w.out, nil
}

type walker struct {
	bound int
	out   []ref.Val
}

// visit records one descendant and walks into it.
func (w *walker) visit(path string, key, v ref.Val) error {
	if len(w.out) >= w.bound {
		return fmt.Errorf("descendants: more than %d nodes", w.bound)
	}
	w.out = append(w.out, &descendant{path: types.String(path), key: key, value: v})
	return w.walk(path, v)
}

// walk visits the children of v, whose pointer is path.
func (w *walker) walk(path string, v ref.Val) error {
	switch t := v.(type) {
	case traits.Mapper:
		type member struct {
			name string // the key as a pointer token
			key  ref.Val
		}
		var members []member
		it := t.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			name, err := mapKeyString(k)
			if err != nil {
				return fmt.Errorf("descendants: %v", err)
			}
			members = append(members, member{name, k})
		}
		sort.Slice(members, func(i, j int) bool {
			a, b := members[i], members[j]
			if a.name != b.name {
				return a.name < b.name
			}
			// Keys of different types with the same text ({1: x, '1': y}).
			return a.key.Type().TypeName() < b.key.Type().TypeName()
		})
		for _, m := range members {
			if err := w.visit(jsonpointer.Append(path, m.name), m.key, t.Get(m.key)); err != nil {
				return err
			}
		}
	case traits.Lister:
		it := t.Iterator()
		for i := 0; it.HasNext() == types.True; i++ {
			if err := w.visit(jsonpointer.Append(path, strconv.Itoa(i)), types.Int(i), it.Next()); err != nil {
				return err
			}
		}
	}
	return nil
}

// descendant is one entry of a descendants result: a map value with the
// members "path", "key" and "value". It is a traits.Mapper of its own,
// three words wide, rather than a general map, since a walk may make a
// million of them; everything but member lookup goes through an
// equivalent general map.
type descendant struct {
	path  types.String
	key   ref.Val
	value ref.Val
}

var _ traits.Mapper = (*descendant)(nil)

// general returns the entry as a general CEL map.
func (d *descendant) general() traits.Mapper {
	return types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{
		descPath:  d.path,
		descKey:   d.key,
		descValue: d.value,
	})
}

// Find implements traits.Mapper.
func (d *descendant) Find(key ref.Val) (ref.Val, bool) {
	switch k := key.(type) {
	case types.String:
		switch k {
		case descPath:
			return d.path, true
		case descKey:
			return d.key, true
		case descValue:
			return d.value, true
		}
	case *types.Err, *types.Unknown:
		return k, false
	}
	return nil, false
}

// Get implements traits.Indexer.
func (d *descendant) Get(key ref.Val) ref.Val {
	v, found := d.Find(key)
	if !found {
		return types.ValOrErr(v, "no such key: %v", key)
	}
	return v
}

// Contains implements traits.Container.
func (d *descendant) Contains(key ref.Val) ref.Val {
	_, found := d.Find(key)
	return types.Bool(found)
}

// Size implements traits.Sizer.
func (d *descendant) Size() ref.Val { return types.Int(3) }

// Iterator implements traits.Iterable.
func (d *descendant) Iterator() traits.Iterator { return d.general().Iterator() }

// ConvertToNative implements ref.Val.
func (d *descendant) ConvertToNative(typeDesc reflect.Type) (any, error) {
	return d.general().ConvertToNative(typeDesc)
}

// ConvertToType implements ref.Val.
func (d *descendant) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case types.MapType:
		return d
	case types.TypeType:
		return types.MapType
	}
	return d.general().ConvertToType(typeVal)
}

// Equal implements ref.Val.
func (d *descendant) Equal(other ref.Val) ref.Val { return d.general().Equal(other) }

// Type implements ref.Val.
func (d *descendant) Type() ref.Type { return types.MapType }

// Value implements ref.Val.
func (d *descendant) Value() any { return d.general().Value() }

// String formats the entry like a CEL map.
func (d *descendant) String() string { return fmt.Sprint(d.general()) }

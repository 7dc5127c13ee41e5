package cel

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// findDuplicates scans a list with CEL equality (ref.Val Equal: 1, 1u and
// 1.0 are equal; NaN equals nothing). It returns the values that occur more
// than once, each once, in the order their first repeat appears, and the
// indexes of every occurrence after the first.
//
// Elements are bucketed by a canonical key that equal values share, then
// compared with Equal within a bucket, so the work is about linear. One
// departure from CEL equality keeps the relation transitive: an int or
// uint that a double cannot represent exactly (beyond ±2^53) only equals
// the same integer, not the nearest double (CEL's == would compare it to a
// double after rounding it).
func findDuplicates(list traits.Lister) (dups []ref.Val, indexes []int64) {
	type rep struct {
		index    int
		reported bool
	}
	buckets := map[string][]*rep{}
	var elems []ref.Val
	k := &keyer{}
	it := list.Iterator()
	for i := 0; it.HasNext() == types.True; i++ {
		v := it.Next()
		elems = append(elems, v)
		var sb strings.Builder
		k.key(&sb, v)
		key := sb.String()
		var match *rep
		for _, r := range buckets[key] {
			if elems[r.index].Equal(v) == types.True {
				match = r
				break
			}
		}
		if match == nil {
			buckets[key] = append(buckets[key], &rep{index: i})
			continue
		}
		indexes = append(indexes, int64(i))
		if !match.reported {
			match.reported = true
			dups = append(dups, elems[match.index])
		}
	}
	return dups, indexes
}

// keyer writes canonical keys: values equal for duplicates get equal keys,
// and values with equal keys are equal except in the rare buckets of
// values without a JSON form, where Equal decides. Every key is
// self-delimiting (strings are quoted, numbers never hold ",:]}"), so
// concatenations are unambiguous.
type keyer struct {
	nan int // NaN equals nothing: each one gets a key of its own
}

func (k *keyer) key(sb *strings.Builder, v ref.Val) {
	switch t := v.(type) {
	case types.Null:
		sb.WriteString("n")
	case types.Bool:
		if t {
			sb.WriteString("t")
		} else {
			sb.WriteString("f")
		}
	case types.Int:
		if f := float64(t); f >= -(1<<63) && f < 1<<63 && int64(f) == int64(t) {
			k.number(sb, f)
		} else {
			sb.WriteString("#i")
			sb.WriteString(strconv.FormatInt(int64(t), 10))
		}
	case types.Uint:
		if f := float64(t); f < 1<<64 && uint64(f) == uint64(t) {
			k.number(sb, f)
		} else if uint64(t) <= math.MaxInt64 {
			sb.WriteString("#i")
			sb.WriteString(strconv.FormatUint(uint64(t), 10))
		} else {
			sb.WriteString("#u")
			sb.WriteString(strconv.FormatUint(uint64(t), 10))
		}
	case types.Double:
		k.number(sb, float64(t))
	case types.String:
		sb.WriteString("s")
		sb.WriteString(strconv.Quote(string(t)))
	case types.Bytes:
		sb.WriteString("b")
		sb.WriteString(strconv.Quote(string(t)))
	case types.Timestamp, types.Duration:
		sb.WriteString("@")
		sb.WriteString(strconv.Quote(string(t.ConvertToType(types.StringType).(types.String))))
	case *types.Optional:
		if t.HasValue() {
			sb.WriteString("o")
			k.key(sb, t.GetValue())
		} else {
			sb.WriteString("o-")
		}
	case traits.Mapper:
		type entry struct{ k, v string }
		var entries []entry
		it := t.Iterator()
		for it.HasNext() == types.True {
			key := it.Next()
			var kb, vb strings.Builder
			k.key(&kb, key)
			k.key(&vb, t.Get(key))
			entries = append(entries, entry{kb.String(), vb.String()})
		}
		sort.Slice(entries, func(i, j int) bool {
			if entries[i].k != entries[j].k {
				return entries[i].k < entries[j].k
			}
			return entries[i].v < entries[j].v
		})
		sb.WriteString("{")
		for _, e := range entries {
			sb.WriteString(e.k)
			sb.WriteString(":")
			sb.WriteString(e.v)
			sb.WriteString(",")
		}
		sb.WriteString("}")
	case traits.Lister:
		sb.WriteString("[")
		it := t.Iterator()
		for it.HasNext() == types.True {
			k.key(sb, it.Next())
			sb.WriteString(",")
		}
		sb.WriteString("]")
	default:
		// Anything else (types, protobuf messages...) shares a bucket per
		// type; Equal sorts them out.
		sb.WriteString("?")
		sb.WriteString(v.Type().TypeName())
	}
}

// number keys a number by its float64 value.
func (k *keyer) number(sb *strings.Builder, f float64) {
	if math.IsNaN(f) {
		k.nan++
		sb.WriteString("NaN")
		sb.WriteString(strconv.Itoa(k.nan))
		return
	}
	if f == 0 {
		f = 0 // -0 == 0
	}
	sb.WriteString("#")
	sb.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
}

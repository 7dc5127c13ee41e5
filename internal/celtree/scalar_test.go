package celtree

import (
	"math"
	"runtime"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// ScalarValue and StringAt must give the very values cel-go's adapter
// gives: same type, same Go value, equal by ==, by Equal and as map keys.
func TestScalarValue(t *testing.T) {
	long := string(make([]byte, 1000))
	for _, v := range []any{nil, true, false, int64(0), int64(7), int64(255), int64(256), int64(-1 << 63), int64(math.MaxInt64),
		0.0, 1.5, math.Inf(-1), "", "a", "snake_case", long} {
		got, want := ScalarValue(v), types.DefaultTypeAdapter.NativeToValue(v)
		if got.Type() != want.Type() || got.Value() != want.Value() || got != want || got.Equal(want) != types.True {
			t.Errorf("ScalarValue(%#v) = %#v (%v), want %#v (%v)", v, got, got.Type(), want, want.Type())
		}
		m := map[ref.Val]int{want: 1}
		if m[got] != 1 {
			t.Errorf("ScalarValue(%#v) is not found as a map key", v)
		}
	}
	// Not a JSON scalar: converted as cel-go converts it.
	if got := ScalarValue(int32(3)); got != types.Int(3) {
		t.Errorf("ScalarValue(int32(3)) = %#v", got)
	}
	keys := []string{"name", "", long}
	for i := range keys {
		got := StringAt(&keys[i])
		if got != types.String(keys[i]) || got.Type() != types.StringType {
			t.Errorf("StringAt(%q) = %#v", keys[i], got)
		}
	}
}

// The views allocate nothing, and the storage they share outlives the
// value it was read from.
func TestScalarValueAllocs(t *testing.T) {
	boxed := []any{"a string", int64(1 << 40), 2.5, true}
	key := "key"
	var sink ref.Val
	if n := testing.AllocsPerRun(100, func() {
		for _, v := range boxed {
			sink = ScalarValue(v)
		}
		sink = StringAt(&key)
	}); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
	_ = sink
	views := make([]ref.Val, len(boxed))
	for i, v := range boxed {
		views[i] = ScalarValue(v)
	}
	boxed = nil
	runtime.GC()
	if views[0] != types.String("a string") || views[1] != types.Int(1<<40) || views[2] != types.Double(2.5) || views[3] != types.True {
		t.Errorf("views after a collection: %#v", views)
	}
}

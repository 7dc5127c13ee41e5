package loader

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/internal/keyed"
)

// These tests keep the 32-bit integers of a node (see TestNodeSize) from
// ever wrapping.

// TestBytesCeiling: no limit lets through a document longer than MaxBytes,
// so that its lines, columns and offsets fit in an int32. A caller's
// higher Limits.Bytes is lowered to it, a file larger than it is refused
// before it is read whatever the limit asked for, and a ruleset header
// asking for more is refused at the number.
func TestBytesCeiling(t *testing.T) {
	if MaxBytes >= math.MaxInt32 {
		t.Fatalf("MaxBytes = %d: the column just past a line of that many characters would not fit in an int32", MaxBytes)
	}
	for _, b := range []int64{MaxBytes + 1, math.MaxInt32, math.MaxInt32 + 1, 1 << 40, math.MaxInt64} {
		if got := (Limits{Bytes: b}).withDefaults().Bytes; got != MaxBytes {
			t.Errorf("Limits{Bytes: %d}.withDefaults().Bytes = %d, want %d", b, got, MaxBytes)
		}
	}
	if got := (Limits{Bytes: MaxBytes}).withDefaults().Bytes; got != MaxBytes {
		t.Errorf("Limits{Bytes: MaxBytes} lowered to %d", got)
	}

	// A small document under the highest limit reads and parses (limit+1
	// does not overflow).
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(`{"a": [1, 2]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(small, math.MaxInt64); err != nil || string(data) != `{"a": [1, 2]}` {
		t.Fatalf("ReadFile(small, MaxInt64) = %q, %v", data, err)
	}
	if _, err := ParseFile(small, Options{Limits: Limits{Bytes: math.MaxInt64}}); err != nil {
		t.Fatalf("ParseFile(small) under the highest limit: %v", err)
	}

	// A file of MaxBytes+1 bytes (sparse: nothing is written) is refused
	// before it is read, under any limit.
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxBytes + 1); err != nil {
		f.Close()
		t.Skipf("cannot make a sparse file of %d bytes: %v", MaxBytes+1, err)
	}
	f.Close()
	for _, limit := range []int64{MaxBytes + 1, math.MaxInt32 + 1, math.MaxInt64} {
		_, err := ReadFile(big, limit)
		var le *Error
		if !errors.As(err, &le) || le.Limit != "bytes" || !strings.Contains(le.Msg, "more than the limit of 1073741824 bytes") {
			t.Errorf("ReadFile(%d bytes, limit %d) = %v, want it refused at MaxBytes", MaxBytes+1, limit, err)
		}
		if _, err := ParseFile(big, Options{Limits: Limits{Bytes: limit}}); err == nil || !errors.Is(err, ErrLimit) {
			t.Errorf("ParseFile(%d bytes, limit %d) = %v, want a limit error", MaxBytes+1, limit, err)
		}
	}

	// A ruleset header cannot raise the limit past MaxBytes.
	for _, c := range []struct {
		bytes string
		ok    bool
	}{{"1073741824", true}, {"1073741825", false}, {"4294967296", false}, {"9223372036854775807", false}} {
		header := "name: t\ntag: v1\nloader:\n  limits: {bytes: " + c.bytes + "}\n"
		spec, err := ReadRulesetSpec("ruleset.yaml", []byte(header))
		switch {
		case c.ok && err != nil:
			t.Errorf("limits.bytes %s: %v", c.bytes, err)
		case c.ok && spec.Loader.Limits.Bytes != MaxBytes:
			t.Errorf("limits.bytes %s read as %d", c.bytes, spec.Loader.Limits.Bytes)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "ruleset.yaml:4:19: limits.bytes: "+c.bytes+" is above 1073741824")):
			t.Errorf("limits.bytes %s: %v, want it refused at 4:19", c.bytes, err)
		}
	}
}

// TestTreePositionRange: a tree's positions and offsets are checked as
// they are decoded: one that does not fit in an int32, or an offset past
// the input, makes the tree bad (and the file parsed), never a position
// that wrapped.
func TestTreePositionRange(t *testing.T) {
	opts := DefaultOptions()
	opts.Limits = opts.Limits.withDefaults()
	tree := func(verbatim byte, nums ...uint64) []byte {
		out := keyed.AppendTable(nil, nil)
		out = binary.AppendUvarint(out, 1) // values counted
		out = binary.AppendUvarint(out, 0) // depth
		out = append(out, verbatim, byte(Null))
		for _, v := range nums {
			out = binary.AppendUvarint(out, v)
		}
		return out
	}
	data := []byte("null")
	doc, err := decodeTree("a.json", data, opts, tree(0, math.MaxInt32, math.MaxInt32))
	if err != nil || doc.Root.Pos != (Pos{math.MaxInt32, math.MaxInt32}) {
		t.Fatalf("the largest position: %v, %v", doc, err)
	}
	if doc, err := decodeTree("a.json", data, opts, tree(1, 1, 1, 0, 4)); err != nil || doc.Root.Offset != 0 || doc.JSONEnd(doc.Root) != 4 {
		t.Fatalf("a verbatim tree: %v, %v", doc, err)
	}
	for _, nums := range [][]uint64{
		{math.MaxInt32 + 1, 1},
		{1, math.MaxInt32 + 1},
		{1 << 32, 1},
		{1, 1<<32 + 1},
		{math.MaxUint64, 1},
	} {
		if _, err := decodeTree("a.json", data, opts, tree(0, nums...)); err != errBadTree {
			t.Errorf("position %v: %v, want errBadTree", nums, err)
		}
	}
	for _, nums := range [][]uint64{{1, 1, 0, 5}, {1, 1, 5, 0}, {1, 1, 1 << 32, 4}, {1, 1, 0, 1<<32 + 4}} {
		if _, err := decodeTree("a.json", data, opts, tree(1, nums...)); err != errBadTree {
			t.Errorf("verbatim offsets %v: %v, want errBadTree", nums[2:], err)
		}
	}
	small := opts
	small.Limits.Bytes = 3
	if _, err := decodeTree("a.json", data, small, tree(0, 1, 1)); err != errBadTree {
		t.Errorf("an input over the bytes limit: %v, want errBadTree", err)
	}
}

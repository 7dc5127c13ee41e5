package keyed

import (
	"bytes"
	"testing"
)

func TestReadAppend(t *testing.T) {
	entries := map[Key][]byte{{2}: []byte("two"), {1}: nil, {3}: bytes.Repeat([]byte("x"), 300)}
	data := Append([]byte("M"), entries)
	if data[1] != 1 || !bytes.Equal(Append([]byte("M"), entries), data) {
		t.Fatal("not in key order, or not deterministic")
	}
	got, err := Read(data[1:], "test")
	if err != nil || len(got) != 3 || string(got[Key{2}]) != "two" || len(got[Key{3}]) != 300 || len(got[Key{1}]) != 0 {
		t.Fatalf("read back %v, %v", got, err)
	}
	for _, bad := range [][]byte{{1, 2, 3}, append(make([]byte, 32), 0xff), append(make([]byte, 32), 5, 1)} {
		if _, err := Read(bad, "test"); err == nil {
			t.Errorf("Read(%v) accepted", bad)
		}
	}
}

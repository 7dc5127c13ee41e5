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

func TestTable(t *testing.T) {
	var tab Table
	var out []byte
	for _, s := range []string{"b", "a", "b", "", "a"} {
		out = tab.AppendIndex(out, s)
	}
	if string(out) != "\x00\x01\x00\x02\x01" || len(tab.Items()) != 3 || tab.Items()[0] != "b" || tab.Items()[2] != "" {
		t.Fatalf("indexes %q, items %q", out, tab.Items())
	}
	data := AppendTable(nil, tab.Items())
	items, rest, ok := ReadTable(append(data, 7))
	if !ok || len(items) != 3 || items[1] != "a" || string(rest) != "\x07" {
		t.Fatalf("read back %q, rest %q, %v", items, rest, ok)
	}
	for _, bad := range [][]byte{nil, {5}, {1, 9, 'x'}, {0xff}} {
		if _, _, ok := ReadTable(bad); ok {
			t.Errorf("ReadTable(%v) accepted", bad)
		}
	}
}

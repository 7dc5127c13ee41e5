// Package keyed reads and writes what celint's start-up files (checked
// expressions, parsed rule files) are made of: lists of entries keyed by a
// SHA-256 hash, each written as its key, its length as an unsigned varint
// and its bytes, in key order so that the same entries give the same
// bytes; and tables of the strings the entries refer to by index.
package keyed

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"maps"
	"slices"
)

// Key is an entry's key: a SHA-256 hash.
type Key [sha256.Size]byte

// Read reads a list of entries that fills data; what names the file's
// content in errors. The entries share data's bytes.
func Read(data []byte, what string) (map[Key][]byte, error) {
	out := map[Key][]byte{}
	for len(data) > 0 {
		if len(data) < len(Key{}) {
			return nil, errors.New("celint: " + what + ": truncated key")
		}
		var k Key
		copy(k[:], data)
		data = data[len(k):]
		n, w := binary.Uvarint(data)
		if w <= 0 || n > uint64(len(data)-w) {
			return nil, errors.New("celint: " + what + ": bad length")
		}
		out[k] = data[w : w+int(n)]
		data = data[w+int(n):]
	}
	return out, nil
}

// Append appends the entries to out, in key order.
func Append(out []byte, entries map[Key][]byte) []byte {
	for _, k := range slices.SortedFunc(maps.Keys(entries), func(a, b Key) int { return bytes.Compare(a[:], b[:]) }) {
		out = append(out, k[:]...)
		out = binary.AppendUvarint(out, uint64(len(entries[k])))
		out = append(out, entries[k]...)
	}
	return out
}

// Table numbers strings in the order of their first use, for an encoding
// that writes each string once and refers to it by its index.
type Table struct {
	index map[string]int
	items []string
}

// AppendIndex appends the index of s, an unsigned varint, numbering s if
// it is new.
func (t *Table) AppendIndex(out []byte, s string) []byte {
	i, ok := t.index[s]
	if !ok {
		if t.index == nil {
			t.index = map[string]int{}
		}
		i = len(t.items)
		t.index[s] = i
		t.items = append(t.items, s)
	}
	return binary.AppendUvarint(out, uint64(i))
}

// Items returns the strings in the order of their indexes.
func (t *Table) Items() []string { return t.items }

// AppendTable appends a list of strings: their number, then each as its
// length and its bytes, all lengths unsigned varints.
func AppendTable(out []byte, items []string) []byte {
	out = binary.AppendUvarint(out, uint64(len(items)))
	for _, s := range items {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return out
}

// ReadTable reads what AppendTable wrote at the start of data and returns
// the rest; false when data does not start with such a list.
func ReadTable(data []byte) (items []string, rest []byte, ok bool) {
	n, w := binary.Uvarint(data)
	if w <= 0 || n > uint64(len(data)) {
		return nil, nil, false
	}
	data = data[w:]
	items = make([]string, 0, n)
	for range n {
		l, w := binary.Uvarint(data)
		if w <= 0 || l > uint64(len(data)-w) {
			return nil, nil, false
		}
		items = append(items, string(data[w:w+int(l)]))
		data = data[w+int(l):]
	}
	return items, data, true
}

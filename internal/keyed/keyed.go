// Package keyed reads and writes the entry lists of celint's start-up
// files (checked expressions, parsed rule files): entries keyed by a
// SHA-256 hash, each written as its key, its length as an unsigned varint
// and its bytes, in key order so that the same entries give the same bytes.
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

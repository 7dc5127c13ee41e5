package loader

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// TestReadAtMost: a file is read whole into one buffer of the size its
// Stat gave, whatever that size says, and never past the limit.
func TestReadAtMost(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 100) // 1,000 bytes
	for _, tc := range []struct {
		name       string
		size, most int64
		want       int // bytes read
	}{
		{"size exact", 1000, 2000, 1000},
		{"file grew", 10, 2000, 1000},
		{"file shrank", 5000, 9000, 1000},
		{"size unknown", 0, 2000, 1000},
		{"negative size", -1, 2000, 1000},
		{"limit reached", 1000, 600, 600},
		{"limit reached, grown", 10, 600, 600},
		{"limit one past", 1000, 1001, 1000},
	} {
		for _, slow := range []bool{false, true} {
			var r io.Reader = bytes.NewReader(data)
			if slow {
				r = iotest.OneByteReader(r)
			}
			got, err := readAtMost(r, tc.size, tc.most)
			if err != nil {
				t.Errorf("%s (slow %v): %v", tc.name, slow, err)
				continue
			}
			if !bytes.Equal(got, data[:tc.want]) {
				t.Errorf("%s (slow %v): read %d bytes, want the first %d", tc.name, slow, len(got), tc.want)
			}
			if tc.size >= int64(tc.want) && cap(got) > int(min(tc.size+1, tc.most)) {
				t.Errorf("%s (slow %v): buffer of %d bytes for a %d-byte file", tc.name, slow, cap(got), tc.size)
			}
		}
	}
	boom := errors.New("boom")
	if _, err := readAtMost(iotest.ErrReader(boom), 10, 100); !errors.Is(err, boom) {
		t.Errorf("a read error: got %v, want %v", err, boom)
	}
}

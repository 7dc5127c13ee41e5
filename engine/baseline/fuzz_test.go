package baseline

import (
	"bytes"
	"testing"
)

// FuzzRead: reading any bytes never panics, an error names the file, and a
// baseline that reads writes back to bytes that read to the same records.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"version": 1, "findings": [{"file": "a.yaml", "rule": "r", "code": "c", "pointer": "/x", "count": 2, "message": "m"}]}`))
	f.Add([]byte(`{"version": 1, "findings": []}`))
	f.Add([]byte("{\n\"version\": 2}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Read("b.json", data)
		if err != nil {
			if !bytes.HasPrefix([]byte(err.Error()), []byte("b.json")) {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := b.Write(&out); err != nil {
			t.Fatal(err)
		}
		again, err := Read("b.json", out.Bytes())
		if err != nil {
			t.Fatalf("what Write wrote does not read: %v\n%s", err, out.Bytes())
		}
		var out2 bytes.Buffer
		if err := again.Write(&out2); err != nil || !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatalf("not a fixed point:\n%s\n%s", out.Bytes(), out2.Bytes())
		}
	})
}

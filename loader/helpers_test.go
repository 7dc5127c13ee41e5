package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/celint/celint/internal/sharedtest"
)

// sharedFixtures is the upstream serialization fixture folder (skips when
// the shared folder is absent, fails under CI).
func sharedFixtures(t *testing.T) string {
	return sharedtest.Path(t, "upstream", "mcpdesc-specification", "spec", "draft", "serialization-fixtures")
}

// checkDocument verifies the invariants every parsed document must keep and
// returns a description of the first violation ("" when none).
func checkDocument(doc *Document) string {
	if !json.Valid(doc.JSON()) {
		return fmt.Sprintf("Document.JSON is not valid JSON: %q", truncate(doc.JSON()))
	}
	v, err := decodeJSON(doc.JSON())
	if err != nil {
		return "decoding Document.JSON: " + err.Error()
	}
	if !sameValue(v, doc.Root.Value()) {
		return fmt.Sprintf("Document.JSON decodes to %#v, Root.Value is %#v", v, doc.Root.Value())
	}
	count := 0
	var problem string
	var walk func(n *Node)
	walk = func(n *Node) {
		if problem != "" {
			return
		}
		count++
		if got := doc.NodeAt(int(n.Offset)); got != n {
			problem = fmt.Sprintf("NodeAt(%d) for %q returned %v", n.Offset, n.Pointer(), got)
			return
		}
		if got, ok := doc.Lookup(n.Pointer()); !ok || got != n {
			problem = fmt.Sprintf("Lookup(%q) did not return the node", n.Pointer())
			return
		}
		if end := doc.JSONEnd(n); end <= int(n.Offset) || end > len(doc.JSON()) || !json.Valid(doc.JSON()[n.Offset:end]) {
			problem = fmt.Sprintf("bad span [%d,%d) for %q", n.Offset, end, n.Pointer())
			return
		} else if v, err := decodeJSON(doc.JSON()[n.Offset:end]); err != nil || !sameValue(v, n.Value()) {
			problem = fmt.Sprintf("span [%d,%d) of %q reads %#v, the node holds %#v", n.Offset, end, n.Pointer(), v, n.Value())
			return
		}
		if n.Pos.Line < 1 || n.Pos.Col < 1 {
			problem = fmt.Sprintf("node %q has no position", n.Pointer())
			return
		}
		for i, c := range n.Children() {
			if c.Parent != n {
				problem = fmt.Sprintf("child %d of %q has the wrong parent", i, n.Pointer())
				return
			}
			if n.Kind == Array && c.Index() != i || n.Kind == Object && (c.Index() != -1 || c.KeyPos.Line < 1) {
				problem = fmt.Sprintf("child %d of %q: Index %d KeyPos %v", i, n.Pointer(), c.Index(), c.KeyPos)
				return
			}
			walk(c)
		}
	}
	walk(doc.Root)
	if problem != "" {
		return problem
	}
	if count != doc.Values {
		return fmt.Sprintf("Values = %d, the tree has %d nodes", doc.Values, count)
	}
	return ""
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// sameValue compares a value decoded with UseNumber to a loader value,
// modulo number types.
// decodeJSON decodes data as checkDocument compares it with a tree: numbers
// as json.Number.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func sameValue(decoded, ours any) bool {
	switch d := decoded.(type) {
	case json.Number:
		switch o := ours.(type) {
		case int64:
			// The input's own text may write an integer as 10.0 or 1e3.
			r, ok := new(big.Rat).SetString(d.String())
			return ok && r.Cmp(new(big.Rat).SetInt64(o)) == 0
		case float64:
			// The nearest float64 by math/big: strconv.ParseFloat misreads
			// some literals of more than 800 digits.
			if r, ok := new(big.Rat).SetString(d.String()); ok {
				f, _ := r.Float64()
				return f == o
			}
			f, err := d.Float64()
			return err == nil && (f == o || math.IsNaN(f) && math.IsNaN(o))
		}
		return false
	case []any:
		o, ok := ours.([]any)
		if !ok || len(o) != len(d) {
			return false
		}
		for i := range d {
			if !sameValue(d[i], o[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		o, ok := ours.(map[string]any)
		if !ok || len(o) != len(d) {
			return false
		}
		for k, v := range d {
			ov, ok := o[k]
			if !ok || !sameValue(v, ov) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(decoded, ours)
}

// mustParse parses src (the format from name) with opts and checks the
// document invariants.
func mustParse(t *testing.T, name, src string, opts Options) *Document {
	t.Helper()
	doc, err := Parse(name, []byte(src), opts)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	if p := checkDocument(doc); p != "" {
		t.Fatalf("Parse(%s): %s", name, p)
	}
	return doc
}

// parseErr parses src expecting an *Error.
func parseErr(t *testing.T, name, src string, opts Options) *Error {
	t.Helper()
	doc, err := Parse(name, []byte(src), opts)
	if err == nil {
		t.Fatalf("Parse(%s, %q) succeeded with %s; want an error", name, shortSrc(src), truncate(doc.JSON()))
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Parse(%s): error %T is not *Error: %v", name, err, err)
	}
	return e
}

func shortSrc(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// wantErr checks that e is at pos (zero: any) and its message contains each
// of subs.
func wantErr(t *testing.T, e *Error, pos string, subs ...string) {
	t.Helper()
	if pos != "" && e.Pos.String() != pos {
		t.Errorf("error %q at %v, want %s", e.Error(), e.Pos, pos)
	}
	for _, s := range subs {
		if !strings.Contains(e.Error(), s) {
			t.Errorf("error %q does not mention %q", e.Error(), s)
		}
	}
}

func jsonValue(t *testing.T, src string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("bad test JSON %q: %v", src, err)
	}
	return v
}

// allowAll rejects nothing.
var allowAll = Options{}

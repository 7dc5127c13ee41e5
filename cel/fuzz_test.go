package cel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/traits"
)

// decodeJSON decodes JSON into the document form: integers that fit int64
// become int64, other numbers float64. ok is false for invalid JSON. big
// reports an integer beyond ±2^53 (where CEL's int/double equality is not
// transitive).
func decodeJSON(data []byte) (v any, big bool, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, false, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false, false // trailing data
	}
	var conv func(any) (any, bool)
	conv = func(x any) (any, bool) {
		switch t := x.(type) {
		case json.Number:
			if i, err := t.Int64(); err == nil {
				if i > 1<<53 || i < -(1<<53) {
					big = true
				}
				return i, true
			}
			f, err := t.Float64()
			if err != nil || math.IsInf(f, 0) {
				return nil, false
			}
			return f, true
		case []any:
			for i := range t {
				c, ok := conv(t[i])
				if !ok {
					return nil, false
				}
				t[i] = c
			}
			return t, true
		case map[string]any:
			for k := range t {
				c, ok := conv(t[k])
				if !ok {
					return nil, false
				}
				t[k] = c
			}
			return t, true
		}
		return x, true
	}
	v, ok = conv(raw)
	return v, big, ok
}

var (
	fuzzEnvOnce sync.Once
	fuzzEnv     *Env
	fuzzEnvErr  error
)

// sharedFuzzEnv is one environment (with a string variable p) for all fuzz
// iterations, so programs and schemas are cached across them.
func sharedFuzzEnv(t testing.TB) *Env {
	fuzzEnvOnce.Do(func() {
		e, err := NewEnv(Config{ReferenceKey: "$ref"})
		if err == nil {
			e, err = e.Extend(Var{Name: "p", Type: gocel.StringType})
		}
		fuzzEnv, fuzzEnvErr = e, err
	})
	if fuzzEnvErr != nil {
		t.Fatal(fuzzEnvErr)
	}
	return fuzzEnv
}

func fuzzEval(t *testing.T, expr string, act map[string]any) (any, error) {
	t.Helper()
	p, err := sharedFuzzEnv(t).Compile(expr, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := p.Eval(context.Background(), act)
	if errors.Is(err, ErrPanic) {
		t.Fatalf("%s panicked: %v", expr, err)
	}
	if err != nil {
		return nil, err
	}
	return ToNative(v)
}

func FuzzIsURI(f *testing.F) {
	for _, s := range []string{
		"https://auth.example.com/authorize", "urn:isbn:0451450523", "example:///account",
		"not a valid URI", "http://[::1]:80/a?b#c", "http://[v7.x]/", "//a@b:1/c", "../x", "#f",
		"a:%41", "http://[fe80::1%25en0]/", "", ":", "a:", "[", "http://a:b@[::ffff:1.2.3.4]:/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, r := isURI(s), isURIReference(s)
		if u && !r {
			t.Fatalf("isURI(%q) but not isURIReference", s)
		}
		if r {
			for i := 0; i < len(s); i++ {
				if s[i] <= ' ' || s[i] >= 0x7f || strings.IndexByte("\"<>\\^`{|}", s[i]) >= 0 {
					t.Fatalf("isURIReference(%q) accepted byte %q", s, s[i])
				}
			}
		}
		if u {
			if i := strings.IndexByte(s, ':'); i < 1 || !validScheme(s[:i]) {
				t.Fatalf("isURI(%q) without a scheme", s)
			}
		}
	})
}

func FuzzJSONPointer(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b/c":{"~":2}}],"":3}`), "/a/1/b~1c/~0")
	f.Add([]byte(`[0,1,2]`), "/01")
	f.Add([]byte(`{"a b":1}`), "#/a%20b")
	f.Add([]byte(`{"$ref":"#/x","x":{"$ref":"#"}}`), "#")
	f.Add([]byte(`null`), "/~")
	f.Add([]byte(`{"a":{"$ref":"#/a"}}`), "/a")
	f.Fuzz(func(t *testing.T, data []byte, ptr string) {
		start := time.Now()
		defer func() {
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("SLOW %v: %q %q", d, data, ptr)
			}
		}()
		doc, _, ok := decodeJSON(data)
		if !ok {
			return
		}
		act := map[string]any{"self": doc, "root": doc, "path": "", "p": ptr}
		got, err := fuzzEval(t, `jsonPointer(self, p)`, act)
		tokens, perr := parsePointer(ptr)
		if (err != nil) != (perr != nil) {
			t.Fatalf("jsonPointer error %v, parse error %v", err, perr)
		}
		if err != nil {
			return
		}
		// Re-escaping the tokens addresses the same value.
		var sb strings.Builder
		for _, tok := range tokens {
			sb.WriteString("/")
			sb.WriteString(escapePointerToken(tok))
		}
		act["p"] = sb.String()
		again, err := fuzzEval(t, `jsonPointer(self, p)`, act)
		if err != nil {
			t.Fatalf("re-escaped pointer %q: %v", sb.String(), err)
		}
		gj, _ := json.Marshal(got)
		aj, _ := json.Marshal(again)
		if !bytes.Equal(gj, aj) {
			t.Fatalf("pointer %q gave %s, re-escaped %q gave %s", ptr, gj, sb.String(), aj)
		}
		// resolve/resolveAll on the found value never panic (errors are fine).
		_, _ = fuzzEval(t, `resolve(root, jsonPointer(self, p).orValue(null))`, act)
		_, _ = fuzzEval(t, `resolveAll(root, jsonPointer(self, p).orValue(null))`, act)
	})
}

func FuzzDuplicates(f *testing.F) {
	f.Add([]byte(`[1,2,1,3,2,1]`))
	f.Add([]byte(`[1,1.0,"1",[1],[1.0],{"a":1},{"a":1.0},null,null,true,true]`))
	f.Add([]byte(`[9007199254740993, 9007199254740992.0, 9007199254740992]`))
	f.Add([]byte(`[{"a":[1,{"b":2}]},{"a":[1,{"b":2.0}]}]`))
	f.Add([]byte(`["a,","a",",a"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, big, ok := decodeJSON(data)
		if !ok {
			return
		}
		list, isList := doc.([]any)
		if !isList {
			list = []any{doc}
		}
		act := map[string]any{"self": list, "root": list, "path": "", "p": ""}
		gotIdx, err := fuzzEval(t, `duplicateIndexes(self)`, act)
		if err != nil {
			if errors.Is(err, ErrCostLimit) {
				return
			}
			t.Fatal(err)
		}
		gotDups, err := fuzzEval(t, `duplicates(self)`, act)
		if err != nil {
			if errors.Is(err, ErrCostLimit) {
				return
			}
			t.Fatal(err)
		}
		// Brute force with CEL equality.
		lv := types.DefaultTypeAdapter.NativeToValue(list).(traits.Lister)
		n := len(list)
		var want []any
		firstOf := map[int]bool{}
		var wantDups []int
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				if lv.Get(types.Int(i)).Equal(lv.Get(types.Int(j))) == types.True {
					want = append(want, int64(i))
					if !firstOf[j] {
						firstOf[j] = true
						wantDups = append(wantDups, j)
					}
					break
				}
			}
		}
		if big {
			return // CEL's int/double equality is not transitive there
		}
		if want == nil {
			want = []any{}
		}
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(gotIdx)
		if !bytes.Equal(wj, gj) {
			t.Fatalf("duplicateIndexes(%s) = %s, want %s", data, gj, wj)
		}
		if len(gotDups.([]any)) != len(wantDups) {
			t.Fatalf("duplicates(%s) = %v, want the elements at %v", data, gotDups, wantDups)
		}
	})
}

func FuzzSchemaErrors(f *testing.F) {
	f.Add([]byte(`{"a":"x","b":[1,2,2]}`), []byte(`{"properties":{"a":{"type":"integer"},"b":{"uniqueItems":true,"items":{"maximum":1}}}}`))
	f.Add([]byte(`1`), []byte(`{"$ref":"https://example.com/s.json"}`))
	f.Add([]byte(`1`), []byte(`{"$ref":"file:///etc/passwd"}`))
	f.Add([]byte(`"x"`), []byte(`{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`))
	f.Add([]byte(`[1]`), []byte(`{"prefixItems":[{"type":"string"}],"pattern":"(a+)+$"}`))
	f.Add([]byte(`{}`), []byte(`{"$schema":"http://json-schema.org/draft-04/schema#","required":["a"]}`))
	f.Add([]byte(`{}`), []byte(`false`))
	f.Fuzz(func(t *testing.T, value, schema []byte) {
		v, _, ok := decodeJSON(value)
		if !ok {
			return
		}
		s, _, ok := decodeJSON(schema)
		if !ok {
			return
		}
		act := map[string]any{"self": v, "root": s, "path": "", "p": ""}
		got, err := fuzzEval(t, `schemaErrors(self, root)`, act)
		if err != nil {
			if !strings.Contains(err.Error(), "invalid schema") && !errors.Is(err, ErrCostLimit) {
				t.Fatalf("schemaErrors error without the invalid-schema prefix: %v", err)
			}
			return
		}
		for _, it := range got.([]any) {
			m := it.(map[string]any)
			ptr, _ := m["pointer"].(string)
			if _, err := parsePointer(ptr); err != nil {
				t.Fatalf("bad instance pointer %q: %v", ptr, err)
			}
			if msg, _ := m["message"].(string); msg == "" {
				t.Fatalf("empty message: %v", m)
			}
		}
		matches, err := fuzzEval(t, `matchesSchema(self, root)`, act)
		if err != nil {
			t.Fatalf("matchesSchema failed where schemaErrors did not: %v", err)
		}
		if matches != (len(got.([]any)) == 0) {
			t.Fatalf("matchesSchema = %v but %d errors", matches, len(got.([]any)))
		}
	})
}

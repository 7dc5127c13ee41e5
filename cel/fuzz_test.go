package cel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/traits"

	"github.com/celint/celint/internal/jsonpointer"
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
		tokens, perr := jsonpointer.ParseFragment(ptr)
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
			sb.WriteString(jsonpointer.Escape(tok))
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
	f.Add([]byte(`1`), []byte(`{"$ref":"#/$defs/x"}`))
	f.Add([]byte(`1`), []byte(`{"$ref":"#nope","type":"wrong"}`))
	f.Add([]byte(`1`), []byte(`{"$schema":"http://json-schema.org/draft-03/schema#"}`))
	f.Add([]byte(`1`), []byte(`{"$defs":{"a":{"$anchor":"x"},"b":{"$anchor":"x"}}}`))
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
		// A schema that does not compile is not an error (library version
		// 2): only the cost limit is.
		got, err := fuzzEval(t, `schemaErrors(self, root)`, act)
		if err != nil {
			if !errors.Is(err, ErrCostLimit) {
				t.Fatalf("schemaErrors error: %v", err)
			}
			return
		}
		problem, err := fuzzEval(t, `schemaError(root)`, act)
		if err != nil {
			t.Fatalf("schemaError error: %v", err)
		}
		if problem != "" {
			// One entry saying why, and matchesSchema false.
			want := []any{map[string]any{"pointer": "", "keyword": "", "message": "schema " + problem.(string)}}
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want)
			if !strings.HasPrefix(problem.(string), "does not compile: ") || !bytes.Equal(gj, wj) {
				t.Fatalf("schemaError = %q but schemaErrors = %s", problem, gj)
			}
		}
		for _, it := range got.([]any) {
			m := it.(map[string]any)
			ptr, _ := m["pointer"].(string)
			if _, err := jsonpointer.ParseFragment(ptr); err != nil {
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

// failIfSlow fails a fuzz iteration that took more than 5 seconds.
func failIfSlow(t *testing.T, start time.Time, data []byte, s string) {
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("SLOW %v: %q %q", d, data, s)
	}
}

// containsReference reports whether v (a native document value) holds a
// reference object: a map whose "$ref" member is a string.
func containsReference(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t["$ref"].(string); ok {
			return true
		}
		for _, c := range t {
			if containsReference(c) {
				return true
			}
		}
	case []any:
		for _, c := range t {
			if containsReference(c) {
				return true
			}
		}
	}
	return false
}

// FuzzResolve follows a reference to an arbitrary pointer in an arbitrary
// document: resolve and resolveAll never panic, either succeed or fail with
// an error, never return a reference object, and agree with each other.
func FuzzResolve(f *testing.F) {
	f.Add([]byte(`{"a":{"$ref":"#/b"},"b":{"c":{"$ref":"#/d"}},"d":1}`), "#/a")
	f.Add([]byte(`{"a":{"$ref":"#/a"}}`), "#/a")
	f.Add([]byte(`{"a":{"$ref":"#/b"},"b":{"$ref":"#/a"}}`), "#/b")
	f.Add([]byte(`{"a":{"x":{"$ref":"#"}}}`), "#/a")
	f.Add([]byte(`{"a":{"$ref":"https://example.com/s.json"}}`), "#/a")
	f.Add([]byte(`{"a b":{"$ref":"#/c~1d"},"c/d":[{"$ref":"#/e/0"}],"e":[true]}`), "#/a%20b")
	f.Add([]byte(`{"l":[{"$ref":"#/m"},{"$ref":"#/m"}],"m":{"n":[{"$ref":"#/o"}]},"o":"x"}`), "#/l")
	f.Add([]byte(`{"$ref":1,"a":{"$ref":"#/$ref"}}`), "#/a")
	f.Add([]byte(`{"a":{"$ref":"#/b","extra":1},"b":[]}`), "#/a")
	f.Add([]byte(`[{"$ref":"#/1"},{"$ref":"#/2"},{"$ref":"#/3"},null]`), "#/0")
	f.Add([]byte(`{"a":{"$ref":"#/b%"}}`), "#/a")
	f.Add([]byte(`{"a":{"$ref":"/b"},"b":0}`), "")
	f.Fuzz(func(t *testing.T, data []byte, ptr string) {
		defer failIfSlow(t, time.Now(), data, ptr)
		root, _, ok := decodeJSON(data)
		if !ok {
			return
		}
		act := map[string]any{"self": nil, "root": root, "path": "", "p": ptr}
		checkNoRef := func(what string, v any) {
			if containsReference(v) {
				gj, _ := json.Marshal(v)
				t.Fatalf("%s left a reference object: %s (root %s, p %q)", what, gj, data, ptr)
			}
		}
		// A reference to p, and the value at p itself when p is a pointer.
		res, rerr := fuzzEval(t, `resolve(root, {'$ref': p})`, act)
		if rerr == nil {
			if m, ok := res.(map[string]any); ok {
				if _, ok := m["$ref"].(string); ok {
					t.Fatalf("resolve returned a reference: %v", m)
				}
			}
		}
		all, aerr := fuzzEval(t, `resolveAll(root, {'$ref': p})`, act)
		if aerr == nil {
			checkNoRef("resolveAll", all)
			if rerr != nil {
				t.Fatalf("resolveAll succeeded but resolve failed: %v", rerr)
			}
			act["self"] = res
			again, err := fuzzEval(t, `resolveAll(root, self)`, act)
			if err == nil {
				gj, _ := json.Marshal(all)
				aj, _ := json.Marshal(again)
				if !bytes.Equal(gj, aj) {
					t.Fatalf("resolveAll(ref) = %s but resolveAll(resolve(ref)) = %s", gj, aj)
				}
			}
		}
		// The whole document, and a non-reference value (returned as is).
		if got, err := fuzzEval(t, `resolveAll(root, root)`, act); err == nil {
			checkNoRef("resolveAll(root)", got)
		}
		act["self"] = ptr
		if got, err := fuzzEval(t, `resolve(root, self)`, act); err != nil || got != ptr {
			t.Fatalf("resolve of a string = %v, %v", got, err)
		}
		if _, err := jsonpointer.ParseFragment(ptr); err == nil {
			_, _ = fuzzEval(t, `jsonPointer(root, p).hasValue() ? resolve(root, jsonPointer(root, p).value()) : null`, act)
		}
	})
}

// FuzzValueFunctions checks the per-value functions (jsonType, isInteger,
// isReference, jsonPointerEscape, jsonPointerTokens, isURI, isURIReference)
// through CEL on arbitrary JSON values and strings, against their
// definitions.
func FuzzValueFunctions(f *testing.F) {
	f.Add([]byte(`{"$ref":"#/a","a/b":{"~c":[1,2.0,2.5,-0,1e300,null,true,"s"]}}`), "/a~1b/~0c/0")
	f.Add([]byte(`[9007199254740993, 1e20, -1.5, 0.0]`), "#/a%20b")
	f.Add([]byte(`{"$ref":1}`), "~")
	f.Add([]byte(`"\u00e9\ud83d\ude00/~"`), "/~01")
	f.Add([]byte(`{"":{"":[]}}`), "//")
	f.Add([]byte(`null`), "https://example.com/a?b#c")
	f.Add([]byte(`{"a":{"$ref":"x","b":2}}`), "../a b")
	f.Add([]byte(`[{"n":"a"},{"n":1},{"n":1.0},{"n":"a"},{"n":2.5},{"m":"a"},"n",{"n":null},{"n":1e30}]`), "n")
	f.Add([]byte(`{"b":{"~1":[{"/":null}]},"a":[[],{}],"":"x"}`), "aGk=")
	f.Add([]byte(`{"$ref":"#/$defs/x","type":"wrong"}`), "aGk")
	f.Add([]byte(`{"$schema":"https://example.com/meta"}`), "a\nGk=")
	f.Fuzz(func(t *testing.T, data []byte, s string) {
		defer failIfSlow(t, time.Now(), data, s)
		v, _, ok := decodeJSON(data)
		if !ok {
			return
		}
		act := map[string]any{"self": v, "root": v, "path": "", "p": s}
		got, err := fuzzEval(t, `[jsonType(self), isInteger(self), isReference(self), jsonPointerEscape(p), isURI(p), isURIReference(p)]`, act)
		if err != nil {
			t.Fatal(err)
		}
		list := got.([]any)
		var wantType string
		wantInt, wantRef := false, false
		switch x := v.(type) {
		case nil:
			wantType = "null"
		case bool:
			wantType = "boolean"
		case int64:
			wantType, wantInt = "number", true
		case float64:
			wantType, wantInt = "number", x == math.Trunc(x)
		case string:
			wantType = "string"
		case []any:
			wantType = "array"
		case map[string]any:
			wantType = "object"
			_, wantRef = x["$ref"].(string)
		}
		if list[0] != wantType || list[1] != wantInt || list[2] != wantRef {
			t.Fatalf("%s: jsonType, isInteger, isReference = %v, %v, %v; want %v, %v, %v",
				data, list[0], list[1], list[2], wantType, wantInt, wantRef)
		}
		// hasNestedKey against a plain walk.
		var walk func(any) bool
		walk = func(x any) bool {
			switch y := x.(type) {
			case map[string]any:
				if _, ok := y[s]; ok {
					return true
				}
				for _, e := range y {
					if walk(e) {
						return true
					}
				}
			case []any:
				for _, e := range y {
					if walk(e) {
						return true
					}
				}
			}
			return false
		}
		if has, err := fuzzEval(t, `hasNestedKey(self, p)`, act); err != nil || has != walk(v) {
			t.Fatalf("hasNestedKey(%s, %q) = %v, %v; want %v", data, s, has, err, walk(v))
		}
		esc := list[3].(string)
		if esc != jsonpointer.Escape(s) || strings.Contains(strings.ReplaceAll(strings.ReplaceAll(esc, "~0", ""), "~1", ""), "~") || strings.Contains(esc, "/") {
			t.Fatalf("jsonPointerEscape(%q) = %q", s, esc)
		}
		if list[4] != isURI(s) || list[5] != isURIReference(s) {
			t.Fatalf("isURI/isURIReference(%q) through CEL = %v, %v", s, list[4], list[5])
		}
		// Escape then split: one token, the string itself.
		act["p"] = "/" + esc
		toks, err := fuzzEval(t, `jsonPointerTokens(p)`, act)
		if err != nil || len(toks.([]any)) != 1 || toks.([]any)[0] != s {
			t.Fatalf("jsonPointerTokens(%q) = %v, %v; want [%q]", "/"+esc, toks, err, s)
		}
		// Split then escape: the same pointer (outside the '#' fragment form).
		act["p"] = s
		toks, err = fuzzEval(t, `jsonPointerTokens(p)`, act)
		if _, perr := jsonpointer.ParseFragment(s); (err != nil) != (perr != nil) {
			t.Fatalf("jsonPointerTokens(%q) error %v, jsonpointer.ParseFragment error %v", s, err, perr)
		}
		if err == nil && !strings.HasPrefix(s, "#") {
			var sb strings.Builder
			for _, tok := range toks.([]any) {
				sb.WriteString("/" + jsonpointer.Escape(tok.(string)))
			}
			if sb.String() != s {
				t.Fatalf("jsonPointerTokens(%q) = %q, which re-escapes to %q", s, toks, sb.String())
			}
		}
		// Pointers built with jsonPointerEscape find every node (the first 32).
		type item struct {
			ptr string
			val any
		}
		queue := []item{{"", v}}
		for n := 0; n < len(queue) && n < 32; n++ {
			it := queue[n]
			act["p"] = it.ptr
			found, err := fuzzEval(t, `jsonPointer(root, p)`, act)
			if err != nil {
				t.Fatalf("jsonPointer(%q): %v", it.ptr, err)
			}
			fj, _ := json.Marshal(found)
			wj, _ := json.Marshal(it.val)
			if !bytes.Equal(fj, wj) {
				t.Fatalf("jsonPointer(%q) = %s, want %s", it.ptr, fj, wj)
			}
			switch x := it.val.(type) {
			case map[string]any:
				for k, c := range x {
					act["p"] = k
					e, err := fuzzEval(t, `jsonPointerEscape(p)`, act)
					if err != nil {
						t.Fatal(err)
					}
					queue = append(queue, item{it.ptr + "/" + e.(string), c})
				}
			case []any:
				for i, c := range x {
					queue = append(queue, item{it.ptr + "/" + strconv.Itoa(i), c})
				}
			}
		}
		act["p"] = s
		checkVersion2Functions(t, data, v, s, act)
	})
}

// checkVersion2Functions checks the functions of library version 2 on a
// JSON value v and a string s (the activation binds both: self and p)
// against their definitions.
func checkVersion2Functions(t *testing.T, data []byte, v any, s string, act map[string]any) {
	t.Helper()
	got, err := fuzzEval(t, `[asList(self), asMap(self), asString(self), asInt(self), `+
		`asList(optional.of(self)), asMap(optional.of(self)), asString(optional.of(self)), asInt(optional.of(self)), `+
		`quote(self), schemaError(self), asList(optional.none()), asInt(optional.none())]`, act)
	if err != nil {
		if errors.Is(err, ErrCostLimit) {
			return
		}
		t.Fatalf("%s: %v", data, err)
	}
	list := got.([]any)
	wantList, wantMap, wantString, wantInt := any([]any{}), any(map[string]any{}), any(""), any(int64(0))
	switch x := v.(type) {
	case []any:
		wantList = x
	case map[string]any:
		wantMap = x
	case string:
		wantString = x
	case int64:
		wantInt = x
	case float64:
		if x == math.Trunc(x) && x >= -(1<<63) && x < 1<<63 {
			wantInt = int64(x)
		}
	}
	sameJSON := func(what string, got, want any) {
		t.Helper()
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if !bytes.Equal(gj, wj) {
			t.Fatalf("%s of %s = %s, want %s", what, data, gj, wj)
		}
	}
	for i, name := range []string{"asList", "asMap", "asString", "asInt"} {
		want := []any{wantList, wantMap, wantString, wantInt}[i]
		sameJSON(name, list[i], want)
		sameJSON(name+" of an optional", list[4+i], want)
	}
	if list[8] != Quote(v) {
		t.Fatalf("quote(%s) = %v, Quote = %s", data, list[8], Quote(v))
	}
	if ve, ok := v.(string); ok && list[8] != strconv.Quote(ve) {
		t.Fatalf("quote(%s) = %v", data, list[8])
	}
	if problem := list[9].(string); problem != "" && !strings.HasPrefix(problem, "does not compile: ") {
		t.Fatalf("schemaError(%s) = %q", data, problem)
	}
	sameJSON("asList(none)", list[10], []any{})
	sameJSON("asInt(none)", list[11], int64(0))

	// descendants: pre-order, sorted keys, pointers relative to self.
	var want []any
	var walk func(ptr string, x any)
	walk = func(ptr string, x any) {
		switch x := x.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := jsonpointer.Append(ptr, k)
				want = append(want, map[string]any{"path": p, "key": k, "value": x[k]})
				walk(p, x[k])
			}
		case []any:
			for i, c := range x {
				p := ptr + "/" + strconv.Itoa(i)
				want = append(want, map[string]any{"path": p, "key": int64(i), "value": c})
				walk(p, c)
			}
		}
	}
	walk("", v)
	if want == nil {
		want = []any{}
	}
	desc, err := fuzzEval(t, `descendants(self)`, act)
	if err != nil {
		if errors.Is(err, ErrCostLimit) {
			return
		}
		t.Fatalf("descendants(%s): %v", data, err)
	}
	sameJSON("descendants", desc, want)
	if ok, err := fuzzEval(t, `descendants(self).all(d, jsonPointer(self, d.path) == optional.of(d.value))`, act); err == nil && ok != true {
		t.Fatalf("descendants(%s): a path does not find its value", data)
	}

	// indexesBy and indexOf on the value as a list (field p).
	qualifying := 0
	if l, ok := v.([]any); ok {
		for _, el := range l {
			m, ok := el.(map[string]any)
			if !ok {
				continue
			}
			switch x := m[s].(type) {
			case string, int64:
				qualifying++
			case float64:
				if x == math.Trunc(x) && x >= -(1<<63) && x < 1<<63 {
					qualifying++
				}
			}
		}
	}
	sizes, err := fuzzEval(t, `cel.bind(l, asList(self), cel.bind(g, indexesBy(l, p), `+
		`g.all(k, g[k].all(i, l[i][p] == k)) ? g.map(k, size(g[k])) : [-1]))`, act)
	if err == nil {
		n := 0
		for _, x := range sizes.([]any) {
			if x.(int64) < 0 {
				t.Fatalf("indexesBy(%s, %q) groups an element under another value", data, s)
			}
			n += int(x.(int64))
		}
		if n != qualifying {
			t.Fatalf("indexesBy(%s, %q) has %d indexes, want %d", data, s, n, qualifying)
		}
	} else if !errors.Is(err, ErrCostLimit) {
		t.Fatalf("indexesBy(%s, %q): %v", data, s, err)
	}
	ok, err := fuzzEval(t, `cel.bind(l, asList(self), cel.bind(f, lists.range(size(l)).filter(i, l[i] == p), `+
		`lists.range(size(l)).all(i, indexOf(l, l[i]) <= i && l[indexOf(l, l[i])] == l[i]) && indexOf(l, p) == (size(f) > 0 ? f[0] : -1)))`, act)
	if err == nil && ok != true {
		t.Fatalf("indexOf on %s (and %q) disagrees with ==", data, s)
	}
	if err != nil && !errors.Is(err, ErrCostLimit) {
		t.Fatalf("indexOf on %s: %v", data, err)
	}

	// tryBase64Decode has a value exactly when base64.decode succeeds.
	dec, err := fuzzEval(t, `tryBase64Decode(p)`, act)
	if err != nil {
		t.Fatalf("tryBase64Decode(%q): %v", s, err)
	}
	strict, serr := fuzzEval(t, `base64.decode(p)`, act)
	if (dec == nil) != (serr != nil) || (serr == nil && dec != strict) {
		t.Fatalf("tryBase64Decode(%q) = %v, base64.decode = %v, %v", s, dec, strict, serr)
	}
}

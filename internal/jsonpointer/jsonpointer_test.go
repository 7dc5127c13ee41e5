package jsonpointer

import (
	"reflect"
	"strings"
	"testing"
)

// rfcPointers are the string-form pointers of RFC 6901 section 5 and the
// member names they select.
var rfcPointers = []struct {
	pointer string // string form, section 5
	tokens  []string
}{
	{"", nil},
	{"/foo", []string{"foo"}},
	{"/foo/0", []string{"foo", "0"}},
	{"/", []string{""}},
	{"/a~1b", []string{"a/b"}},
	{"/c%d", []string{"c%d"}},
	{"/e^f", []string{"e^f"}},
	{"/g|h", []string{"g|h"}},
	{"/i\\j", []string{"i\\j"}},
	{"/k\"l", []string{"k\"l"}},
	{"/ ", []string{" "}},
	{"/m~0n", []string{"m~n"}},
}

// rfcFragments is the URI fragment form of section 6 for the same pointers.
var rfcFragments = []struct {
	fragment string
	tokens   []string
}{
	{"#", nil},
	{"#/foo", []string{"foo"}},
	{"#/foo/0", []string{"foo", "0"}},
	{"#/", []string{""}},
	{"#/a~1b", []string{"a/b"}},
	{"#/c%25d", []string{"c%d"}},
	{"#/e%5Ef", []string{"e^f"}},
	{"#/g%7Ch", []string{"g|h"}},
	{"#/i%5Cj", []string{"i\\j"}},
	{"#/k%22l", []string{"k\"l"}},
	{"#/%20", []string{" "}},
	{"#/m~0n", []string{"m~n"}},
}

func TestParseRFC6901(t *testing.T) {
	for _, tc := range rfcPointers {
		got, err := Parse(tc.pointer)
		if err != nil || !reflect.DeepEqual(got, tc.tokens) {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", tc.pointer, got, err, tc.tokens)
		}
		// The plain form is also accepted by ParseFragment.
		got, err = ParseFragment(tc.pointer)
		if err != nil || !reflect.DeepEqual(got, tc.tokens) {
			t.Errorf("ParseFragment(%q) = %#v, %v; want %#v", tc.pointer, got, err, tc.tokens)
		}
		if j := Join(tc.tokens...); j != tc.pointer {
			t.Errorf("Join(%#v) = %q, want %q", tc.tokens, j, tc.pointer)
		}
	}
	for _, tc := range rfcFragments {
		got, err := ParseFragment(tc.fragment)
		if err != nil || !reflect.DeepEqual(got, tc.tokens) {
			t.Errorf("ParseFragment(%q) = %#v, %v; want %#v", tc.fragment, got, err, tc.tokens)
		}
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"//", []string{"", ""}, ""},
		{"/a/b", []string{"a", "b"}, ""},
		{"/a~1b/~0c", []string{"a/b", "~c"}, ""},
		{"/~01", []string{"~1"}, ""},
		{"/~10", []string{"/0"}, ""},
		{"/~0~1~0", []string{"~/~"}, ""},
		{"/a%2Fb", []string{"a%2Fb"}, ""}, // no percent-decoding in the string form
		{"/é/😀", []string{"é", "😀"}, ""},
		{"x", nil, `malformed JSON Pointer "x": it must be empty or start with "/"`},
		{"#/a", nil, `malformed JSON Pointer "#/a": it must be empty or start with "/"`},
		{"a/b", nil, `malformed JSON Pointer "a/b": it must be empty or start with "/"`},
		{"/a~", nil, `malformed JSON Pointer "/a~": "~" must be followed by "0" or "1"`},
		{"/a~2", nil, `malformed JSON Pointer "/a~2": "~" must be followed by "0" or "1"`},
		{"/ok/~", nil, `malformed JSON Pointer "/ok/~": "~" must be followed by "0" or "1"`},
		{"/~~0", nil, `malformed JSON Pointer "/~~0": "~" must be followed by "0" or "1"`},
	}
	for _, tc := range cases {
		got, err := Parse(tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("Parse(%q) error = %v, want %s", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseFragment(t *testing.T) {
	cases := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"", nil, ""},
		{"#", nil, ""},
		{"/", []string{""}, ""},
		{"#/a%20b/c%2Fd", []string{"a b", "c", "d"}, ""}, // decoded before splitting (RFC 6901 section 6)
		{"#/c%7E1d", []string{"c/d"}, ""},
		{"#/a~1b", []string{"a/b"}, ""},
		{"#/a+b", []string{"a+b"}, ""}, // "+" is not a space in a fragment
		{"a", nil, `malformed JSON Pointer "a": it must be empty or start with "/"`},
		{"#a", nil, `malformed JSON Pointer "#a": it must be empty or start with "/"`},
		{"##/a", nil, `malformed JSON Pointer "##/a": it must be empty or start with "/"`},
		{"#/a%zz", nil, `malformed JSON Pointer "#/a%zz": bad percent-encoding`},
		{"#/a%", nil, `malformed JSON Pointer "#/a%": bad percent-encoding`},
		{"#/a%7E", nil, `malformed JSON Pointer "#/a%7E": "~" must be followed by "0" or "1"`},
		{"/a~", nil, `malformed JSON Pointer "/a~": "~" must be followed by "0" or "1"`},
	}
	for _, tc := range cases {
		got, err := ParseFragment(tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParseFragment(%q) error = %v, want %s", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseFragment(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}

func TestEscapeUnescape(t *testing.T) {
	cases := []struct{ raw, esc string }{
		{"", ""},
		{"abc", "abc"},
		{"~", "~0"},
		{"/", "~1"},
		{"a/b", "a~1b"},
		{"m~n", "m~0n"},
		{"~1", "~01"},
		{"/0", "~10"},
		{"~/~/", "~0~1~0~1"},
		{"é/😀", "é~1😀"},
	}
	for _, tc := range cases {
		if got := Escape(tc.raw); got != tc.esc {
			t.Errorf("Escape(%q) = %q, want %q", tc.raw, got, tc.esc)
		}
		if got, ok := Unescape(tc.esc); !ok || got != tc.raw {
			t.Errorf("Unescape(%q) = %q, %v; want %q", tc.esc, got, ok, tc.raw)
		}
	}
	for _, bad := range []string{"~", "a~", "~2", "~a", "~~", "x~/"} {
		if got, ok := Unescape(bad); ok {
			t.Errorf("Unescape(%q) = %q, true; want false", bad, got)
		}
	}
}

func TestAppendJoin(t *testing.T) {
	cases := []struct {
		pointer, token, want string
	}{
		{"", "a", "/a"},
		{"", "", "/"},
		{"/a", "b/c", "/a/b~1c"},
		{"/a", "~", "/a/~0"},
		{"/", "0", "//0"},
	}
	for _, tc := range cases {
		if got := Append(tc.pointer, tc.token); got != tc.want {
			t.Errorf("Append(%q, %q) = %q, want %q", tc.pointer, tc.token, got, tc.want)
		}
	}
	if got := Join(); got != "" {
		t.Errorf("Join() = %q, want \"\"", got)
	}
	if got := Join("a/b", "", "~", "0"); got != "/a~1b//~0/0" {
		t.Errorf("Join = %q", got)
	}
}

func TestArrayIndex(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"0", 0, true},
		{"7", 7, true},
		{"10", 10, true},
		{"123456789", 123456789, true},
		{"999999999999999999", 999999999999999999, true}, // 18 digits
		{"1000000000000000000", 0, false},                // 19 digits
		{"99999999999999999999999", 0, false},
		{"", 0, false},
		{"-", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"00", 0, false},
		{"01", 0, false},
		{"1a", 0, false},
		{" 1", 0, false},
		{"1.0", 0, false},
		{"１", 0, false}, // fullwidth digit
	}
	for _, tc := range cases {
		got, ok := ArrayIndex(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ArrayIndex(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestTarget(t *testing.T) {
	cases := []struct {
		ref, want, wantErr string
	}{
		{"#", "", ""},
		{"#/", "/", ""},
		{"#/$defs/a", "/$defs/a", ""},
		{"#/a~1b/m~0n", "/a~1b/m~0n", ""},
		{"#/c%25d", "/c%d", ""},
		{"#/a%20b", "/a b", ""},
		{"#/c%7E1d", "/c~1d", ""},
		{"#/a%2Fb", "/a/b", ""},
		{"https://example.com/s.json#/a", "", `only local references (#/...) are resolved; "https://example.com/s.json#/a" is never fetched`},
		{"", "", `only local references (#/...) are resolved; "" is never fetched`},
		{"/a", "", `only local references (#/...) are resolved; "/a" is never fetched`},
		{"other.json", "", `only local references (#/...) are resolved; "other.json" is never fetched`},
		{"#anchor", "", `reference "#anchor" is not a JSON Pointer fragment ("#/..."): malformed JSON Pointer "#anchor": it must be empty or start with "/"`},
		{"#/a~2", "", `reference "#/a~2" is not a JSON Pointer fragment ("#/..."): malformed JSON Pointer "#/a~2": "~" must be followed by "0" or "1"`},
		{"#/a%zz", "", `reference "#/a%zz" is not a JSON Pointer fragment ("#/..."): malformed JSON Pointer "#/a%zz": bad percent-encoding`},
	}
	for _, tc := range cases {
		got, err := Target(tc.ref)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("Target(%q) = %q, %v; want error %s", tc.ref, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Target(%q) = %q, %v; want %q", tc.ref, got, err, tc.want)
			continue
		}
		// The target parses, to the same tokens as the fragment.
		want, _ := ParseFragment(tc.ref)
		if toks, err := Parse(got); err != nil || !reflect.DeepEqual(toks, want) {
			t.Errorf("Parse(Target(%q)) = %#v, %v; want %#v", tc.ref, toks, err, want)
		}
	}
}

// TestRoundTrip checks Join(Parse(p)) == p for valid pointers.
func TestRoundTrip(t *testing.T) {
	for _, p := range []string{"", "/", "//", "/a", "/a/b/0", "/a~1b", "/m~0n", "/~01", "/~10/~1~0", "/ /%25/é"} {
		toks, err := Parse(p)
		if err != nil {
			t.Fatalf("Parse(%q): %v", p, err)
		}
		if got := Join(toks...); got != p {
			t.Errorf("Join(Parse(%q)) = %q", p, got)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	var sink int
	checks := map[string]func(){
		"Escape":     func() { sink += len(Escape("properties")) },
		"Unescape":   func() { s, _ := Unescape("properties"); sink += len(s) },
		"ArrayIndex": func() { i, _ := ArrayIndex("123456"); sink += i },
		"Target":     func() { s, _ := Target("#/$defs/thing"); sink += len(s) },
	}
	for name, f := range checks {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times per call, want 0", name, n)
		}
	}
	_ = sink
}

func FuzzParse(f *testing.F) {
	for _, tc := range rfcPointers {
		f.Add(tc.pointer)
	}
	for _, tc := range rfcFragments {
		f.Add(tc.fragment)
	}
	for _, s := range []string{"x", "/a~", "/a~2", "#/a%zz", "#a", "//", "/~0~1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		toks, err := Parse(p)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "malformed JSON Pointer ") {
				t.Fatalf("Parse(%q) error %q lacks the prefix", p, err)
			}
		} else {
			// Round trip: the tokens re-escape to the pointer.
			if got := Join(toks...); got != p {
				t.Fatalf("Join(Parse(%q)) = %q", p, got)
			}
			// Building the pointer token by token gives the same string.
			b := ""
			for _, tok := range toks {
				if u, ok := Unescape(Escape(tok)); !ok || u != tok {
					t.Fatalf("Unescape(Escape(%q)) = %q, %v", tok, u, ok)
				}
				b = Append(b, tok)
			}
			if b != p {
				t.Fatalf("Append chain for %q = %q", p, b)
			}
		}
		// The plain form parses the same through ParseFragment.
		if p == "" || p[0] != '#' {
			ftoks, ferr := ParseFragment(p)
			if (ferr == nil) != (err == nil) || !reflect.DeepEqual(ftoks, toks) {
				t.Fatalf("ParseFragment(%q) = %#v, %v; Parse = %#v, %v", p, ftoks, ferr, toks, err)
			}
		}
		// Target agrees with ParseFragment on fragments.
		if strings.HasPrefix(p, "#") {
			ptr, terr := Target(p)
			ftoks, ferr := ParseFragment(p)
			if (terr == nil) != (ferr == nil) {
				t.Fatalf("Target(%q) error %v, ParseFragment error %v", p, terr, ferr)
			}
			if terr == nil {
				ptoks, perr := Parse(ptr)
				if perr != nil || !reflect.DeepEqual(ptoks, ftoks) {
					t.Fatalf("Parse(Target(%q)) = %#v, %v; ParseFragment = %#v", p, ptoks, perr, ftoks)
				}
			}
		} else if _, terr := Target(p); terr == nil {
			t.Fatalf("Target(%q) accepted a non-local reference", p)
		}
	})
}

// TestOneAllocation: Join, Append and Escape size their result exactly,
// escapes included, so that each allocates only the string it returns.
func TestOneAllocation(t *testing.T) {
	for name, f := range map[string]func(){
		// (Many escapes: a size that leaves them out is more than the
		// allocator's rounding up makes up for.)
		"Join":   func() { _ = Join("a/b", "~~~~~~~~~~~~~~~~", "x~/y", "") },
		"Append": func() { _ = Append("/a~1b", "////////////////") },
		"Escape": func() { _ = Escape("x~/y~//////////////") },
	} {
		if a := testing.AllocsPerRun(20, f); a != 1 {
			t.Errorf("%s allocates %v times, want 1", name, a)
		}
	}
}

package safetext

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"héllo wörld 👍", "héllo wörld 👍"},
		{"a\tb\nc\rd", "a b c d"},
		{"\x1b[2J\x1b[H", "<U+001B>[2J<U+001B>[H"},
		{"bell\a", "bell<U+0007>"},
		{"osc \x1b]0;title\x07", "osc <U+001B>]0;title<U+0007>"},
		{"del\x7f", "del<U+007F>"},
		{"c1 \u009b31m", "c1 <U+009B>31m"},
		{"next line\u0085", "next line<U+0085>"},
		{"admin\u202E\u2066// user\u2069", "admin<U+202E><U+2066>// user<U+2069>"},
		{"\u2067\u2068", "<U+2067><U+2068>"},
		{"zero\u200Bwidth\u200C\u200D\u200E\u200F", "zero<U+200B>width<U+200C><U+200D><U+200E><U+200F>"},
		{"line\u2028para\u2029", "line<U+2028>para<U+2029>"},
		{"\uFEFFbom", "<U+FEFF>bom"},
		{"word\u2060joiner", "word<U+2060>joiner"},
		{"filler\u3164\uFFA0", "filler<U+3164><U+FFA0>"},
		{"tag\U000E0041", "tag<U+E0041>"},
		{"bad \xff\xfe byte", "bad \uFFFD\uFFFD byte"},
		{"nbsp\u00a0ok", "nbsp\u00a0ok"},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBlock(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\n\tb\n", "a\n\tb\n"},
		{"crlf\r\nline\r\n", "crlf\nline\n"},
		{"lone\rcr", "lone<U+000D>cr"},
		{"x\u202Ey\n\x1b[31mred", "x<U+202E>y\n<U+001B>[31mred"},
	} {
		if got := Block(tc.in); got != tc.want {
			t.Errorf("Block(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestGuard(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"no command here", "no command here"},
		{"a::b", "a::b"},
		{"::error title=x::forged", "<U+003A>:error title=x::forged"},
		{"  \t::warning::x", "  \t<U+003A>:warning::x"},
		{"\u00a0\u3000::notice::x", "\u00a0\u3000<U+003A>:notice::x"},
		{"ok\n::error::x\n  ::debug::y\n", "ok\n<U+003A>:error::x\n  <U+003A>:debug::y\n"},
		{"text ##[error]forged", "text #<U+0023>[error]forged"},
		{"###[x", "##<U+0023>[x"},
	} {
		got := Guard(tc.in)
		if got != tc.want {
			t.Errorf("Guard(%q) = %q, want %q", tc.in, got, tc.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if strings.HasPrefix(strings.TrimLeftFunc(l, isSpace), "::") || strings.Contains(l, "##[") {
				t.Errorf("Guard(%q): line %q is still a command", tc.in, l)
			}
		}
	}
}

func TestJSON(t *testing.T) {
	in := map[string]string{"m": "a\u202Eb\u007f\u009b\U000E0041 ##[error]x \x1b é"}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(data)
	for _, r := range string(out) {
		if Hidden(r) {
			t.Errorf("JSON left %U raw in %s", r, out)
		}
	}
	if strings.Contains(string(out), "##[") {
		t.Errorf("JSON left ##[ in %s", out)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("JSON output is not JSON: %v\n%s", err, out)
	}
	if back["m"] != in["m"] {
		t.Errorf("JSON changed the value: %q, want %q", back["m"], in["m"])
	}
	plain := []byte(`{"a": "b"}`)
	if got := JSON(plain); string(got) != string(plain) {
		t.Errorf("JSON changed clean input: %s", got)
	}
}

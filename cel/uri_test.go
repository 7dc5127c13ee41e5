package cel

import (
	"strings"
	"testing"
)

func TestURIProblemNamesTheCharacter(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://example.com/a%20b", ""},
		{"urn:isbn:0451450523", ""},
		{"https://exämple.com/", `the character "ä" (U+00E4) at offset 10 is not allowed`},
		{"https://example.com/a b", `the character " " (U+0020) at offset 21`},
		{"https://example.com/<x>", `the character "<" (U+003C)`},
		{"https://example.com/%zz", `"%" at offset 20 is not followed by two hexadecimal digits`},
		{"/relative/path", "does not begin with a scheme"},
		{"http://[::1/", "does not follow the URI syntax"},
	}
	for _, c := range cases {
		got := uriProblem(c.in)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("uriProblem(%q) = %q, want one containing %q", c.in, got, c.want)
		}
		if (got == "") != isURI(c.in) {
			t.Errorf("uriProblem(%q) = %q disagrees with isURI", c.in, got)
		}
	}
}

func TestSchemaFormatURIIsRFC3986(t *testing.T) {
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "uri", expr: `matchesSchema('https://example.com/a', {'format': 'uri'})`, want: true},
		{name: "iri", expr: `matchesSchema('https://example.com/ä', {'format': 'uri'})`, want: false},
		{name: "space", expr: `matchesSchema('https://example.com/a b', {'format': 'uri'})`, want: false},
		{name: "message", expr: `schemaErrors('https://example.com/a b', {'format': 'uri'})[0].message.contains('" " (U+0020)')`, want: true},
	})
}

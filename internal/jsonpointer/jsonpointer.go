// Package jsonpointer is celint's one implementation of RFC 6901 JSON
// Pointer: escaping and unescaping reference tokens ("~" is written "~0",
// "/" is written "~1"), parsing the string form ("/a/b") and the URI
// fragment form ("#/a/b"), building pointers from raw tokens, array
// indices, and the target of a local reference ("#/...").
//
// The package knows nothing about documents or values: callers walk their
// own trees with the tokens it returns.
package jsonpointer

import (
	"fmt"
	"net/url"
	"strings"
)

// maxIndexDigits bounds an array index so that it never overflows an int.
const maxIndexDigits = 18

// Escape returns token as an RFC 6901 reference token: "~" becomes "~0" and
// "/" becomes "~1". A token with neither is returned as it is, without
// allocating.
func Escape(token string) string {
	n := escapedLen(token)
	if n == len(token) {
		return token
	}
	var sb strings.Builder
	sb.Grow(n)
	writeEscaped(&sb, token)
	return sb.String()
}

// escapedLen is the length of token escaped: one more byte for each "~"
// and "/".
func escapedLen(token string) int {
	n := len(token)
	for i := 0; i < len(token); i++ {
		if c := token[i]; c == '~' || c == '/' {
			n++
		}
	}
	return n
}

// writeEscaped writes the escaped form of token to sb.
func writeEscaped(sb *strings.Builder, token string) {
	start := 0
	for i := 0; i < len(token); i++ {
		var esc string
		switch token[i] {
		case '~':
			esc = "~0"
		case '/':
			esc = "~1"
		default:
			continue
		}
		sb.WriteString(token[start:i])
		sb.WriteString(esc)
		start = i + 1
	}
	sb.WriteString(token[start:])
}

// Unescape returns the raw member name or index that the escaped reference
// token names ("~0" is "~", "~1" is "/"). It reports false when a "~" is not
// followed by "0" or "1". A token without "~" is returned as it is, without
// allocating.
func Unescape(token string) (string, bool) {
	first := strings.IndexByte(token, '~')
	if first < 0 {
		return token, true
	}
	var sb strings.Builder
	sb.Grow(len(token) - 1)
	sb.WriteString(token[:first])
	for i := first; i < len(token); i++ {
		c := token[i]
		if c != '~' {
			sb.WriteByte(c)
			continue
		}
		if i+1 >= len(token) {
			return "", false
		}
		i++
		switch token[i] {
		case '0':
			sb.WriteByte('~')
		case '1':
			sb.WriteByte('/')
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// Parse splits an RFC 6901 JSON Pointer in string form into its unescaped
// reference tokens. "" is the whole document and yields nil; any other
// pointer must start with "/" ("/" alone is the one token "").
func Parse(pointer string) ([]string, error) {
	return parse(pointer, pointer)
}

// ParseFragment is Parse for the URI fragment form "#/a/b": the part after
// "#" is percent-decoded first (RFC 6901 section 6), and "#" alone is the
// whole document. A string that does not start with "#" is parsed as the
// string form, as Parse does. Errors quote s as given.
func ParseFragment(s string) ([]string, error) {
	p, err := decodeFragment(s)
	if err != nil {
		return nil, err
	}
	return parse(p, s)
}

// Append returns pointer extended by one raw (unescaped) token, e.g.
// Append("/a", "b/c") is "/a/b~1c".
func Append(pointer, token string) string {
	var sb strings.Builder
	sb.Grow(len(pointer) + 1 + escapedLen(token))
	sb.WriteString(pointer)
	sb.WriteByte('/')
	writeEscaped(&sb, token)
	return sb.String()
}

// Join returns the string-form pointer made of the raw (unescaped) tokens;
// no tokens is the root, "". Join(Parse(p)) is p for every valid p.
func Join(tokens ...string) string {
	if len(tokens) == 0 {
		return ""
	}
	n := len(tokens)
	for _, t := range tokens {
		n += escapedLen(t)
	}
	var sb strings.Builder
	sb.Grow(n) // the exact length: one allocation
	for _, t := range tokens {
		sb.WriteByte('/')
		writeEscaped(&sb, t)
	}
	return sb.String()
}

// ArrayIndex parses a reference token as an RFC 6901 array index: "0" or
// decimal digits without a leading zero, at most 18 of them, so the result
// never overflows. "-" (the element after the last) is not an index.
func ArrayIndex(token string) (int, bool) {
	if token == "" || len(token) > maxIndexDigits || len(token) > 1 && token[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(token); i++ {
		c := token[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// Target returns the string-form JSON Pointer that a local reference
// "#/..." names: the fragment, percent-decoded and checked. A reference
// that does not start with "#" is never resolved and is an error, as is a
// fragment that is not a JSON Pointer (such as the anchor "#name").
func Target(ref string) (pointer string, err error) {
	if !strings.HasPrefix(ref, "#") {
		return "", fmt.Errorf("only local references (#/...) are resolved; %q is never fetched", ref)
	}
	p, err := decodeFragment(ref)
	if err == nil {
		err = check(p, ref)
	}
	if err != nil {
		return "", fmt.Errorf("reference %q is not a JSON Pointer fragment (\"#/...\"): %v", ref, err)
	}
	return p, nil
}

// decodeFragment percent-decodes what follows a leading "#"; other strings
// are returned as they are.
func decodeFragment(s string) (string, error) {
	if !strings.HasPrefix(s, "#") {
		return s, nil
	}
	p, err := url.PathUnescape(s[1:])
	if err != nil {
		return "", fmt.Errorf("malformed JSON Pointer %q: bad percent-encoding", s)
	}
	return p, nil
}

// check reports whether p is a well-formed string-form pointer; errors
// quote orig.
func check(p, orig string) error {
	if p == "" {
		return nil
	}
	if p[0] != '/' {
		return errStart(orig)
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '~' && (i+1 >= len(p) || p[i+1] != '0' && p[i+1] != '1') {
			return errTilde(orig)
		}
	}
	return nil
}

// parse splits the string-form pointer p; errors quote orig.
func parse(p, orig string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, errStart(orig)
	}
	tokens := strings.Split(p[1:], "/")
	for i, tok := range tokens {
		t, ok := Unescape(tok)
		if !ok {
			return nil, errTilde(orig)
		}
		tokens[i] = t
	}
	return tokens, nil
}

func errStart(orig string) error {
	return fmt.Errorf("malformed JSON Pointer %q: it must be empty or start with \"/\"", orig)
}

func errTilde(orig string) error {
	return fmt.Errorf("malformed JSON Pointer %q: \"~\" must be followed by \"0\" or \"1\"", orig)
}

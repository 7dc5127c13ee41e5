package cel

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// This file checks RFC 3986 syntax by hand: net/url.Parse accepts far more
// than the grammar allows (spaces, raw non-ASCII, bad percent-encodings).
//
//	URI           = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
//	hier-part     = "//" authority path-abempty / path-absolute
//	              / path-rootless / path-empty
//	URI-reference = URI / relative-ref
//	relative-ref  = relative-part [ "?" query ] [ "#" fragment ]
//	relative-part = "//" authority path-abempty / path-absolute
//	              / path-noscheme / path-empty

// isURI reports whether s is an absolute URI (scheme required, fragment
// allowed) per RFC 3986 section 3.
func isURI(s string) bool {
	scheme, rest, ok := splitScheme(s)
	if !ok || !validScheme(scheme) {
		return false
	}
	return validAfterScheme(rest)
}

// uriProblem says why s is not an absolute URI by RFC 3986, naming the
// first character no URI may hold when there is one (a space, a control
// character, a non-ASCII character of an IRI, "<" and the like), or a
// malformed percent-encoding; it is "" when s is a URI.
func uriProblem(s string) string {
	if isURI(s) {
		return ""
	}
	for i, r := range s {
		switch {
		case r == '%' && (i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])):
			return fmt.Sprintf("%q at offset %d is not followed by two hexadecimal digits", "%", i)
		case r >= 0x80 || r <= ' ' || r == 0x7f || strings.ContainsRune("\"<>\\^`{|}", r):
			return fmt.Sprintf("the character %q (U+%04X) at offset %d is not allowed in a URI; percent-encode it", string(r), r, i)
		}
	}
	if scheme, _, ok := splitScheme(s); !ok || !validScheme(scheme) {
		return "it does not begin with a scheme and \":\""
	}
	return "it does not follow the URI syntax of RFC 3986"
}

// uriFormat is the JSON Schema "uri" format: an absolute URI by RFC 3986
// (uriProblem), where net/url also takes spaces and IRIs.
var uriFormat = &jsonschema.Format{Name: "uri", Validate: func(v any) error {
	if s, ok := v.(string); ok {
		if p := uriProblem(s); p != "" {
			return errors.New(p)
		}
	}
	return nil
}}

// isURIReference reports whether s is a URI or a relative reference per
// RFC 3986 section 4.1.
func isURIReference(s string) bool {
	if scheme, rest, ok := splitScheme(s); ok {
		// A colon before any "/", "?" or "#": either a scheme, or a
		// relative path whose first segment has a colon, which
		// path-noscheme forbids.
		return validScheme(scheme) && validAfterScheme(rest)
	}
	return validAfterScheme(s)
}

// splitScheme splits s at the first ":" when it comes before any "/", "?"
// or "#".
func splitScheme(s string) (scheme, rest string, ok bool) {
	i := strings.IndexAny(s, ":/?#")
	if i < 0 || s[i] != ':' {
		return "", s, false
	}
	return s[:i], s[i+1:], true
}

// validAfterScheme checks hier-part/relative-part, query and fragment.
// (A relative path's first segment may not contain a colon; callers rule
// that out with splitScheme.)
func validAfterScheme(s string) bool {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		if !validQueryOrFragment(s[i+1:]) {
			return false
		}
		s = s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		if !validQueryOrFragment(s[i+1:]) {
			return false
		}
		s = s[:i]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		end := strings.IndexByte(s, '/')
		if end < 0 {
			end = len(s)
		}
		if !validAuthority(s[:end]) {
			return false
		}
		return validPath(s[end:])
	}
	return validPath(s)
}

// validScheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
func validScheme(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// validAuthority: [ userinfo "@" ] host [ ":" port ]
func validAuthority(s string) bool {
	if i := strings.IndexByte(s, '@'); i >= 0 {
		if !validChars(s[:i], ":") {
			return false
		}
		s = s[i+1:]
	}
	var host, port string
	hasPort := false
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		if !validIPLiteral(s[1:end]) {
			return false
		}
		rest := s[end+1:]
		if rest != "" {
			if rest[0] != ':' {
				return false
			}
			port, hasPort = rest[1:], true
		}
	} else {
		host = s
		if i := strings.IndexByte(s, ':'); i >= 0 {
			host, port, hasPort = s[:i], s[i+1:], true
		}
		// reg-name = *( unreserved / pct-encoded / sub-delims ); an
		// IPv4address is a subset of that syntax.
		if !validChars(host, "") {
			return false
		}
	}
	if hasPort {
		for i := 0; i < len(port); i++ {
			if !isDigit(port[i]) {
				return false
			}
		}
	}
	return true
}

// validIPLiteral checks the inside of "[...]": IPv6address / IPvFuture.
func validIPLiteral(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == 'v' || s[0] == 'V' {
		// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
		dot := strings.IndexByte(s, '.')
		if dot < 2 {
			return false
		}
		for i := 1; i < dot; i++ {
			if !isHex(s[i]) {
				return false
			}
		}
		tail := s[dot+1:]
		if tail == "" {
			return false
		}
		for i := 0; i < len(tail); i++ {
			c := tail[i]
			if !isUnreserved(c) && !isSubDelim(c) && c != ':' {
				return false
			}
		}
		return true
	}
	// IPv6address: no zone identifiers (RFC 3986 has none) and at least one
	// colon so a bare IPv4 address in brackets is refused.
	if strings.ContainsAny(s, "%") || !strings.Contains(s, ":") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isHex(c) && c != ':' && c != '.' {
			return false
		}
	}
	addr, err := netip.ParseAddr(s)
	return err == nil && addr.Is6()
}

// validPath checks any of the path forms: segments of pchar separated by
// "/". Whether it may begin with "//" is settled by the caller.
func validPath(s string) bool {
	return validChars(s, ":@/")
}

// validQueryOrFragment: *( pchar / "/" / "?" )
func validQueryOrFragment(s string) bool {
	return validChars(s, ":@/?")
}

// validChars reports whether s consists of unreserved characters,
// sub-delims, valid percent-encodings and the bytes in extra.
func validChars(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c) || isSubDelim(c):
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		case c < 0x80 && strings.IndexByte(extra, c) >= 0:
		default:
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isUnreserved: ALPHA / DIGIT / "-" / "." / "_" / "~"
func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

// isSubDelim: "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
func isSubDelim(c byte) bool {
	switch c {
	case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=':
		return true
	}
	return false
}

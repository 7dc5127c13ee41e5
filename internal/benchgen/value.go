// Package benchgen generates the engine's benchmark workload in Go: a port of
// the two deterministic Python generators in ../shared/bench (gen_big.py and
// genrules.py), so benchmarks need no Python. Description and Rules return
// byte for byte what the Python scripts write; DescriptionYAML returns the
// same document as block YAML.
package benchgen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// The generators build their documents from these values, in the order the
// Python dicts are built: object (a Python dict), list, string, int,
// float64 and bool.
type (
	member struct {
		key string
		val any
	}
	object []member
	list   []any
)

// obj builds an object from alternating keys and values.
func obj(kv ...any) object {
	if len(kv)%2 != 0 {
		panic("benchgen: obj needs key, value pairs")
	}
	o := make(object, 0, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		o = append(o, member{kv[i].(string), kv[i+1]})
	}
	return o
}

// writeJSON writes v as Python's json.dump(v, f, indent=1) does: one item a
// line, items separated by ",", keys by ": ", empty containers as {} and [],
// ASCII only, and floats as Python's repr.
func writeJSON(b *strings.Builder, v any, level int) {
	switch v := v.(type) {
	case object:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, level+1)
			writeString(b, m.key)
			b.WriteString(": ")
			writeJSON(b, m.val, level+1)
		}
		newline(b, level)
		b.WriteByte('}')
	case list:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, level+1)
			writeJSON(b, e, level+1)
		}
		newline(b, level)
		b.WriteByte(']')
	case string:
		writeString(b, v)
	case int:
		b.WriteString(strconv.Itoa(v))
	case float64:
		b.WriteString(pyFloat(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	default:
		panic(fmt.Sprintf("benchgen: unexpected %T", v))
	}
}

// newline starts a line indented by level spaces (indent=1).
func newline(b *strings.Builder, level int) {
	b.WriteByte('\n')
	for range level {
		b.WriteByte(' ')
	}
}

// writeString writes s as a JSON string the way Python's json module does
// with ensure_ascii: every character outside ' '..'~' is escaped, with the
// short escapes where JSON has them and \u00XX (lower-case hex, surrogate
// pairs beyond the BMP) otherwise.
func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r >= ' ' && r <= '~':
				b.WriteRune(r)
			case r > 0xFFFF:
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
			default: // an invalid byte decodes as U+FFFD, as Python would have refused it
				fmt.Fprintf(b, `\u%04x`, r)
			}
		}
	}
	b.WriteByte('"')
}

// pyFloat formats f as Python's repr(float) does: the shortest digits that
// round-trip, in positional notation with at least one fractional digit
// (1.5, 2.0) when the decimal exponent is in [-4, 16), else in scientific
// notation with a signed exponent of at least two digits (1e+16, 1.5e-05).
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity" // json.dump's spelling; never generated
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // [-]d[.ddd]e±XX
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		return fmt.Sprintf("%s%se%+03d", sign, m, exp)
	}
	if exp < 0 {
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return sign + digits[:exp+1] + "." + digits[exp+1:]
}

// yamlNode returns v as a block-style yaml.Node with the same key order.
// Scalars carry their tag; the encoder quotes a string only where it would
// otherwise read as another type.
func yamlNode(v any) *yaml.Node {
	switch v := v.(type) {
	case object:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, m := range v {
			n.Content = append(n.Content, scalar("!!str", m.key), yamlNode(m.val))
		}
		return n
	case list:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range v {
			n.Content = append(n.Content, yamlNode(e))
		}
		return n
	case string:
		return scalar("!!str", v)
	case int:
		return scalar("!!int", strconv.Itoa(v))
	case float64:
		return scalar("!!float", pyFloat(v))
	case bool:
		return scalar("!!bool", strconv.FormatBool(v))
	}
	panic(fmt.Sprintf("benchgen: unexpected %T", v))
}

func scalar(tag, value string) *yaml.Node {
	if !utf8.ValidString(value) {
		panic("benchgen: invalid UTF-8 in a scalar")
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

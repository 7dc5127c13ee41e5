// Package safetext makes text that celint did not write — from documents,
// file names and rule files — safe to show on a terminal or in a CI log.
//
// Control characters (C0, DEL, C1), format characters such as the bidi
// overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the zero-width
// characters (U+200B–U+200F, U+2060, U+FEFF), other default-ignorable code
// points (Hangul fillers, tag characters) and the line and paragraph
// separators U+2028 and U+2029 are shown visibly escaped, as "<U+202E>", so
// that text cannot move the cursor, colour the terminal or reorder what a
// line appears to say. Invalid UTF-8 becomes U+FFFD.
//
// [Guard] keeps a CI runner from reading a line as a workflow command: no
// line may start with "::" after leading white space, and no line may carry
// "##[" (GitHub's legacy command prefix, read anywhere in a line).
//
// These functions are for outputs read by people (text reports, tables,
// explanations, stderr). Data formats (JSON, SARIF) keep the original text;
// [JSON] only re-escapes such characters inside JSON strings.
package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hidden reports whether r is shown escaped: a control character other
// than tab, line feed and carriage return (which [Line] and [Block] treat
// themselves), a format character, a line or paragraph separator, or
// another default-ignorable code point.
func Hidden(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0x9F):
		return true
	case r < 0xA0:
		return false
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point)
}

// Escape returns the visible form of r, "<U+XXXX>".
func Escape(r rune) string { return fmt.Sprintf("<U+%04X>", r) }

// Line returns s made safe for one line of output: tab, line feed and
// carriage return become a space, every other [Hidden] character is
// escaped, invalid UTF-8 becomes U+FFFD.
func Line(s string) string { return clean(s, false) }

// Block returns s made safe for output of several lines: line feeds and tabs
// are kept, a carriage return before a line feed is dropped, and every other
// [Hidden] character (a lone carriage return included) is escaped.
func Block(s string) string { return clean(s, true) }

func clean(s string, block bool) string {
	if isClean(s, block) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\t' || r == '\n':
			if block {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		case r == '\r':
			switch {
			case !block:
				b.WriteByte(' ')
			case i < len(s) && s[i] == '\n':
				// CRLF: the line feed follows
			default:
				b.WriteString(Escape(r))
			}
		case Hidden(r):
			b.WriteString(Escape(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isClean reports whether clean would return s unchanged.
func isClean(s string, block bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7F {
				if !block || (c != '\t' && c != '\n') {
					return false
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || Hidden(r) {
			return false
		}
		i += size
	}
	return true
}

// Guard returns s, already made safe by [Line] or [Block], with every line
// that a CI runner would read as a workflow command defused: a "::" at the
// start of a line (after white space) has its first colon escaped, and
// every "##[" has its second "#" escaped. Nothing else changes.
func Guard(s string) string {
	if !strings.Contains(s, "::") && !strings.Contains(s, "##[") {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = GuardLine(l)
	}
	return strings.Join(lines, "")
}

// GuardLine is [Guard] for one line.
func GuardLine(l string) string {
	l = strings.ReplaceAll(l, "##[", "#"+Escape('#')+"[")
	t := strings.TrimLeftFunc(l, isSpace)
	if strings.HasPrefix(t, "::") {
		l = l[:len(l)-len(t)] + Escape(':') + t[1:]
	}
	return l
}

// isSpace is white space as the runners trim it (.NET's char.IsWhiteSpace,
// JavaScript's trimStart).
func isSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// JSON re-escapes, in encoded JSON, the characters a terminal would act on
// that encoding/json leaves raw — DEL, C1 controls and the other [Hidden]
// characters — as \uXXXX escapes, and writes "##[" as "#\u0023[". Such
// characters occur only inside JSON strings, so the result is valid JSON
// and decodes to the same values.
func JSON(data []byte) []byte {
	s := string(data)
	dirty := strings.Contains(s, "##[")
	for _, r := range s {
		if r >= 0x7F && Hidden(r) {
			dirty = true
			break
		}
	}
	if !dirty {
		return data
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i, r := range s {
		switch {
		case r == '#' && strings.HasPrefix(s[i:], "#[") && i > 0 && s[i-1] == '#':
			b.WriteString(`\u0023`)
		case r >= 0x7F && Hidden(r):
			if r > 0xFFFF {
				r1, r2 := utf16Pair(r)
				fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return []byte(b.String())
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}

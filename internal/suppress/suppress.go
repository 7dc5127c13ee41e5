// Package suppress implements inline suppressions written in YAML comments,
// in the manner of eslint-disable comments:
//
//	# celint-disable-next-line RULE[, RULE…] [-- reason]
//	# celint-disable-file RULE[, RULE…] [-- reason]
//
// The first suppresses the named rules' findings on the line right after the
// comment's line (whether the comment stands alone or trails a value); the
// second suppresses them anywhere in the file. RULE is a rule id, matching
// every code of the rule, or "id/code", matching only that code. Ids and
// codes are made of ASCII letters, digits, '.', '-' and '_'. Rules are
// separated by commas; text after " -- " is a reason, for readers only.
//
// A comment starts at a '#' at the start of a line or after a space or tab,
// and a directive must be the first word of its comment. A '#' inside a
// single- or double-quoted scalar is not a comment; quotes are tracked one
// line at a time (see [Scan] for the limits of that).
//
// Positions follow the loader's convention: lines end at "\n", "\r\n" or a
// lone '\r', and lines and columns are 1-based, a column counting
// characters (UTF-8 lead bytes; a tab is one).
package suppress

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/celint/celint/engine"
)

// ruleID is the rule id of the diagnostics this package reports.
const ruleID = "celint.suppression"

// The directive words.
const (
	nextLineWord = "celint-disable-next-line"
	fileWord     = "celint-disable-file"
)

// Directive is one suppression comment.
type Directive struct {
	// Line and Col are the position of the comment's '#'.
	Line, Col int
	// File is set for celint-disable-file, unset for
	// celint-disable-next-line.
	File bool
	// Rules are the rules named, "id" or "id/code", without duplicates, in
	// the order written.
	Rules []string
	// Text is the directive as written, trimmed: the comment from its '#'
	// to the end of its line, without surrounding white space.
	Text string
}

// word returns the directive's keyword.
func (d Directive) word() string {
	if d.File {
		return fileWord
	}
	return nextLineWord
}

// endCol returns the column just past the end of the directive's text.
func (d Directive) endCol() int { return d.Col + countChars([]byte(d.Text)) }

// Scan finds the suppression directives of a YAML source. Problems (a
// directive naming no rule, a malformed rule) are returned as diagnostics
// of rule id "celint.suppression" with code "malformed", severity Warning,
// at the comment's line:col, for file name. A malformed directive
// suppresses nothing: it is not among the directives returned.
//
// Scan reads comments line by line, without parsing the YAML, so:
//   - a line inside a block scalar ("|" or ">") that reads like a comment
//     holding a directive is taken for one, although it is content;
//   - quotes are tracked within a line only: a '#' on a continuation line
//     of a quoted scalar that spans lines is read as a comment, and a quote
//     that opens no quoted scalar (a plain scalar such as "a 'b" with a
//     quote after a space) hides the rest of its line.
//
// A comment whose first word starts with "celint-disable" but is neither
// directive (a misspelt one, or one followed by ':') is reported as
// malformed too.
func Scan(name string, src []byte) ([]Directive, []engine.Diagnostic) {
	var dirs []Directive
	var probs []engine.Diagnostic
	for line := 1; ; line++ {
		text, rest, more := cutLine(src)
		src = rest
		if at := commentStart(text); at >= 0 {
			comment := strings.TrimRight(string(text[at:]), " \t")
			d := Directive{Line: line, Col: 1 + countChars(text[:at]), Text: comment}
			ok, msgs := parse(&d, comment[1:])
			if ok {
				dirs = append(dirs, d)
			}
			for _, m := range msgs {
				probs = append(probs, engine.Diagnostic{
					File: name, RuleID: ruleID, Code: "malformed", Severity: engine.Warning,
					Message: m, Line: d.Line, Column: d.Col, EndLine: d.Line, EndColumn: d.endCol(),
				})
			}
		}
		if !more {
			break
		}
	}
	return dirs, probs
}

// cutLine splits src after its first line, returning the line without its
// break, the rest, and whether the rest holds another line (the empty text
// after a final line break is not one).
func cutLine(src []byte) (line, rest []byte, more bool) {
	i := bytes.IndexAny(src, "\r\n")
	if i < 0 {
		return src, nil, false
	}
	n := 1
	if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
		n = 2
	}
	rest = src[i+n:]
	return src[:i], rest, len(rest) > 0
}

// commentStart returns the byte offset of the '#' that starts the line's
// comment, or -1. A quote opens a quoted scalar when it starts the line or
// follows a space, a tab or one of "[{,:"; in a single-quoted scalar two
// quotes are a quote, in a double-quoted one a backslash escapes the next
// character.
func commentStart(line []byte) int {
	var quote byte // the open quote, or 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				quote = 0
			}
		case quote == '\'':
			if c == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					i++
				} else {
					quote = 0
				}
			}
		case c == '#':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' {
				return i
			}
		case c == '"' || c == '\'':
			if i == 0 || strings.IndexByte(" \t[{,:", line[i-1]) >= 0 {
				quote = c
			}
		}
	}
	return -1
}

// parse reads the comment body (the text after '#') into d. It reports
// whether the comment is a well-formed directive, and the problems of a
// comment that means to be one.
func parse(d *Directive, body string) (bool, []string) {
	body = strings.TrimLeft(body, " \t")
	word, rest := body, ""
	if i := strings.IndexAny(body, " \t"); i >= 0 {
		word, rest = body[:i], body[i:]
	}
	switch word {
	case nextLineWord:
	case fileWord:
		d.File = true
	default:
		if strings.HasPrefix(word, "celint-disable") {
			return false, []string{fmt.Sprintf("unknown suppression directive %q: expected %s or %s followed by rule names", word, nextLineWord, fileWord)}
		}
		return false, nil
	}
	list := cutReason(rest)
	if strings.Trim(list, " \t") == "" {
		return false, []string{fmt.Sprintf("%s names no rule: expected %s RULE[, RULE...] [-- reason]", word, word)}
	}
	var msgs []string
	seen := map[string]bool{}
	for r := range strings.SplitSeq(list, ",") {
		r = strings.Trim(r, " \t")
		if r == "" {
			msgs = append(msgs, fmt.Sprintf("%s: empty rule name in %q", word, strings.Trim(list, " \t")))
			continue
		}
		if !validRule(r) {
			msgs = append(msgs, fmt.Sprintf("%s: malformed rule %q: expected a rule id or id/code of letters, digits, '.', '-' and '_', rules separated by commas", word, r))
			continue
		}
		if !seen[r] {
			seen[r] = true
			d.Rules = append(d.Rules, r)
		}
	}
	if msgs != nil {
		d.Rules = nil
		return false, msgs
	}
	return true, nil
}

// cutReason returns s up to its reason: a "--" after a space or tab, at the
// end or followed by a space or tab. s starts with a space or tab or is
// empty.
func cutReason(s string) string {
	for i := 0; i+2 <= len(s); i++ {
		if s[i:i+2] != "--" || i == 0 || (s[i-1] != ' ' && s[i-1] != '\t') {
			continue
		}
		if i+2 == len(s) || s[i+2] == ' ' || s[i+2] == '\t' {
			return s[:i]
		}
	}
	return s
}

// validRule reports whether r is "id" or "id/code".
func validRule(r string) bool {
	id, code, hasCode := strings.Cut(r, "/")
	return validName(id) && (!hasCode || validName(code))
}

// validName reports whether s is a non-empty run of ASCII letters, digits,
// '.', '-' and '_'.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// countChars counts the characters of b: its bytes other than UTF-8
// continuation bytes, as the loader counts columns.
func countChars(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// matches reports whether the rule written as r ("id" or "id/code") names
// d's finding.
func matches(r string, d engine.Diagnostic) bool {
	id, code, hasCode := strings.Cut(r, "/")
	return d.RuleID == id && (!hasCode || d.Code == code)
}

// Apply removes from ds the findings that a directive suppresses (rule
// errors and input errors are never suppressed) and returns the kept
// diagnostics plus one warning per directive rule that suppressed nothing:
// rule id "celint.suppression", code "unused", at the directive's position.
//
// Only diagnostics of file name are considered; others pass through
// untouched. The kept diagnostics keep their order and the warnings follow
// them, in directive order; ds is not modified. A finding suppressed by
// several directives counts as used by each. The unused warnings are not
// themselves subject to suppression, but diagnostics in ds are, whatever
// their rule, so the malformed warnings of [Scan], when passed in, can be
// suppressed by a directive naming celint.suppression.
func Apply(name string, ds []engine.Diagnostic, dirs []Directive) []engine.Diagnostic {
	used := make([][]bool, len(dirs))
	for i, dir := range dirs {
		used[i] = make([]bool, len(dir.Rules))
	}
	out := make([]engine.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d.File != name || d.RuleError || d.InputError {
			out = append(out, d)
			continue
		}
		suppressed := false
		for i, dir := range dirs {
			if !dir.File && d.Line != dir.Line+1 {
				continue
			}
			for j, r := range dir.Rules {
				if matches(r, d) {
					used[i][j] = true
					suppressed = true
				}
			}
		}
		if !suppressed {
			out = append(out, d)
		}
	}
	for i, dir := range dirs {
		for j, r := range dir.Rules {
			if used[i][j] {
				continue
			}
			where := "in this file"
			if !dir.File {
				where = fmt.Sprintf("on line %d", dir.Line+1)
			}
			out = append(out, engine.Diagnostic{
				File: name, RuleID: ruleID, Code: "unused", Severity: engine.Warning,
				Message: fmt.Sprintf("%s names %s, which reports nothing %s", dir.word(), r, where),
				Line:    dir.Line, Column: dir.Col, EndLine: dir.Line, EndColumn: dir.endCol(),
			})
		}
	}
	return out
}

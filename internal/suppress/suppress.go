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
// A directive is read up to its 1000th rule ([MaxRules]); the others are
// ignored, with a warning. A comment's problems are reported in one
// warning, and so are the rules of a directive that suppressed nothing:
// one diagnostic per comment however many rules it names, listing the
// first few rules.
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
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
)

// ruleID is the rule id of the diagnostics this package reports.
const ruleID = "celint.suppression"

// MaxRules is the most rules of one directive that are read.
const MaxRules = 1000

// maxListed is the most rules one diagnostic names; it says how many
// more there are.
const maxListed = 10

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
// directive naming no rule, malformed rules, more than MaxRules rules) are
// returned as diagnostics of rule id "celint.suppression" with code
// "malformed", severity Warning, at the comment's line:col, for file name:
// one per comment. A malformed directive suppresses nothing: it is not
// among the directives returned; one that only names too many rules
// suppresses the first MaxRules.
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
			ok, msg := parse(&d, comment[1:])
			if ok {
				dirs = append(dirs, d)
			}
			if msg != "" {
				probs = append(probs, engine.Diagnostic{
					File: name, RuleID: ruleID, Code: "malformed", Severity: engine.Warning,
					Message: msg, Line: d.Line, Column: d.Col, EndLine: d.Line, EndColumn: d.endCol(),
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
// whether the comment is a directive that suppresses anything, and the
// problems of a comment that means to be one, in one message.
func parse(d *Directive, body string) (bool, string) {
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
			return false, fmt.Sprintf("unknown suppression directive %s: expected %s or %s followed by rule names", quote(word), nextLineWord, fileWord)
		}
		return false, ""
	}
	list := cutReason(rest)
	if strings.Trim(list, " \t") == "" {
		return false, fmt.Sprintf("%s names no rule: expected %s RULE[, RULE...] [-- reason]", word, word)
	}
	var bad []string
	empty := false
	seen := map[string]bool{}
	n := 0
	for r := range strings.SplitSeq(list, ",") {
		if n++; n > MaxRules {
			break
		}
		r = strings.Trim(r, " \t")
		switch {
		case r == "":
			empty = true
		case !validRule(r):
			bad = append(bad, quote(r))
		case !seen[r]:
			seen[r] = true
			d.Rules = append(d.Rules, r)
		}
	}
	var problems []string
	if bad != nil {
		problems = append(problems, fmt.Sprintf("malformed %s %s: expected a rule id or id/code of letters, digits, '.', '-' and '_', rules separated by commas", plural(len(bad), "rule", "rules"), listed(bad)))
	}
	if empty {
		problems = append(problems, fmt.Sprintf("empty rule name in %s", quote(strings.Trim(list, " \t"))))
	}
	if n > MaxRules {
		total := strings.Count(list, ",") + 1
		problems = append(problems, fmt.Sprintf("%d rules, more than %d: those after the %dth are ignored", total, MaxRules, MaxRules))
	}
	if problems == nil {
		return true, ""
	}
	msg := word + ": " + strings.Join(problems, "; ")
	if bad != nil || empty {
		d.Rules = nil
		return false, msg
	}
	return true, msg
}

// quote quotes s as Go does, its first 40 characters when it is longer,
// with "…" after them.
func quote(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		i := 0
		for k := 0; k < 40; k++ {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
		return safetext.Line(strconv.Quote(s[:i]) + "…")
	}
	return safetext.Line(strconv.Quote(s))
}

// listed lists items for a message: "a", "a and b", "a, b and c", or the
// first maxListed followed by "and N more".
func listed(items []string) string {
	for i, it := range items[:min(len(items), maxListed)] {
		items[i] = safetext.Line(it)
	}
	switch {
	case len(items) == 1:
		return items[0]
	case len(items) <= maxListed:
		return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
	}
	return strings.Join(items[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(items)-maxListed)
}

// plural is one for 1, many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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

// Apply removes from ds the findings that a directive suppresses (rule
// errors and input errors are never suppressed) and returns the kept
// diagnostics plus the warnings of [Matcher.Unused]: one per directive
// with rules that suppressed nothing.
//
// Only diagnostics of file name are considered; others pass through
// untouched. The kept diagnostics keep their order and the warnings follow
// them, in directive order; ds is not modified. A finding suppressed by
// several directives counts as used by each. The unused warnings are not
// themselves subject to suppression, but diagnostics in ds are, whatever
// their rule, so the malformed warnings of [Scan], when passed in, can be
// suppressed by a directive naming celint.suppression.
func Apply(name string, ds []engine.Diagnostic, dirs []Directive) []engine.Diagnostic {
	m := NewMatcher(name, dirs)
	out := make([]engine.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if !m.Suppressed(d) {
			out = append(out, d)
		}
	}
	return append(out, m.Unused()...)
}

// Matcher applies the directives of one file to its findings one at a
// time, as they are found, and then tells which directive rules
// suppressed nothing. Its work is linear in the findings and the rules
// the directives name, however many directives there are. A Matcher is
// used by one goroutine at a time.
type Matcher struct {
	name string
	dirs []Directive
	used [][]bool // by directive, by rule
	// next lists, by line, the celint-disable-next-line directives that
	// apply to it; rules indexes the rules of each, by directive, once a
	// finding falls on its line.
	next  map[int][]int
	rules []map[string]int
	// file are the rules of the celint-disable-file directives.
	file map[string]*fileRule
	// known and suggest are set by Known.
	known   func(rule string) bool
	suggest func(rule string) []string
}

// Known tells the matcher which rules the run has loaded: known reports
// whether a rule id, or an "id/code", names one of them, and suggest
// returns the names nearest to one that does not. Unused then says of a
// name no loaded rule has just that, with the nearest names, rather than
// that it reports nothing.
func (m *Matcher) Known(known func(rule string) bool, suggest func(rule string) []string) {
	m.known, m.suggest = known, suggest
}

// fileRule is a rule named by celint-disable-file directives: where each
// names it, and whether they are marked used already.
type fileRule struct {
	at     []ruleRef
	marked bool
}

// ruleRef is the rule'th rule of directive dir.
type ruleRef struct{ dir, rule int }

// NewMatcher returns a Matcher of the directives for the findings of file
// name.
func NewMatcher(name string, dirs []Directive) *Matcher {
	m := &Matcher{name: name, dirs: dirs, used: make([][]bool, len(dirs)), rules: make([]map[string]int, len(dirs)),
		next: map[int][]int{}, file: map[string]*fileRule{}}
	for i, dir := range dirs {
		m.used[i] = make([]bool, len(dir.Rules))
		if !dir.File {
			m.next[dir.Line+1] = append(m.next[dir.Line+1], i)
			continue
		}
		for j, r := range dir.Rules {
			fr := m.file[r]
			if fr == nil {
				fr = &fileRule{}
				m.file[r] = fr
			}
			fr.at = append(fr.at, ruleRef{i, j})
		}
	}
	return m
}

// Suppressed reports whether a directive suppresses d, and marks the
// directives' rules that do used. Rule errors, input errors and the
// diagnostics of other files are never suppressed.
func (m *Matcher) Suppressed(d engine.Diagnostic) bool {
	if d.File != m.name || d.RuleError || d.InputError {
		return false
	}
	// A finding is named by its rule id, or by "id/code".
	keys := [2]string{d.RuleID}
	if d.Code != "" {
		keys[1] = d.RuleID + "/" + d.Code
	}
	hit := false
	for _, k := range keys {
		if k == "" {
			continue
		}
		if fr := m.file[k]; fr != nil {
			hit = true
			if !fr.marked {
				fr.marked = true
				for _, at := range fr.at {
					m.used[at.dir][at.rule] = true
				}
			}
		}
	}
	for _, i := range m.next[d.Line] {
		if m.rules[i] == nil {
			m.rules[i] = make(map[string]int, len(m.dirs[i].Rules))
			for j, r := range m.dirs[i].Rules {
				m.rules[i][r] = j
			}
		}
		for _, k := range keys {
			if j, ok := m.rules[i][k]; ok && k != "" {
				m.used[i][j] = true
				hit = true
			}
		}
	}
	return hit
}

// Unused returns one warning per directive with rules that suppressed
// nothing, in directive order: rule id "celint.suppression", code
// "unused", at the directive's position, naming the first of those rules
// and how many more there are. Once Known was called, the names that no
// loaded rule has are said to be that, with the nearest names of loaded
// rules, before those that report nothing.
func (m *Matcher) Unused() []engine.Diagnostic {
	var out []engine.Diagnostic
	for i, dir := range m.dirs {
		var unused, unknown []string
		for j, r := range dir.Rules {
			switch {
			case m.used[i][j]:
			case m.known != nil && !m.known(r):
				unknown = append(unknown, r)
			default:
				unused = append(unused, r)
			}
		}
		if unused == nil && unknown == nil {
			continue
		}
		where := "in this file"
		if !dir.File {
			where = fmt.Sprintf("on line %d", dir.Line+1)
		}
		var parts []string
		if unknown != nil {
			var near []string
			if m.suggest != nil {
				near = m.suggest(unknown[0])
			}
			msg := fmt.Sprintf("%s, which no loaded rule has", listed(unknown))
			if len(near) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(near, " or "))
			}
			parts = append(parts, msg)
		}
		if unused != nil {
			parts = append(parts, fmt.Sprintf("%s, which %s nothing %s", listed(unused), plural(len(unused), "reports", "report"), where))
		}
		out = append(out, engine.Diagnostic{
			File: m.name, RuleID: ruleID, Code: "unused", Severity: engine.Warning,
			Message: fmt.Sprintf("%s names %s", dir.word(), strings.Join(parts, "; and ")),
			Line:    dir.Line, Column: dir.Col, EndLine: dir.Line, EndColumn: dir.endCol(),
		})
	}
	return out
}

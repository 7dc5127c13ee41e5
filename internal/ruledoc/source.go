package ruledoc

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/celint/celint/engine"
)

// ruleBlock returns the YAML text of the rule list item that starts on line
// (1-based) of src: from its "- " up to the next item at the same
// indentation, anything less indented, or the end of the file. Blank lines
// and comments at the item's indentation or less that precede the next item
// belong to it and are left out. The block is dedented so that its dash
// stands in the first column.
func ruleBlock(src []byte, line int) (string, error) {
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	if line < 1 || line > len(lines) {
		return "", fmt.Errorf("rule starts at line %d, outside its rule file (%d lines)", line, len(lines))
	}
	start := line - 1
	// A rule written as "-" alone on a line, its first member on the next.
	if !strings.HasPrefix(strings.TrimLeft(lines[start], " "), "-") {
		for p := start - 1; p >= 0; p-- {
			t := strings.TrimSpace(lines[p])
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			if t == "-" {
				start = p
			}
			break
		}
	}
	if !strings.HasPrefix(strings.TrimLeft(lines[start], " "), "-") {
		return "", fmt.Errorf("line %d of its rule file does not start a list item", line)
	}
	indent := indentOf(lines[start])
	end := start + 1 // one past the last line of the block
	for i := start + 1; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || (strings.HasPrefix(t, "#") && indentOf(lines[i]) <= indent) {
			continue // kept only when more of the rule follows
		}
		if indentOf(lines[i]) <= indent {
			break
		}
		end = i + 1
	}
	var b strings.Builder
	for _, l := range lines[start:end] {
		l = strings.TrimRight(l, " \t")
		if len(l) >= indent {
			l = l[indent:]
		} else {
			l = strings.TrimLeft(l, " ")
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// indentOf counts a line's leading spaces.
func indentOf(l string) int {
	return len(l) - len(strings.TrimLeft(l, " "))
}

// Source returns the YAML text of rule r as written in its rule file,
// dedented (see ruleBlock).
func Source(r *engine.Rule) (string, error) {
	return ruleBlock(r.Text, int(r.Pos.Line))
}

// paramUse finds the header params a rule's text names: {$param: name},
// params.name in CEL, and {params.name} in a message template.
var paramUse = regexp.MustCompile(`\$param:\s*"?([A-Za-z_][A-Za-z0-9_]*)|\bparams\.([A-Za-z_][A-Za-z0-9_]*)`)

// UsedParams returns the names of the header params the rule text src
// names, each once, in the order met.
func UsedParams(src string) []string {
	var out []string
	for _, m := range paramUse.FindAllStringSubmatch(src, -1) {
		if name := m[1] + m[2]; !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// RuleParams returns the names of the header params of rs that the rule
// text src names, each once, in the order met: those it names itself,
// then those that the document variables of rs it reads name (and the
// variables those read).
func RuleParams(rs *engine.Ruleset, src string) []string {
	out := UsedParams(src)
	vars := rs.Variables()
	seen := map[string]bool{}
	var follow func(text string)
	follow = func(text string) {
		for _, name := range wordsIn(text, vars) {
			if seen[name] {
				continue
			}
			seen[name] = true
			for _, p := range UsedParams(vars[name]) {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
			follow(vars[name])
		}
	}
	follow(src)
	return out
}

// wordsIn returns the keys of names that text has as whole words, in the
// order met.
func wordsIn(text string, names map[string]string) []string {
	var out []string
	for _, w := range identifier.FindAllString(text, -1) {
		if _, ok := names[w]; ok && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// identifier finds the words of a text that could name a variable.
var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// paramsYAML lists the values rs gives the params the rule text src
// names, itself or through the ruleset's document variables (see
// RuleParams), one "name: value" line each (the value as JSON, which
// YAML reads alike); "" when it names none.
func paramsYAML(rs *engine.Ruleset, src string) string {
	var b strings.Builder
	params := rs.Params()
	for _, name := range RuleParams(rs, src) {
		v, err := json.Marshal(params[name])
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", name, v)
	}
	return b.String()
}

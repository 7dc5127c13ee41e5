package engine_test

import "testing"

// TestSelfStyleAndPlainScalars: rules see how each value is written, and
// the plain scalars other YAML readers take differently; a ruleset's
// loader.scalars decides how plain scalars read.
func TestSelfStyleAndPlainScalars(t *testing.T) {
	rules := `rules:
  - id: t.style
    level: should
    given: "**"
    checks:
      - assert: "false"
        messageExpression: "selfStyle + ' ' + jsonType(self)"
  - id: t.plain
    level: should
    given: $
    checks:
      - assert: "plainScalars.map(p, {'at': p.path.substring(1), 'message': p.reading + ' ' + p.value})"
`
	doc := "a: True\nb: 'x'\nc: \"y\"\nd: |\n  z\ne: >\n  w\nf: [1, 2026-08-25]\ng: {h: ~}\n"
	sameLines(t, lintWith(t, "name: t\ntag: v1\nloader: {scalars: json}\n", rules, doc), []string{
		"1:1 warning  [t.style] block object",
		"1:1 warning /a [t.plain] bool True",
		"1:1 warning /a [t.style] plain string",
		"2:1 warning /b [t.style] single string",
		"3:1 warning /c [t.style] double string",
		"4:1 warning /d [t.style] literal string",
		"6:1 warning /e [t.style] folded string",
		"8:1 warning /f [t.style] flow array",
		"8:5 warning /f/0 [t.style] plain number",
		"8:8 warning /f/1 [t.plain] timestamp 2026-08-25",
		"8:8 warning /f/1 [t.style] plain string",
		"9:1 warning /g [t.style] flow object",
		"9:5 warning /g/h [t.plain] null ~",
		"9:5 warning /g/h [t.style] plain string",
	})
	// Under the core schema, True and ~ are a boolean and a null.
	got := lintWith(t, "", rules, "a: True\nb: ~\n")
	sameLines(t, got, []string{
		"1:1 warning  [t.style] block object",
		"1:1 warning /a [t.style] plain boolean",
		"2:1 warning /b [t.style] plain null",
	})
	// JSON has no plain strings.
	sameLines(t, lintNamed(t, "name: t\ntag: v1\nloader: {scalars: json}\n", rules, "doc.json", `{"a": "True", "b": [1]}`), []string{
		"1:1 warning  [t.style] flow object",
		"1:2 warning /a [t.style] double string",
		"1:15 warning /b [t.style] flow array",
		"1:21 warning /b/0 [t.style] plain number",
	})
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/ruledoc"
	"github.com/celint/celint/internal/safetext"
)

// rulesDiff is what changes between two pinned rulesets: the rules and
// codes one has and the other lacks, and the rules whose meaning differs.
type rulesDiff struct {
	From      string        `json:"from"`
	To        string        `json:"to"`
	Added     []diffRule    `json:"added"`
	Removed   []diffRule    `json:"removed"`
	Changed   []changedRule `json:"changed"`
	Unchanged int           `json:"unchanged"`
}

// diffRule is a rule of one side only.
type diffRule struct {
	ID    string   `json:"id"`
	Level string   `json:"level"`
	Title string   `json:"title"`
	Codes []string `json:"codes,omitempty"`
}

// changedRule is a rule of both sides whose meaning differs, with what
// differs, one change a line.
type changedRule struct {
	ID      string   `json:"id"`
	Changes []string `json:"changes"`
}

func runDiffRules(args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	fset := newFlagSet("diff-rules", "diff-rules [--rules DIR] [--format text|json] FROM-TAG TO-TAG", stdout)
	f.register(fset.FlagSet, withSpec)
	var format string
	fset.StringVar(&format, "format", "text", "output `format`: text or json")
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) != 2 {
		return exitError, &usageError{command: "diff-rules", msg: "diff-rules needs two pinned tags, the one upgraded from and the one upgraded to (such as v0.8.0 v0.9.0-rc.3)"}
	}
	if format != "text" && format != "json" {
		return exitError, &usageError{command: "diff-rules", msg: fmt.Sprintf("--format %q: expected text or json", format)}
	}
	if f.spec != "" {
		return exitError, &usageError{command: "diff-rules", msg: "diff-rules names its two rulesets as arguments; leave --spec out"}
	}
	cat, _, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	from, err := cat.Find(rest[0])
	if err != nil {
		return exitError, err
	}
	to, err := cat.Find(rest[1])
	if err != nil {
		return exitError, err
	}
	d, err := diffRulesets(from, to)
	if err != nil {
		return exitError, err
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return exitOK, enc.Encode(d)
	}
	return exitOK, d.writeText(stdout)
}

// diffRulesets compares the rules of two rulesets by id. A rule of both
// is changed when its level, its codes and their levels, its text as
// written, or the value of a param it uses differ.
func diffRulesets(from, to *engine.Ruleset) (*rulesDiff, error) {
	d := &rulesDiff{From: from.String(), To: to.String(), Added: []diffRule{}, Removed: []diffRule{}, Changed: []changedRule{}}
	for _, r := range to.Rules {
		if from.Rule(r.ID) == nil {
			d.Added = append(d.Added, newDiffRule(r))
		}
	}
	for _, r := range from.Rules {
		other := to.Rule(r.ID)
		if other == nil {
			d.Removed = append(d.Removed, newDiffRule(r))
			continue
		}
		changes, err := ruleChanges(from, r, to, other)
		if err != nil {
			return nil, err
		}
		if len(changes) == 0 {
			d.Unchanged++
			continue
		}
		d.Changed = append(d.Changed, changedRule{ID: r.ID, Changes: changes})
	}
	return d, nil
}

func newDiffRule(r *engine.Rule) diffRule {
	out := diffRule{ID: r.ID, Level: r.Doc.Level, Title: r.Doc.Title}
	for _, c := range r.Codes {
		if c.Name != "" {
			out.Codes = append(out.Codes, c.Name)
		}
	}
	return out
}

// ruleChanges lists what differs between rule a of ruleset ra and rule b
// of ruleset rb, which have the same id.
func ruleChanges(ra *engine.Ruleset, a *engine.Rule, rb *engine.Ruleset, b *engine.Rule) ([]string, error) {
	var out []string
	if a.Doc.Level != b.Doc.Level {
		out = append(out, fmt.Sprintf("level %s → %s", a.Doc.Level, b.Doc.Level))
	}
	codes := func(r *engine.Rule) map[string]string {
		m := map[string]string{}
		for _, c := range r.Codes {
			if c.Name != "" {
				m[c.Name] = c.LevelLabel()
			}
		}
		return m
	}
	ca, cb := codes(a), codes(b)
	for _, name := range slices.Sorted(maps.Keys(cb)) {
		if la, ok := ca[name]; !ok {
			out = append(out, "code added: "+name)
		} else if la != cb[name] {
			out = append(out, fmt.Sprintf("code %s: level %s → %s", name, la, cb[name]))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(ca)) {
		if _, ok := cb[name]; !ok {
			out = append(out, "code removed: "+name)
		}
	}
	sa, err := ruledoc.Source(a)
	if err != nil {
		return nil, err
	}
	sb, err := ruledoc.Source(b)
	if err != nil {
		return nil, err
	}
	if sa != sb {
		out = append(out, fmt.Sprintf("written differently (%s, %s)", a.File, b.File))
		return out, nil
	}
	// The same text: its meaning changes with the params it uses, itself
	// or through the document variables it reads.
	pa, pb := ra.Params(), rb.Params()
	names := ruledoc.RuleParams(ra, sa)
	for _, name := range ruledoc.RuleParams(rb, sb) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		va, vb := jsonText(pa[name]), jsonText(pb[name])
		if va != vb {
			out = append(out, fmt.Sprintf("param %s: %s → %s", name, va, vb))
		}
	}
	return out, nil
}

// jsonText is v as compact JSON; "absent" for nil.
func jsonText(v any) string {
	if v == nil {
		return "absent"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func (d *rulesDiff) writeText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "from %s to %s: %d added, %d removed, %d changed, %d unchanged\n",
		d.From, d.To, len(d.Added), len(d.Removed), len(d.Changed), d.Unchanged)
	list := func(title string, rules []diffRule) {
		if len(rules) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, r := range rules {
			fmt.Fprintf(&b, "  %s (%s) %s\n", r.ID, r.Level, r.Title)
			if len(r.Codes) > 0 {
				fmt.Fprintf(&b, "    codes: %s\n", strings.Join(r.Codes, ", "))
			}
		}
	}
	list("added", d.Added)
	list("removed", d.Removed)
	if len(d.Changed) > 0 {
		fmt.Fprintf(&b, "\nchanged:\n")
		for _, c := range d.Changed {
			fmt.Fprintf(&b, "  %s\n", c.ID)
			for _, ch := range c.Changes {
				fmt.Fprintf(&b, "    %s\n", ch)
			}
		}
	}
	_, err := io.WriteString(w, safetext.Block(b.String()))
	return err
}

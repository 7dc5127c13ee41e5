package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/celint/celint/engine"
)

// Only restricts a run to some rules, or to some findings of a rule: which
// rules run (Rule, for engine.LintOptions.Filter) and which of their
// findings are kept (Keep, for Filter.Keep).
type Only struct {
	// codes are the codes kept of each rule that runs; nil keeps them all.
	codes map[string][]string
}

// ParseOnly reads a list of rule ids, each alone for every finding of the
// rule, or "id/code" for one of them (celint check --rule). Each must name
// a rule or a code of one of rss.
func ParseOnly(entries []string, rss []*engine.Ruleset) (*Only, error) {
	known := map[string]bool{}
	for _, rs := range rss {
		for _, r := range rs.Rules {
			for _, c := range r.Codes {
				known[r.ID+"/"+c.Name] = true
			}
			known[r.ID] = true
		}
	}
	o := &Only{codes: map[string][]string{}}
	for _, entry := range entries {
		if !known[entry] {
			return nil, fmt.Errorf("no rule or code %q", entry)
		}
		id, code, hasCode := strings.Cut(entry, "/")
		if list, seen := o.codes[id]; !hasCode || (seen && list == nil) {
			o.codes[id] = nil
		} else {
			o.codes[id] = append(list, code)
		}
	}
	return o, nil
}

// Rule reports whether r runs.
func (o *Only) Rule(r *engine.Rule) bool {
	_, ok := o.codes[r.ID]
	return ok
}

// Keep reports whether a finding is kept: every finding of a rule named
// alone, and rule errors; of a rule named with codes, the findings of
// those codes. Findings of rules it does not name (celint's own) are kept.
func (o *Only) Keep(d engine.Diagnostic) bool {
	list, ok := o.codes[d.RuleID]
	return !ok || list == nil || d.RuleError || slices.Contains(list, d.Code)
}

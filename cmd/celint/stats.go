package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/exprcache"
	"github.com/celint/celint/internal/safetext"
)

// statsRows is the value of --stats: a bare --stats is 20 rows, --stats=N
// is N, --stats=all is every rule (-1); 0 is no statistics.
type statsRows int

func (r *statsRows) String() string {
	switch {
	case r == nil || *r == 0:
		return ""
	case *r < 0:
		return "all"
	}
	return strconv.Itoa(int(*r))
}

func (r *statsRows) Set(v string) error {
	switch v {
	case "true":
		*r = 20
	case "false":
		*r = 0
	case "all":
		*r = -1
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("expected a positive number of rows or all, got %q", v)
		}
		*r = statsRows(n)
	}
	return nil
}

// IsBoolFlag lets --stats stand alone.
func (r *statsRows) IsBoolFlag() bool { return true }

// ruleStats sums engine.RuleStats over the files of a run, by rule, for
// check --stats: where a run's time goes, rule by rule.
type ruleStats struct {
	mu     sync.Mutex
	byRule map[*engine.Rule]*ruleTotal
}

type ruleTotal struct {
	files, nodes int
	shared       int // nodes another rule evaluated for it (engine.RuleStats.Shared)
	cost         uint64
	time         time.Duration // linting, compiling excluded
	compile      time.Duration
}

// add is an engine.LintOptions.Stats callback; files lint at once, so it
// locks.
func (s *ruleStats) add(st engine.RuleStats) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byRule == nil {
		s.byRule = map[*engine.Rule]*ruleTotal{}
	}
	t := s.byRule[st.Rule]
	if t == nil {
		t = &ruleTotal{}
		s.byRule[st.Rule] = t
	}
	t.files++
	t.nodes += st.Nodes
	t.shared += st.Shared
	t.cost += st.Cost
	t.time += st.Duration - st.Compile
	t.compile += st.Compile
}

// write prints the rules, slowest first, with their share of the rules'
// time; at most limit rows (0: all).
func (s *ruleStats) write(w io.Writer, limit int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	type row struct {
		rule *engine.Rule
		*ruleTotal
	}
	var rows []row
	var total, compile time.Duration
	for r, t := range s.byRule {
		rows = append(rows, row{r, t})
		total += t.time
		compile += t.compile
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(b.time, a.time), cmp.Compare(a.rule.ID, b.rule.ID))
	})
	fmt.Fprintf(w, "celint: rule statistics (%d rules, %v linting and %v compiling rules on first use; times are wall-clock per rule, summed over files, and overlap when rules run at once; cost is in the machine-independent units of --budget)\n",
		len(rows), total.Round(time.Millisecond), compile.Round(time.Millisecond))
	if limit > 0 && len(rows) > limit {
		defer fmt.Fprintf(w, "(%d more)\n", len(rows)-limit)
		rows = rows[:limit]
	}
	// The rule column is left-aligned, the figures right-aligned.
	cells := [][]string{{"rule", "files", "nodes", "shared", "cost", "time", "share", "compile"}}
	for _, r := range rows {
		share := 0.0
		if total > 0 {
			share = 100 * float64(r.time) / float64(total)
		}
		cells = append(cells, []string{safetext.Line(r.rule.ID), strconv.Itoa(r.files), strconv.Itoa(r.nodes), strconv.Itoa(r.shared), strconv.FormatUint(r.cost, 10),
			ms(r.time), fmt.Sprintf("%.1f%%", share), ms(r.compile)})
	}
	width := make([]int, len(cells[0]))
	for _, row := range cells {
		for i, c := range row {
			width[i] = max(width[i], len(c))
		}
	}
	for _, row := range cells {
		fmt.Fprintf(w, "%-*s", width[0], row[0])
		for i, c := range row[1:] {
			fmt.Fprintf(w, "  %*s", width[i+1], c)
		}
		fmt.Fprintln(w)
	}
}

// ms is d in milliseconds, to a tenth.
func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// writeCheckedStats says how many CEL expressions compiled from the
// rulesets' checked expressions (see exprcache.Set), and how many were
// parsed and type-checked.
func writeCheckedStats(w io.Writer, rss []*engine.Ruleset) {
	seen := map[*exprcache.Set]bool{}
	hits, misses := 0, 0
	for _, rs := range rss {
		if c := rs.Checked(); c != nil && !seen[c] {
			seen[c] = true
			hits += c.Hits()
			misses += c.Misses()
		}
	}
	fmt.Fprintf(w, "celint: CEL expressions compiled on first use: %d from the rulesets' checked expressions, %d parsed and type-checked\n", hits, misses)
}

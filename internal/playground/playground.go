// Package playground is celint's check pipeline as a browser playground
// calls it: lint a text held in memory, apply one finding's fix, list the
// rules, show a rule's page and the versions. Every answer is a value that
// encodes to JSON, with the positions an editor needs (UTF-16 offsets and
// 0-based lines and characters) beside the loader's (1-based line and
// column, counting code points).
//
// It runs the same engine as celint check, on the same embedded rulesets,
// with their limits; the WebAssembly entry (cmd/celint-wasm) only turns
// JavaScript values into these calls and their answers back into objects.
package playground

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/internal/ruledoc"
	"github.com/celint/celint/internal/spelling"
	"github.com/celint/celint/internal/textpos"
	"github.com/celint/celint/loader"
)

// Options say what a Playground is made of.
type Options struct {
	// Embedded loads the built-in rulesets (celint's: rulesets.Load).
	Embedded func(engine.Options) ([]*engine.Ruleset, error)
	// Version is celint's version, as Versions reports it.
	Version string
}

// Playground lints texts with the embedded rulesets. It keeps one
// lint.Checker per spec it is asked for, so the rules each compiles stay
// compiled. It is safe for concurrent use.
type Playground struct {
	rulesets *lint.Rulesets
	version  string

	mu       sync.Mutex
	checkers map[string]*lint.Checker // by spec; "" for the declared version
}

// New loads the embedded rulesets. Rules compile when a document first
// needs them.
func New(opts Options) (*Playground, error) {
	rs, err := lint.LoadRulesets(lint.Sources{Embedded: opts.Embedded, Options: engine.Options{Lazy: true}})
	if err != nil {
		return nil, err
	}
	return &Playground{rulesets: rs, version: opts.Version, checkers: map[string]*lint.Checker{}}, nil
}

// checker returns the Checker of spec: "" chooses each document's ruleset
// by the version it declares, a tag (or name@tag) pins one.
func (p *Playground) checker(spec string) (*lint.Checker, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.checkers[spec]; ok {
		return c, nil
	}
	var pinned *engine.Ruleset
	if spec != "" {
		rs, err := p.rulesets.Catalog().Find(spec)
		if err != nil {
			return nil, err
		}
		pinned = rs
	}
	c := lint.NewChecker(lint.NewRulesets(p.rulesets.Catalog(), pinned), lint.Options{})
	p.checkers[spec] = c
	return c, nil
}

// LintOptions say how a text is linted.
type LintOptions struct {
	// Name is the document's name, whose extension tells JSON from YAML;
	// "" names it playground.json when its first character (after spaces)
	// is '{' or '[', else playground.yaml.
	Name string `json:"name"`
	// Spec pins a ruleset by tag or name@tag; "" chooses the one for the
	// version the document declares, as celint check does.
	Spec string `json:"spec"`
}

// Counts are numbers of findings by severity.
type Counts struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// Diagnostic is one finding, as the playground shows it.
type Diagnostic struct {
	// Index is the finding's place in LintResult.Diagnostics, which Fix
	// takes.
	Index int `json:"index"`
	// RuleID and Code name the finding; ID is both, as celint check
	// prints it (id, or id/code).
	RuleID   string `json:"ruleId"`
	Code     string `json:"code,omitempty"`
	ID       string `json:"id"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Pointer  string `json:"pointer"`
	URL      string `json:"url,omitempty"`
	// Line, Column, EndLine and EndColumn are the loader's: from 1,
	// columns counting code points; EndLine is 0 when the end is unknown.
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndLine   int `json:"endLine,omitempty"`
	EndColumn int `json:"endColumn,omitempty"`
	// Start and End are the range to mark in an editor: to where the
	// value ends, or to the end of the start's line when that is unknown
	// or on a later line (a finding about a whole object marks its first
	// line).
	Start Position `json:"start"`
	End   Position `json:"end"`
	// Fixable is true when the finding carries a fix (Fix applies it);
	// FixTitle says what it does.
	Fixable  bool   `json:"fixable"`
	FixTitle string `json:"fixTitle,omitempty"`
	// RuleError marks a failure of the rule, InputError a text that could
	// not be read or matched to a ruleset.
	RuleError  bool `json:"ruleError,omitempty"`
	InputError bool `json:"inputError,omitempty"`
}

// LintResult is what linting one text found.
type LintResult struct {
	Name string `json:"name"`
	// Rulesets linted the text, the one chosen for it first (name@tag);
	// none when it could not be read.
	Rulesets []string `json:"rulesets"`
	// Diagnostics are sorted as celint check sorts them.
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Counts count Diagnostics; Omitted, the findings left out past the
	// bound on a document's findings.
	Counts  Counts `json:"counts"`
	Omitted Counts `json:"omitted"`
	// Error says why the text was not linted in full; "" when it was.
	Error string `json:"error,omitempty"`
}

// documentName returns the name a text is linted as (LintOptions.Name).
func documentName(name, src string) string {
	if name != "" {
		return name
	}
	s := strings.TrimLeft(strings.TrimPrefix(src, "\uFEFF"), " \t\r\n")
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
		return "playground.json"
	}
	return "playground.yaml"
}

// lint lints src, returning the engine's result.
func (p *Playground) lint(src string, opts LintOptions) (*lint.Result, *lint.Checker, error) {
	c, err := p.checker(opts.Spec)
	if err != nil {
		return nil, nil, err
	}
	return c.Lint(context.Background(), documentName(opts.Name, src), []byte(src)), c, nil
}

// Lint lints src. An unknown spec is an error; a text that cannot be read
// is not: its result holds an input error, as celint check reports it.
func (p *Playground) Lint(src string, opts LintOptions) (*LintResult, error) {
	res, _, err := p.lint(src, opts)
	if err != nil {
		return nil, err
	}
	out := &LintResult{Name: res.Name, Rulesets: []string{}, Diagnostics: make([]Diagnostic, 0, len(res.Diagnostics))}
	for _, rs := range res.Rulesets {
		out.Rulesets = append(out.Rulesets, rs.String())
	}
	if res.Err != nil {
		out.Error = res.Err.Error()
	}
	out.Omitted = Counts{Errors: res.Omitted.Errors, Warnings: res.Omitted.Warnings, Infos: res.Omitted.Infos}
	t := newText([]byte(src))
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		start, end := span(t, d)
		out.Diagnostics = append(out.Diagnostics, Diagnostic{
			Index: i, RuleID: d.RuleID, Code: d.Code, ID: d.Label(),
			Severity: d.Severity.String(), Message: d.Message, Pointer: d.Pointer, URL: d.URL,
			Line: d.Line, Column: d.Column, EndLine: d.EndLine, EndColumn: d.EndColumn,
			Start: start, End: end,
			Fixable:   len(d.Fix) > 0 && res.LoadOptions != nil,
			FixTitle:  fixTitle(res, d),
			RuleError: d.RuleError, InputError: d.InputError,
		})
		switch {
		case d.Severity == engine.Error || d.RuleError:
			out.Counts.Errors++
		case d.Severity == engine.Warning:
			out.Counts.Warnings++
		default:
			out.Counts.Infos++
		}
	}
	return out, nil
}

// span returns the editor range of a finding (Diagnostic.Start and End).
func span(t *text, d *engine.Diagnostic) (Position, Position) {
	line, col := d.Line, d.Column
	if line <= 0 {
		line, col = 1, 1
	}
	from := t.SourceOffset(line, col)
	to := t.LineEnd(t.LineOf(from))
	if d.EndLine == line {
		to = t.SourceOffset(d.EndLine, d.EndColumn)
	}
	to = max(to, from)
	return t.position(from), t.position(to)
}

// fixTitle returns what a finding's fix does, as its rule says, or "Fix
// id" when it says nothing; "" for a finding without a fix.
func fixTitle(res *lint.Result, d *engine.Diagnostic) string {
	if len(d.Fix) == 0 {
		return ""
	}
	for _, rs := range res.Rulesets {
		if r := rs.Rule(d.RuleID); r != nil {
			for _, f := range r.Fixes {
				if f.Code == d.Code && f.Description != "" {
					return f.Description
				}
			}
			break
		}
	}
	return "Fix " + d.Label()
}

// FixOptions say which finding's fix to apply.
type FixOptions struct {
	LintOptions
	// Index is the finding's Diagnostic.Index in the result of Lint with
	// the same text and options.
	Index int `json:"index"`
}

// Fix returns src with the fix of one finding applied, as celint fix
// writes it: only the bytes the fix changes are rewritten.
func (p *Playground) Fix(src string, opts FixOptions) (string, error) {
	res, _, err := p.lint(src, opts.LintOptions)
	if err != nil {
		return "", err
	}
	if opts.Index < 0 || opts.Index >= len(res.Diagnostics) {
		return "", fmt.Errorf("no finding %d: the text has %d", opts.Index, len(res.Diagnostics))
	}
	d := &res.Diagnostics[opts.Index]
	if len(d.Fix) == 0 || res.LoadOptions == nil {
		return "", fmt.Errorf("finding %d (%s) has no fix", opts.Index, d.Label())
	}
	data := []byte(src)
	bom := textpos.BOMLen(data)
	after, err := loader.Edits(res.Name, data[bom:], *res.LoadOptions, d.Fix)
	if err != nil {
		return "", fmt.Errorf("the fix of %s: %w", d.Label(), err)
	}
	return string(data[:bom]) + string(after), nil
}

// rulesetsFor returns the rulesets a call without a document works on:
// the one spec pins, or else every ruleset, newest first.
func (p *Playground) rulesetsFor(spec string) ([]*engine.Ruleset, error) {
	if spec == "" {
		return p.rulesets.Catalog().Rulesets(), nil
	}
	rs, err := p.rulesets.Catalog().Find(spec)
	if err != nil {
		return nil, err
	}
	return []*engine.Ruleset{rs}, nil
}

// Rule is one rule, as celint rules lists it.
type Rule struct {
	ID      string `json:"id"`
	Ruleset string `json:"ruleset"`
	// Level is must, should or may; Severity what its findings are.
	Level    string   `json:"level"`
	Severity string   `json:"severity"`
	Surface  string   `json:"surface,omitempty"`
	Title    string   `json:"title"`
	Fixable  bool     `json:"fixable"`
	URL      string   `json:"url,omitempty"`
	Codes    []string `json:"codes"`
}

// Rules lists the rules of the ruleset spec pins, or of every ruleset,
// newest first, when spec is "".
func (p *Playground) Rules(spec string) ([]Rule, error) {
	rss, err := p.rulesetsFor(spec)
	if err != nil {
		return nil, err
	}
	out := []Rule{}
	for _, rs := range rss {
		for _, r := range rs.Rules {
			codes := []string{}
			for _, c := range r.Codes {
				if c.Name != "" {
					codes = append(codes, c.Name)
				}
			}
			out = append(out, Rule{
				ID: r.ID, Ruleset: rs.String(), Level: r.Doc.Level, Severity: r.Severity.String(),
				Surface: r.Doc.Surface, Title: r.Doc.Title, Fixable: r.Fixable,
				URL: ruledoc.PageURL(rs, r), Codes: codes,
			})
		}
	}
	return out, nil
}

// Page is a rule's documentation: the page celint docs writes and the
// text celint explain prints, from the same model.
type Page struct {
	ID      string `json:"id"`
	Ruleset string `json:"ruleset"`
	// Markdown is the rule's page; Text, what celint explain prints for
	// the rule, or for the code when the id names one (id/code).
	Markdown string `json:"markdown"`
	Text     string `json:"text"`
	URL      string `json:"url,omitempty"`
}

// Explain returns the page of a rule, by id or id/code, in the ruleset
// spec pins, or else in the newest ruleset that has it.
func (p *Playground) Explain(id, spec string) (*Page, error) {
	rss, err := p.rulesetsFor(spec)
	if err != nil {
		return nil, err
	}
	ruleID, code := id, ""
	if rule(rss, id) == nil {
		if i := strings.LastIndexByte(id, '/'); i > 0 {
			ruleID, code = id[:i], id[i+1:]
		}
	}
	for _, rs := range rss {
		r := rs.Rule(ruleID)
		if r == nil {
			continue
		}
		md, err := ruledoc.Page(rs, r)
		if err != nil {
			return nil, err
		}
		var txt []byte
		if code == "" {
			txt, err = ruledoc.Text(rs, r)
		} else {
			c, ok := ruledoc.FindCode(r, code)
			if !ok {
				return nil, fmt.Errorf("rule %s reports no code %q", ruleID, code)
			}
			txt, err = ruledoc.CodeText(rs, r, c)
		}
		if err != nil {
			return nil, err
		}
		return &Page{ID: id, Ruleset: rs.String(), Markdown: string(md), Text: string(txt), URL: ruledoc.PageURL(rs, r)}, nil
	}
	var ids []string
	for _, rs := range rss {
		for _, r := range rs.Rules {
			ids = append(ids, r.ID)
		}
	}
	if near := spelling.Nearest(ruleID, ids); len(near) > 0 {
		return nil, fmt.Errorf("no rule %q; did you mean %s?", id, strings.Join(near, " or "))
	}
	return nil, fmt.Errorf("no rule %q", id)
}

// rule returns the first rule of rss with the id, nil when none has it.
func rule(rss []*engine.Ruleset, id string) *engine.Rule {
	for _, rs := range rss {
		if r := rs.Rule(id); r != nil {
			return r
		}
	}
	return nil
}

// RulesetInfo is one embedded ruleset.
type RulesetInfo struct {
	// Spec is name@tag, as LintOptions.Spec takes it.
	Spec  string `json:"spec"`
	Name  string `json:"name"`
	Tag   string `json:"tag"`
	Title string `json:"title,omitempty"`
	// VersionPath is the member that declares a document's version, and
	// Versions the versions the ruleset accepts.
	VersionPath string   `json:"versionPath,omitempty"`
	Versions    []string `json:"versions"`
	// Prerelease rulesets are chosen only when pinned, or for a version
	// no release accepts.
	Prerelease bool `json:"prerelease"`
	Rules      int  `json:"rules"`
	// MaxBytes is the largest document the ruleset reads.
	MaxBytes int64 `json:"maxBytes"`
}

// VersionInfo is what Versions reports.
type VersionInfo struct {
	Celint   string        `json:"celint"`
	Go       string        `json:"go"`
	Rulesets []RulesetInfo `json:"rulesets"`
}

// Versions reports celint's version, Go's and the embedded rulesets,
// newest first.
func (p *Playground) Versions() *VersionInfo {
	out := &VersionInfo{Celint: p.version, Go: runtime.Version(), Rulesets: []RulesetInfo{}}
	for _, rs := range p.rulesets.Catalog().Rulesets() {
		info := RulesetInfo{
			Spec: rs.String(), Name: rs.Name, Tag: rs.Tag, Title: rs.Title, Versions: []string{},
			Prerelease: engine.IsPrerelease(rs.Tag), Rules: len(rs.Rules),
			MaxBytes: rs.LoadOptions.Limits.Bytes,
		}
		if a := rs.Accepts; a != nil {
			info.VersionPath = a.Path
			info.Versions = append(info.Versions, a.Versions...)
		}
		if info.MaxBytes <= 0 {
			info.MaxBytes = loader.DefaultLimits().Bytes
		}
		out.Rulesets = append(out.Rulesets, info)
	}
	return out
}

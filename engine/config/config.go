// Package config reads celint's configuration file, .celint.yaml: rule
// levels by rule or finding, per-file overrides, ignored files, extra rule
// folders, a pinned ruleset and output defaults. Every problem in a config
// file is an error at its file:line:col.
package config

import (
	"cmp"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/celint/celint/loader"
)

// FileNames returns the names a config file may have, in the order they
// are looked for in each folder.
func FileNames() []string { return []string{".celint.yaml", ".celint.yml"} }

// maxConfigBytes bounds a config file.
const maxConfigBytes = 1 << 20

// maxExtends bounds a chain of configs extending one another.
const maxExtends = 16

// Config is a configuration file, with what it extends merged in.
type Config struct {
	// File is the config file's path as found or given.
	File string
	// Dir is the folder patterns and folders in it are relative to: the
	// config file's own.
	Dir string
	// Layers are the rule levels, first the file's own (after those of
	// what it extends), then each override's, in order: a later layer
	// wins.
	Layers []Layer
	// Ignore are patterns of files never linted.
	Ignore []Pattern
	// RuleFolders are extra rule folders (as --rules), as paths relative to
	// the current folder or absolute.
	RuleFolders []string
	// Spec pins a ruleset (as --spec); "" when not set. SpecFile and
	// SpecPos are where it is written: this file, or one it extends.
	Spec     string
	SpecFile string
	SpecPos  loader.Pos
	// Format is the default output format (as --format); "" when not set.
	Format string
	// FailOn is the default --fail-on; "" when not set.
	FailOn string
}

// Layer is one set of rule levels: the config's own, or an override's,
// which applies to the files its patterns match (all files when none).
type Layer struct {
	Files  []Pattern
	Levels []Level
}

// Level sets the level of a rule (Rule "id") or of one of its findings
// (Rule "id/code"): "error", "warning", "info" or "off".
type Level struct {
	Rule  string
	Level string
	File  string
	Pos   loader.Pos
}

// Pattern is a file pattern, relative to the config file's folder: '*' and
// '?' within a path segment, '**' for any number of segments; a pattern
// without a '/' matches a file or folder name anywhere; a pattern that
// matches a folder matches everything in it.
type Pattern struct {
	Text string
	File string
	Pos  loader.Pos
}

// Find looks for a config file in dir and its parents, up to the nearest
// repository root (a folder holding .git, a file or a folder) or the home
// folder ($HOME), whichever comes first, and never above it; "" when there
// is none. When neither is dir or one of its parents, only dir is looked
// at: a config file in a shared folder above (/tmp) never applies.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	top := Boundary(abs)
	for {
		for _, n := range FileNames() {
			p := filepath.Join(abs, n)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p, nil
			}
		}
		parent := filepath.Dir(abs)
		if abs == top || parent == abs {
			return "", nil
		}
		abs = parent
	}
}

// Boundary returns the highest folder Find looks in from the absolute
// folder dir: the nearest of dir and its parents that holds .git or is the
// home folder; dir itself when there is none.
func Boundary(dir string) string {
	var home os.FileInfo
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		home, _ = os.Stat(h)
	}
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if home != nil {
			if st, err := os.Stat(d); err == nil && os.SameFile(st, home) {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Load reads the config file at file, and what it extends.
func Load(file string) (*Config, error) {
	return load(file, nil)
}

func load(file string, chain []string) (*Config, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	if slices.Contains(chain, abs) {
		return nil, fmt.Errorf("%s: extends itself: %s", file, strings.Join(append(chain, abs), " -> "))
	}
	if len(chain) >= maxExtends {
		return nil, fmt.Errorf("%s: more than %d configs extend one another", file, maxExtends)
	}
	data, err := loader.ReadFile(file, maxConfigBytes)
	if err != nil {
		return nil, err
	}
	c := &Config{File: file, Dir: filepath.Dir(file)}
	if noDocument(data) {
		return c, nil // an empty file, or comments only: no settings
	}
	opts := loader.DefaultOptions()
	doc, err := loader.Parse(file, data, opts)
	if err != nil {
		return nil, err
	}
	r := &reader{file: file}
	root := doc.Root
	if root.Kind == loader.Null {
		return c, nil // "---" or "~" alone: no settings either
	}
	if root.Kind != loader.Object {
		r.fail(root.Pos, "a config file is a mapping (rules, overrides, ignore, …), found %s", loader.KindPhrase(root))
		return nil, r.err()
	}
	var own Layer
	var base *Config
	var overrides []Layer
	for _, m := range root.Children() {
		switch m.Key() {
		case "extends":
			s, ok := r.str(m)
			if !ok {
				continue
			}
			target := s
			if !filepath.IsAbs(target) {
				target = filepath.Join(c.Dir, target)
			}
			b, err := load(target, append(chain, abs))
			if err != nil {
				r.fail(m.Pos, "extends %s: %v", s, err)
				continue
			}
			base = b
		case "rules":
			own.Levels = append(own.Levels, r.levels(m)...)
		case "overrides":
			if m.Kind != loader.Array {
				r.fail(m.Pos, "overrides is a list of {files, rules}, found %s", loader.KindPhrase(m))
				continue
			}
			for _, o := range m.Children() {
				if l, ok := r.override(o); ok {
					overrides = append(overrides, l)
				}
			}
		case "ignore":
			c.Ignore = append(c.Ignore, r.patterns(m)...)
		case "ruleFolders":
			for _, p := range r.strs(m) {
				if !filepath.IsAbs(p) {
					p = filepath.Join(c.Dir, p)
				}
				c.RuleFolders = append(c.RuleFolders, p)
			}
		case "spec":
			c.Spec, _ = r.str(m)
			c.SpecFile, c.SpecPos = file, m.Pos
		case "format":
			if s, ok := r.str(m); ok {
				c.Format = s
			}
		case "failOn":
			if s, ok := r.str(m); ok {
				if !slices.Contains([]string{"error", "warning", "info", "never"}, s) {
					r.fail(m.Pos, "failOn: %q is not a level: use error, warning, info or never", s)
				}
				c.FailOn = s
			}
		default:
			r.fail(m.KeyPos, "unknown key %q: a config file has rules, overrides, ignore, ruleFolders, extends, spec, format and failOn", m.Key())
		}
	}
	// What a config extends comes first, then its own levels, then its
	// overrides: a later layer wins.
	if base != nil {
		c.Layers = append(c.Layers, base.Layers...)
		c.Ignore = append(base.Ignore, c.Ignore...)
		c.RuleFolders = append(base.RuleFolders, c.RuleFolders...)
		if c.Spec == "" {
			c.Spec, c.SpecFile, c.SpecPos = base.Spec, base.SpecFile, base.SpecPos
		}
		c.Format = cmp.Or(c.Format, base.Format)
		c.FailOn = cmp.Or(c.FailOn, base.FailOn)
	}
	if len(own.Levels) > 0 {
		c.Layers = append(c.Layers, own)
	}
	c.Layers = append(c.Layers, overrides...)
	return c, r.err()
}

// noDocument reports whether a YAML file holds no document: nothing but
// blank lines and comments.
func noDocument(data []byte) bool {
	for _, l := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

// reader collects a config file's problems, each at its position.
type reader struct {
	file   string
	issues loader.Issues
}

func (r *reader) fail(p loader.Pos, format string, args ...any) {
	r.issues.Append(&loader.Error{File: r.file, Pos: p, Msg: fmt.Sprintf(format, args...)})
}

func (r *reader) err() error { return r.issues.Err() }

func (r *reader) str(n *loader.Node) (string, bool) {
	s, ok := n.Value().(string)
	if !ok {
		r.fail(n.Pos, "%s: expected a string, found %s", n.Key(), loader.KindPhrase(n))
	}
	return s, ok
}

func (r *reader) strs(n *loader.Node) []string {
	if n.Kind != loader.Array {
		r.fail(n.Pos, "%s: expected a list of strings, found %s", n.Key(), loader.KindPhrase(n))
		return nil
	}
	var out []string
	for _, e := range n.Children() {
		s, ok := e.Value().(string)
		if !ok {
			r.fail(e.Pos, "%s: expected a string, found %s", n.Key(), loader.KindPhrase(e))
			continue
		}
		out = append(out, s)
	}
	return out
}

func (r *reader) patterns(n *loader.Node) []Pattern {
	if n.Kind != loader.Array {
		r.fail(n.Pos, "%s: expected a list of file patterns, found %s", n.Key(), loader.KindPhrase(n))
		return nil
	}
	var out []Pattern
	for _, e := range n.Children() {
		s, ok := e.Value().(string)
		if !ok {
			r.fail(e.Pos, "%s: expected a file pattern (a string), found %s", n.Key(), loader.KindPhrase(e))
			continue
		}
		if err := CheckPattern(s); err != nil {
			r.fail(e.Pos, "%s: %v", n.Key(), err)
			continue
		}
		out = append(out, Pattern{Text: s, File: r.file, Pos: e.Pos})
	}
	return out
}

var levels = []string{"error", "warning", "info", "off"}

func (r *reader) levels(n *loader.Node) []Level {
	if n.Kind != loader.Object {
		r.fail(n.Pos, "rules: expected a mapping of rule ids (or id/code) to error, warning, info or off, found %s", loader.KindPhrase(n))
		return nil
	}
	var out []Level
	for _, m := range n.Children() {
		s, ok := m.Value().(string)
		if !ok || !slices.Contains(levels, s) {
			r.fail(m.Pos, "rules: %s: expected error, warning, info or off, found %s", m.Key(), describe(m))
			continue
		}
		out = append(out, Level{Rule: m.Key(), Level: s, File: r.file, Pos: m.KeyPos})
	}
	return out
}

func (r *reader) override(n *loader.Node) (Layer, bool) {
	if n.Kind != loader.Object {
		r.fail(n.Pos, "overrides: each entry is a mapping {files, rules}, found %s", loader.KindPhrase(n))
		return Layer{}, false
	}
	var l Layer
	hasFiles := false
	for _, m := range n.Children() {
		switch m.Key() {
		case "files":
			hasFiles = true
			l.Files = r.patterns(m)
		case "rules":
			l.Levels = r.levels(m)
		default:
			r.fail(m.KeyPos, "overrides: unknown key %q: an override has files and rules", m.Key())
		}
	}
	if !hasFiles {
		r.fail(n.Pos, "overrides: an override needs files, the patterns it applies to")
		return Layer{}, false
	}
	return l, true
}

func describe(n *loader.Node) string {
	if s, ok := n.Value().(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return loader.KindPhrase(n)
}

// MaxDoubleStars is the most '**' a pattern may have.
const MaxDoubleStars = 4

// CheckPattern reports a file pattern that is refused: empty, with more
// than MaxDoubleStars '**', or with a segment path.Match would refuse.
func CheckPattern(p string) error {
	if p == "" {
		return fmt.Errorf("an empty pattern matches nothing")
	}
	if n := strings.Count(p, "**"); n > MaxDoubleStars {
		return fmt.Errorf("pattern %q: at most %d '**' in a pattern, found %d", p, MaxDoubleStars, n)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("pattern %q: %v", p, err)
		}
	}
	return nil
}

// Rel returns file as a slash-separated path relative to the config's
// folder, and false when it lies outside it.
func (c *Config) Rel(file string) (string, bool) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", false
	}
	dir, err := filepath.Abs(c.Dir)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Ignored returns the ignore pattern that matches file, if any.
func (c *Config) Ignored(file string) (Pattern, bool) {
	rel, ok := c.Rel(file)
	if !ok {
		return Pattern{}, false
	}
	for _, p := range c.Ignore {
		if p.Match(rel) {
			return p, true
		}
	}
	return Pattern{}, false
}

// LevelOf returns the level the config gives the finding of rule (code ""
// for the rule's own) in file, and false when it sets none. A later layer
// wins over an earlier one; within a layer, "id/code" wins over "id".
func (c *Config) LevelOf(file, rule, code string) (string, bool) {
	return c.levelOf(file, rule, code, false)
}

// CodeLevelOf is LevelOf for a code that only an entry naming it
// (rule/code) gives a level: an opt-in code, which a level for its whole
// rule leaves off.
func (c *Config) CodeLevelOf(file, rule, code string) (string, bool) {
	return c.levelOf(file, rule, code, true)
}

func (c *Config) levelOf(file, rule, code string, codeOnly bool) (string, bool) {
	rel, inside := c.Rel(file)
	level, set := "", false
	for _, l := range c.Layers {
		if len(l.Files) > 0 {
			if !inside || !slices.ContainsFunc(l.Files, func(p Pattern) bool { return p.Match(rel) }) {
				continue
			}
		}
		byRule, byCode := "", ""
		for _, lv := range l.Levels {
			switch {
			case lv.Rule == rule && !codeOnly:
				byRule = lv.Level
			case code != "" && lv.Rule == rule+"/"+code:
				byCode = lv.Level
			}
		}
		if v := cmp.Or(byCode, byRule); v != "" {
			level, set = v, true
		}
	}
	return level, set
}

// Match reports whether rel, a slash-separated path relative to the
// config's folder, or one of the folders it lies in, matches.
func (p Pattern) Match(rel string) bool {
	segs := strings.Split(rel, "/")
	text := strings.TrimPrefix(p.Text, "./")
	if !strings.Contains(text, "/") {
		// A bare name matches a file or folder of that name anywhere.
		for _, s := range segs {
			if ok, _ := path.Match(p.Text, s); ok {
				return true
			}
		}
		return false
	}
	ok, _ := matchSegments(strings.Split(text, "/"), segs, true)
	return ok
}

// matchSegments reports whether the path segments segs match the pattern
// segments pat, '**' standing for any number of segments; with prefixes,
// whether some leading part segs[:n], n ≥ 1, matches. It runs pat as a
// nondeterministic automaton over segs: state j means that pat[:j] matches
// the segments read so far, and each segment advances all the live states
// at once. It also returns the number of segment comparisons, at most
// len(pat) × len(segs).
func matchSegments(pat, segs []string, prefixes bool) (bool, int) {
	n := len(pat)
	states := make([]bool, 2*(n+1))
	cur, next := states[:n+1], states[n+1:]
	cur[0] = true
	skipStars(pat, cur)
	steps := 0
	for _, s := range segs {
		clear(next)
		live := false
		for j, on := range cur[:n] {
			if !on {
				continue
			}
			steps++
			if pat[j] == "**" {
				next[j] = true
				live = true
			} else if ok, _ := path.Match(pat[j], s); ok {
				next[j+1] = true
				live = true
			}
		}
		if !live {
			return false, steps
		}
		skipStars(pat, next)
		cur, next = next, cur
		if prefixes && cur[n] {
			return true, steps
		}
	}
	return cur[n], steps
}

// skipStars adds to the live states those reached by letting each '**'
// stand for no segment.
func skipStars(pat []string, live []bool) {
	for j, s := range pat {
		if live[j] && s == "**" {
			live[j+1] = true
		}
	}
}

// Rules lists every rule name the config's levels use, with where, for
// checking them against the rules that exist.
func (c *Config) Rules() []Level {
	var out []Level
	for _, l := range c.Layers {
		out = append(out, l.Levels...)
	}
	return out
}

// MatchPath reports whether path segments match pattern segments exactly,
// '*', '?' and '[...]' within a segment and '**' for any number of
// segments. It takes at most len(pattern) × len(segs) segment
// comparisons.
func MatchPath(pattern, segs []string) bool {
	ok, _ := matchSegments(pattern, segs, false)
	return ok
}

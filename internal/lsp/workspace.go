package lsp

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/config"
	"github.com/celint/celint/engine/lint"
)

// setup is what lints the documents of one config file (or of none): the
// config and a Checker of the rulesets it and the server's flags name.
// Its checker keeps what its rulesets compile for as long as the setup
// lives.
type setup struct {
	cfg     *config.Config
	checker *lint.Checker
	err     error // why the config or the rulesets could not be loaded
	stamp   string
	checked time.Time // when stamp was last compared with the files
}

// setups caches a setup per config file, as celint check would find it for
// a document, and notices when the config file or a rule folder changes.
type setups struct {
	opts Options

	mu    sync.Mutex
	roots []string // workspace folders, absolute and clean
	byCfg map[string]*setup
}

// stampInterval is how often a setup's files are looked at again for
// changes, at most.
const stampInterval = time.Second

// setRoots sets the workspace folders: a config file outside all of them
// is never read.
func (s *setups) setRoots(roots []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roots = roots
	s.byCfg = nil
}

// forget drops every setup, so that the next lint loads config and rules
// again.
func (s *setups) forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byCfg = nil
}

// inside reports whether path is in one of the workspace folders, or,
// when the client names none, in the folder of the document at doc.
func (s *setups) inside(path, doc string) bool {
	roots := s.roots
	if len(roots) == 0 {
		roots = []string{filepath.Dir(doc)}
	}
	for _, r := range roots {
		if path == r || strings.HasPrefix(path, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// configFor returns the config file that applies to the document at
// path: the nearest one up from its folder (config.Find), if it lies in a
// workspace folder (in the document's own folder, when the client names
// no workspace folder); "" for none.
func (s *setups) configFor(path string) string {
	if s.opts.NoConfig {
		return ""
	}
	if s.opts.Config != "" {
		return s.opts.Config
	}
	file, err := config.Find(filepath.Dir(path))
	if err != nil || file == "" {
		return ""
	}
	abs, err := filepath.Abs(file)
	if err != nil || !s.inside(abs, path) {
		return ""
	}
	return abs
}

// get returns the setup of the document at path (absolute).
func (s *setups) get(path string) *setup {
	s.mu.Lock()
	defer s.mu.Unlock()
	file := s.configFor(path)
	if s.byCfg == nil {
		s.byCfg = map[string]*setup{}
	}
	st := s.byCfg[file]
	now := time.Now()
	if st != nil && now.Sub(st.checked) < stampInterval {
		return st
	}
	if st != nil {
		if s.stamp(file, st.cfg) == st.stamp {
			st.checked = now
			return st
		}
	}
	st = s.load(file)
	st.checked = now
	s.byCfg[file] = st
	return st
}

// load reads the config file (none when "") and loads the rulesets it and
// the server's options name, as celint check does.
func (s *setups) load(file string) *setup {
	st := &setup{}
	if file != "" {
		st.cfg, st.err = lint.LoadConfig(file, "")
	}
	st.stamp = s.stamp(file, st.cfg)
	if st.err != nil {
		return st
	}
	src := lint.Sources{
		Embedded: s.opts.Embedded,
		Folders:  slices.Clone(s.opts.Rules),
		Spec:     s.opts.Spec,
		Options:  engine.Options{Lazy: true},
	}
	if cfg := st.cfg; cfg != nil {
		src.Folders = append(slices.Clone(cfg.RuleFolders), src.Folders...)
		if src.Spec == "" && cfg.Spec != "" {
			src.Spec, src.SpecFile, src.SpecPos = cfg.Spec, cfg.SpecFile, cfg.SpecPos
		}
	}
	rules, err := lint.LoadRulesets(src)
	if err == nil {
		err = rules.CheckConfig(st.cfg)
	}
	if err != nil {
		st.err = err
		return st
	}
	st.checker = lint.NewChecker(rules, lint.Options{
		Filter: lint.Filter{Config: st.cfg},
		Lint:   engine.LintOptions{MaxDiagnostics: s.opts.maxDiagnostics()},
	})
	return st
}

// stamp sums up what the setup of a config file was made from: the
// config file and the files of the rule folders, by name, size and time.
func (s *setups) stamp(file string, cfg *config.Config) string {
	var b strings.Builder
	add := func(p string, info fs.FileInfo) {
		fmt.Fprintf(&b, "%s\x00%d\x00%d\n", p, info.ModTime().UnixNano(), info.Size())
	}
	if file != "" {
		if info, err := os.Stat(file); err == nil {
			add(file, info)
		}
	}
	folders := slices.Clone(s.opts.Rules)
	if cfg != nil {
		folders = append(folders, cfg.RuleFolders...)
	}
	for _, dir := range folders {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if info, err := e.Info(); err == nil {
				add(filepath.Join(dir, e.Name()), info)
			}
		}
	}
	return b.String()
}

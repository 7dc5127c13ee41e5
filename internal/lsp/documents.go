package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/loader"
)

// document is an open document: its text as the client holds it, and the
// lint of its latest version, scheduled, running or done.
type document struct {
	uri  protocol.DocumentUri
	name string // the name it is linted as: its path, or a name with its format's extension
	path string // its absolute path; "" when it is no file

	// Guarded by server.mu.
	version  int32
	text     *text
	tooLarge bool // the text was dropped: larger than room allows
	held     int  // the bytes of text counted in server.held
	timer    *time.Timer
	cancel   context.CancelFunc // of the lint running, if any
	latest   *analysis          // of the version last linted
	ready    chan struct{}      // closed when version's analysis is the latest
	cost     time.Duration      // how long the last lint took
	wasDesc  bool               // some version was a description
	changed  time.Time          // when the last change came

	publish sync.Mutex // orders the publications of the document
}

// lintable returns the name a document is linted as, and false when it is
// no JSON or YAML document.
func lintable(u protocol.DocumentUri, languageID string) (name, file string, ok bool) {
	file = filePath(u)
	name = file
	if name == "" {
		name = path.Base(string(u))
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".yaml", ".yml":
		return name, file, true
	}
	switch languageID {
	case "json", "jsonc":
		return name + ".json", file, true
	case "yaml":
		return name + ".yaml", file, true
	}
	return "", "", false
}

// open starts following a document the client opened.
func (s *server) open(item protocol.TextDocumentItem) {
	name, file, ok := lintable(item.URI, string(item.LanguageID))
	if !ok {
		return
	}
	d := &document{uri: item.URI, name: name, path: file, ready: make(chan struct{})}
	s.mu.Lock()
	if old := s.docs[item.URI]; old != nil {
		s.stop(old)
		s.held -= old.held
	}
	s.docs[item.URI] = d
	d.version = item.Version
	s.setText(d, []byte(item.Text))
	s.schedule(d, 0)
	s.mu.Unlock()
}

// setText sets the text of d, or drops it when it is too large. Called
// with s.mu held.
func (s *server) setText(d *document, data []byte) {
	if len(data) > s.room(d) {
		s.drop(d)
		return
	}
	d.text, d.tooLarge = newText(data), false
	s.hold(d)
}

// room is the most bytes d's text may have: Options.MaxDocument, and what
// Options.MaxOpen leaves beside the other open documents. Called with
// s.mu held.
func (s *server) room(d *document) int {
	return min(s.opts.maxDocument(), s.opts.maxOpen()-(s.held-d.held))
}

// hold counts d's text, as it is now, in the bytes the server holds.
// Called with s.mu held.
func (s *server) hold(d *document) {
	n := 0
	if d.text != nil {
		n = len(d.text.Data)
	}
	s.held += n - d.held
	d.held = n
}

// drop lets d's text go: it is too large to hold. Called with s.mu held.
func (s *server) drop(d *document) {
	d.text, d.tooLarge = nil, true
	s.hold(d)
}

// change applies the changes of one didChange to a document and schedules
// its lint.
func (s *server) change(id protocol.VersionedTextDocumentIdentifier, changes []change) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[id.URI]
	if d == nil {
		return
	}
	d.version = id.Version
	if isClosed(d.ready) {
		d.ready = make(chan struct{})
	}
	if d.tooLarge {
		// Only a change of the whole text can bring it back.
		if n := len(changes); n > 0 && changes[n-1].Range == nil {
			s.setText(d, []byte(changes[n-1].Text))
		}
	} else {
		if err := d.text.apply(changes, s.room(d)); err != nil {
			s.logf("%s: cannot apply the change of version %d: %v", logText(string(id.URI), 200), id.Version, err)
			if errors.Is(err, errTooBig) {
				s.drop(d)
			}
		}
		if d.text != nil {
			s.hold(d)
		}
	}
	s.schedule(d, s.delay(d, time.Now()))
}

// delay is how long the lint of a change waits for more changes: none
// after a pause at least as long as the document's last lint took, so that
// a single edit is linted at once; else, during a burst of edits, that
// long (up to Options.MaxDelay), so that the lints of a burst do not pile
// up. Called with s.mu held.
func (s *server) delay(d *document, now time.Time) time.Duration {
	wait := min(d.cost, s.opts.maxDelay())
	gap := now.Sub(d.changed)
	d.changed = now
	if gap >= wait {
		return 0
	}
	return wait
}

// close stops following a document, and clears its diagnostics.
func (s *server) close(u protocol.DocumentUri) {
	s.mu.Lock()
	d := s.docs[u]
	if d != nil {
		s.stop(d)
		s.held -= d.held
		delete(s.docs, u)
	}
	s.mu.Unlock()
	if d != nil {
		d.publish.Lock()
		defer d.publish.Unlock()
		s.sendDiagnostics(u, nil, nil)
	}
}

// stop cancels the lint of d, scheduled or running. Called with s.mu held.
func (s *server) stop(d *document) {
	if d.timer != nil {
		if d.timer.Stop() {
			s.wg.Done() // its function will not run
		}
		d.timer = nil
	}
	if d.cancel != nil {
		d.cancel()
		d.cancel = nil
	}
}

// stopAll cancels every lint.
func (s *server) stopAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		s.stop(d)
	}
}

// relintAll lints every open document again.
func (s *server) relintAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if isClosed(d.ready) {
			d.ready = make(chan struct{})
		}
		s.schedule(d, 0)
	}
}

// schedule lints d's current version after delay, cancelling the lint of
// an older one. Called with s.mu held.
func (s *server) schedule(d *document, delay time.Duration) {
	s.stop(d)
	if s.state == stateShutDown || s.ctx.Err() != nil {
		return
	}
	version, tooLarge := d.version, d.tooLarge
	var snap *text
	if !tooLarge {
		snap = d.text.snapshot()
	}
	ctx, cancel := context.WithCancel(s.ctx)
	d.cancel = cancel
	s.wg.Add(1)
	d.timer = time.AfterFunc(delay, func() {
		defer s.wg.Done()
		defer cancel()
		if ctx.Err() != nil {
			return
		}
		s.lint(ctx, d, version, snap)
	})
}

// lint lints one version of d, whose text is t (nil when too large), and
// publishes its diagnostics, unless a newer version came meanwhile.
func (s *server) lint(ctx context.Context, d *document, version int32, t *text) {
	start := time.Now()
	s.mu.Lock()
	wasDesc := d.wasDesc
	s.mu.Unlock()
	a := s.analyze(ctx, d, t, wasDesc)
	a.version = version
	took := time.Since(start)
	if ctx.Err() != nil {
		return
	}
	d.publish.Lock()
	defer d.publish.Unlock()
	s.mu.Lock()
	current := d.version == version && s.docs[d.uri] == d
	if current {
		d.latest, d.cost = a, took
		if a.description {
			d.wasDesc = true
		}
		if d.ready != nil && !isClosed(d.ready) {
			close(d.ready)
		}
	}
	s.mu.Unlock()
	if current {
		s.sendDiagnostics(d.uri, &version, a.diagnostics)
	}
}

// sendDiagnostics publishes the diagnostics of a document.
func (s *server) sendDiagnostics(u protocol.DocumentUri, version *int32, diags []protocol.Diagnostic) {
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	p := struct {
		URI         protocol.DocumentUri  `json:"uri"`
		Version     *int32                `json:"version,omitempty"`
		Diagnostics []protocol.Diagnostic `json:"diagnostics"`
	}{u, version, diags}
	if err := s.conn.Notify(s.ctx, "textDocument/publishDiagnostics", p); err != nil && s.ctx.Err() == nil {
		s.logf("cannot publish diagnostics: %v", err)
	}
}

// analysis returns the latest analysis of a document, waiting for the lint
// of its current version; nil for a document not followed.
func (s *server) analysis(ctx context.Context, u protocol.DocumentUri) (*analysis, error) {
	s.mu.Lock()
	d := s.docs[u]
	if d == nil {
		s.mu.Unlock()
		return nil, nil
	}
	ready := d.ready
	s.mu.Unlock()
	select {
	case <-ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return d.latest, nil
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// analyze lints one version of a document: it chooses its rulesets, as
// celint check does for a file, and lints it with them.
func (s *server) analyze(ctx context.Context, d *document, t *text, wasDesc bool) *analysis {
	if t == nil {
		a := &analysis{text: newText(nil)}
		a.diagnostics = []protocol.Diagnostic{diagnostic(protocol.Range{}, protocol.DiagnosticSeverityError, lint.InputRuleID,
			fmt.Sprintf("not checked: the language server holds at most %d bytes of a document and %d bytes of all open documents together, and this one would pass that; close other documents or lint it with celint check", s.opts.maxDocument(), s.opts.maxOpen()))}
		return a
	}
	a := &analysis{text: t}
	data := t.Data
	key := d.path
	if key == "" {
		key = d.name
	}
	st := s.setups.get(key)
	if st.err != nil {
		a.diagnostics = []protocol.Diagnostic{diagnostic(protocol.Range{}, protocol.DiagnosticSeverityError, "", "not checked: "+st.err.Error())}
		return a
	}
	if st.cfg != nil {
		if _, ignored := st.cfg.Ignored(key); ignored {
			return a
		}
	}
	a.setup = st
	doc, err := st.checker.Rulesets().Choose(d.name, data)
	if err != nil {
		// A document that declares no version is no description: it gets
		// nothing. One that cannot be read gets its error when it was a
		// description before this edit, or names the member that declares
		// a ruleset's version.
		if errors.Is(err, engine.ErrUndeclaredVersion) ||
			!wasDesc && !errors.Is(err, engine.ErrNoRuleset) && !namesVersionMember(data, st.checker.Rulesets().List()) {
			return a
		}
		a.result = lint.InputResult(d.name, err, data)
	} else {
		a.parsed = doc
		a.description = true
		a.result = st.checker.LintDocument(ctx, doc)
	}
	a.diagnostics = a.convert(d.uri)
	return a
}

// namesVersionMember reports whether data has a member named as the one
// that declares the version of one of rss, at the start of a line (YAML)
// or quoted (JSON): a sign that a document that cannot be read is meant as
// one of theirs.
func namesVersionMember(data []byte, rss []*engine.Ruleset) bool {
	for _, rs := range rss {
		if rs.Accepts == nil {
			continue
		}
		key := rs.Accepts.Path
		if i := strings.LastIndexAny(key, "./"); i >= 0 {
			key = key[i+1:]
		}
		if key == "" {
			continue
		}
		if bytes.HasPrefix(data, []byte(key+":")) || bytes.Contains(data, []byte("\n"+key+":")) || bytes.Contains(data, []byte(`"`+key+`"`)) {
			return true
		}
	}
	return false
}

// loadOptions returns the options the analysed version was read with.
func (a *analysis) loadOptions() *loader.Options {
	if a.result == nil {
		return nil
	}
	return a.result.LoadOptions
}

// Package lsp is celint's language server: it speaks the Language Server
// Protocol over a byte stream (celint lsp serves it on standard input and
// output) and lints the JSON and YAML documents an editor opens, as
// celint check would lint them from disk.
//
// The protocol's types come from github.com/tliron/glsp's protocol_3_16
// package, and the JSON-RPC framing from go.lsp.dev/jsonrpc2 (the framing
// of buf's language server, among others). Both link nothing but the
// standard library's encoding and I/O besides their own: celint links no
// HTTP client, and go.lsp.dev/protocol, which would pair with that framing,
// links one through its logger, as glsp's own server does for websockets.
// The server is the part in between: it
// keeps each open document's text and its latest analysis (the parsed
// document and its findings), and a Checker per config file, which keeps
// the rules it compiles. An edit re-lints only its document, at once after a
// pause, or, in a burst of edits, after a delay that grows with how long
// the document takes to lint; it cancels a lint of an older version still
// running.
//
// It reads the config files and rule folders that celint check would read
// for a document, but only inside the workspace folders the client names
// (and the rule folders the command line or the config names); it reads
// no document from disk, follows no URL and writes nothing: a fix is a
// WorkspaceEdit the client applies or not.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"go.lsp.dev/jsonrpc2"

	"github.com/celint/celint/engine"
)

// Options configure a server.
type Options struct {
	// Embedded loads the built-in rulesets (celint's: rulesets.Load).
	Embedded func(engine.Options) ([]*engine.Ruleset, error)
	// Rules are rule folders linting every document, after those of the
	// config file (celint check --rules).
	Rules []string
	// Spec pins a ruleset for every document (celint check --spec); it
	// wins over a config file's.
	Spec string
	// Config names the config file of every document; NoConfig reads
	// none. By default each document's is the nearest .celint.yaml up from
	// its folder, inside a workspace folder.
	Config   string
	NoConfig bool
	// Version is the server's version, told to the client.
	Version string
	// MaxDelay bounds the delay between an edit and its lint. An edit
	// after a pause is linted at once; one that follows another closer
	// than the time the document's last lint took waits that long, up to
	// MaxDelay, for more. 0 means DefaultMaxDelay.
	MaxDelay time.Duration
	// MaxDiagnostics bounds the findings published for a document;
	// 0 means DefaultMaxDiagnostics.
	MaxDiagnostics int
	// MaxDocument bounds an open document's size in bytes; 0 means
	// DefaultMaxDocument. A larger one gets one diagnostic saying so.
	MaxDocument int
	// MaxOpen bounds the bytes of all open documents' texts together; 0
	// means DefaultMaxOpen. A document that would pass it is held no more
	// and gets one diagnostic saying so, as a document larger than
	// MaxDocument does.
	MaxOpen int
	// MaxMessage bounds a JSON-RPC message in bytes; a client that sends
	// a larger one is disconnected. 0 means DefaultMaxMessage.
	MaxMessage int64
	// Log, when not nil, receives the server's own troubles, a line each.
	Log io.Writer
}

// Defaults of Options.
const (
	DefaultMaxDelay       = 250 * time.Millisecond
	DefaultMaxDiagnostics = 1000
	DefaultMaxDocument    = 64 << 20
	DefaultMaxOpen        = 512 << 20
	DefaultMaxMessage     = 256 << 20
)

func (o *Options) maxDiagnostics() int {
	if o.MaxDiagnostics > 0 {
		return o.MaxDiagnostics
	}
	return DefaultMaxDiagnostics
}

func (o *Options) maxDocument() int {
	if o.MaxDocument > 0 {
		return o.MaxDocument
	}
	return DefaultMaxDocument
}

func (o *Options) maxOpen() int {
	if o.MaxOpen > 0 {
		return o.MaxOpen
	}
	return DefaultMaxOpen
}

func (o *Options) maxDelay() time.Duration {
	if o.MaxDelay > 0 {
		return o.MaxDelay
	}
	return DefaultMaxDelay
}

// ErrNoShutdown is Serve's error when the client sent exit without
// shutdown first; the LSP asks the server to exit with status 1 then.
var ErrNoShutdown = errors.New("exit without shutdown")

// Serve serves the protocol on rwc until the client sends exit, the
// stream ends or ctx is done. It returns nil after shutdown and exit, or
// at the end of the stream; ErrNoShutdown after an exit without shutdown.
// It closes rwc; a read of rwc that closing does not end (standard input)
// may still be blocked when it returns.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{
		opts:     opts,
		setups:   setups{opts: opts},
		ctx:      ctx,
		docs:     map[protocol.DocumentUri]*document{},
		requests: map[jsonrpc2.ID]context.CancelFunc{},
		exited:   make(chan error, 1),
	}
	limit := opts.MaxMessage
	if limit <= 0 {
		limit = DefaultMaxMessage
	}
	in := &countingConn{ReadWriteCloser: rwc, limit: limit}
	stream := &tolerantStream{Stream: jsonrpc2.NewStream(in), in: in, skipped: s.skipped}
	s.conn = jsonrpc2.NewConn(stream)
	s.conn.Go(ctx, s.handle)
	var err error
	select {
	case err = <-s.exited:
	case <-s.conn.Done():
	case <-ctx.Done():
	}
	cancel()
	s.stopAll()
	_ = s.conn.Close()
	// Closing standard input does not end a read blocked on it: the
	// connection's reader may outlive Serve, for the process to end.
	done := make(chan struct{})
	go func() {
		<-s.conn.Done()
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(closeWait):
		s.logf("the connection did not close within %v; returning anyway", closeWait)
	}
	return err
}

// closeWait bounds how long Serve waits, once the client has gone or sent exit, for
// the connection's reader and the lints still running to end.
const closeWait = time.Second

// server is the state of one connection.
type server struct {
	opts   Options
	conn   jsonrpc2.Conn
	setups setups
	ctx    context.Context
	wg     sync.WaitGroup // the goroutines of lints and requests

	mu       sync.Mutex
	state    int // stateNew, stateRunning, stateShutDown
	docs     map[protocol.DocumentUri]*document
	held     int // bytes of the open documents' texts, at most Options.MaxOpen
	requests map[jsonrpc2.ID]context.CancelFunc
	exited   chan error
}

// The states of a server.
const (
	stateNew = iota
	stateRunning
	stateShutDown
)

// logf reports one of the server's own troubles.
func (s *server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "celint lsp: "+format+"\n", args...)
	}
}

// handle answers one message. It returns an error only when the
// connection cannot go on.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	call, isCall := req.(*jsonrpc2.Call)
	method := req.Method()
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == "exit":
		var err error
		if state != stateShutDown {
			err = ErrNoShutdown
		}
		select {
		case s.exited <- err:
		default:
		}
		return nil
	case state == stateNew && method != "initialize":
		if isCall {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized yet: send initialize first"))
		}
		return nil
	case state == stateShutDown:
		if isCall {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: only exit is accepted"))
		}
		return nil
	}
	if !isCall {
		s.notify(req.Method(), req.Params())
		return nil
	}
	switch method {
	case "initialize":
		if state != stateNew {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already sent"))
		}
		var p protocol.InitializeParams
		if err := decode(req.Params(), &p); err != nil {
			return reply(ctx, nil, err)
		}
		return reply(ctx, s.initialize(&p), nil)
	case "shutdown":
		s.mu.Lock()
		s.state = stateShutDown
		s.mu.Unlock()
		s.stopAll()
		return reply(ctx, nil, nil)
	case "textDocument/hover", "textDocument/codeAction":
		rctx, cancel := context.WithCancel(s.ctx)
		id := call.ID()
		s.mu.Lock()
		s.requests[id] = cancel
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.requests, id)
				s.mu.Unlock()
				cancel()
			}()
			result, err := s.safeRequest(rctx, method, req.Params())
			if rctx.Err() != nil && err == nil && s.ctx.Err() == nil {
				err = jsonrpc2.NewError(requestCancelled, "the request was cancelled")
			}
			if rerr := reply(ctx, result, err); rerr != nil {
				s.logf("cannot reply to %s: %v", method, rerr)
			}
		}()
		return nil
	}
	return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("celint does not serve %q", logText(method, 100))))
}

// requestCancelled is LSP's error code of a request the client cancelled.
const requestCancelled jsonrpc2.Code = -32800

// decode reads the params of a message into v, or returns the
// InvalidParams error that says why it cannot.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "the params are missing")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad params: "+err.Error())
	}
	return nil
}

// initialize answers initialize: it takes the workspace folders and says
// what the server does.
func (s *server) initialize(p *protocol.InitializeParams) *protocol.InitializeResult {
	var roots []string
	for _, f := range p.WorkspaceFolders {
		if dir := filePath(protocol.DocumentUri(f.URI)); dir != "" {
			roots = append(roots, dir)
		}
	}
	if len(roots) == 0 && p.RootURI != nil {
		if dir := filePath(*p.RootURI); dir != "" {
			roots = append(roots, dir)
		}
	}
	s.setups.setRoots(roots)
	s.mu.Lock()
	s.state = stateRunning
	s.mu.Unlock()
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: ptr(true),
				Change:    ptr(protocol.TextDocumentSyncKindIncremental),
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider: true,
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{Supported: ptr(true), ChangeNotifications: &protocol.BoolOrString{Value: true}},
			},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
			},
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: "celint", Version: ptr(s.opts.Version)},
	}
}

// filePath returns the absolute, clean path of a file: URI, or "" for
// another scheme.
func filePath(u protocol.DocumentUri) string {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Scheme != "file" || parsed.Host != "" && parsed.Host != "localhost" {
		return ""
	}
	p := filepath.FromSlash(parsed.Path)
	if runtime.GOOS == "windows" && len(p) > 2 && p[0] == '\\' && p[2] == ':' {
		p = p[1:] // \C:\x is C:\x
	}
	if !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Clean(p)
}

// notify handles a notification. A notification has no answer: what goes
// wrong is logged.
func (s *server) notify(method string, params json.RawMessage) {
	var err error
	switch method {
	case "textDocument/didOpen":
		var p protocol.DidOpenTextDocumentParams
		if err = decode(params, &p); err == nil {
			s.open(p.TextDocument)
		}
	case "textDocument/didChange":
		var p struct {
			TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
			ContentChanges []change                                 `json:"contentChanges"`
		}
		if err = decode(params, &p); err == nil {
			s.change(p.TextDocument, p.ContentChanges)
		}
	case "textDocument/didClose":
		var p protocol.DidCloseTextDocumentParams
		if err = decode(params, &p); err == nil {
			s.close(p.TextDocument.URI)
		}
	case "textDocument/didSave", "workspace/didChangeWatchedFiles", "workspace/didChangeConfiguration":
		// A saved config file or rule file may change what lints every
		// document: setups notice changed files within a second; a save
		// makes them look now.
		s.setups.forget()
		s.relintAll()
	case "workspace/didChangeWorkspaceFolders":
		var p protocol.DidChangeWorkspaceFoldersParams
		if err = decode(params, &p); err == nil {
			s.changeFolders(p.Event)
		}
	case "$/cancelRequest":
		var p struct {
			ID jsonrpc2.ID `json:"id"`
		}
		if err = decode(params, &p); err == nil {
			s.mu.Lock()
			cancel := s.requests[p.ID]
			s.mu.Unlock()
			if cancel != nil {
				cancel()
			}
		}
	}
	if err != nil {
		s.logf("%s: %v", logText(method, 100), err)
	}
}

// changeFolders applies a change of the workspace folders.
func (s *server) changeFolders(ev protocol.WorkspaceFoldersChangeEvent) {
	s.setups.mu.Lock()
	roots := s.setups.roots
	s.setups.mu.Unlock()
	var kept []string
	for _, r := range roots {
		removed := false
		for _, f := range ev.Removed {
			if filePath(protocol.DocumentUri(f.URI)) == r {
				removed = true
			}
		}
		if !removed {
			kept = append(kept, r)
		}
	}
	for _, f := range ev.Added {
		if dir := filePath(protocol.DocumentUri(f.URI)); dir != "" {
			kept = append(kept, dir)
		}
	}
	s.setups.setRoots(kept)
	s.relintAll()
}

// safeRequest is request, with a panic turned into an internal error: a
// fault of the server ends one answer, not the connection.
func (s *server) safeRequest(ctx context.Context, method string, params json.RawMessage) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.logf("internal error in %s: %v\n%s", method, p, debug.Stack())
			result, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("celint failed on %s: %v", method, p))
		}
	}()
	return s.request(ctx, method, params)
}

// request answers a request that may take a while, on its own goroutine.
func (s *server) request(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "textDocument/hover":
		var p protocol.HoverParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		a, err := s.analysis(ctx, p.TextDocument.URI)
		if err != nil || a == nil {
			return nil, err
		}
		return a.hover(p.Position), nil
	case "textDocument/codeAction":
		var p protocol.CodeActionParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		a, err := s.analysis(ctx, p.TextDocument.URI)
		if err != nil || a == nil {
			return nil, err
		}
		return a.codeActions(p.TextDocument.URI, p.Range), nil
	}
	return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "celint does not serve "+method)
}

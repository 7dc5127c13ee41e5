package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"go.lsp.dev/jsonrpc2"

	"github.com/celint/celint/rulesets"
)

// published is one textDocument/publishDiagnostics.
type published struct {
	URI         protocol.DocumentUri `json:"uri"`
	Version     *int32               `json:"version"`
	Diagnostics []wireDiagnostic     `json:"diagnostics"`
}

// wireHover is a hover as the client reads it.
type wireHover struct {
	Contents struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"contents"`
}

// wireDiagnostic is a diagnostic as the client reads it.
type wireDiagnostic struct {
	Range           protocol.Range `json:"range"`
	Severity        int            `json:"severity"`
	Code            string         `json:"code"`
	CodeDescription *struct {
		Href string `json:"href"`
	} `json:"codeDescription"`
	Source  string `json:"source"`
	Message string `json:"message"`
}

// testClient drives a server over an in-memory pipe, as an editor would.
type testClient struct {
	t      testing.TB
	conn   jsonrpc2.Conn
	raw    net.Conn
	diags  chan published
	logs   chan string
	served chan error
}

func startServer(t testing.TB, opts Options) *testClient {
	t.Helper()
	if opts.Embedded == nil {
		opts.Embedded = rulesets.Load
	}
	srv, cli := net.Pipe()
	c := &testClient{t: t, raw: cli, diags: make(chan published, 4096), logs: make(chan string, 64), served: make(chan error, 1)}
	go func() { c.served <- Serve(context.Background(), srv, opts) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(cli))
	c.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case "textDocument/publishDiagnostics":
			var p published
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				t.Errorf("publishDiagnostics: %v", err)
			}
			c.diags <- p
		case "window/logMessage":
			var p struct{ Message string }
			_ = json.Unmarshal(req.Params(), &p)
			select {
			case c.logs <- p.Message:
			default:
			}
		}
		if _, ok := req.(*jsonrpc2.Call); ok {
			return reply(ctx, nil, nil)
		}
		return nil
	})
	t.Cleanup(func() { _ = c.conn.Close() })
	return c
}

func (c *testClient) call(method string, params, result any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *testClient) initialize(root string) {
	c.t.Helper()
	var res protocol.InitializeResult
	if err := c.call("initialize", map[string]any{"processId": 1, "rootUri": "file://" + root, "capabilities": map[string]any{}}, &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo == nil || res.ServerInfo.Name != "celint" {
		c.t.Fatalf("initialize: server info %+v", res.ServerInfo)
	}
	c.notify("initialized", map[string]any{})
}

// waitDiagnostics returns the first publication for u of version (any
// version when version < 0).
func (c *testClient) waitDiagnostics(u protocol.DocumentUri, version int32) published {
	c.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if p.URI == u && (version < 0 || p.Version != nil && *p.Version == version) {
				return p
			}
		case <-timeout:
			c.t.Fatalf("no diagnostics for %s version %d", u, version)
		}
	}
}

func (c *testClient) shutdown() {
	c.t.Helper()
	if err := c.call("shutdown", nil, nil); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.served:
		if err != nil {
			c.t.Fatalf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(30 * time.Second):
		c.t.Fatal("the server did not exit")
	}
}

// faulty is a description with three findings: no $schema (a warning, at
// the root), a missing member, and a tag listed twice, which has a fix.
const faulty = `mcpdesc: "0.9.0"
info:
  name: demo
  version: 1.0.0
tags:
  - name: notes
tools:
  - name: create_note
    description: Create a note.
    tags: [notes, notes]
    inputSchema:
      type: object
      additionalProperties: false
`

func codes(p published) []string {
	var out []string
	for _, d := range p.Diagnostics {
		out = append(out, fmt.Sprint(d.Code))
	}
	return out
}

func findCode(p published, code string) *wireDiagnostic {
	for i, d := range p.Diagnostics {
		if d.Code == code {
			return &p.Diagnostics[i]
		}
	}
	return nil
}

func TestSession(t *testing.T) {
	root := t.TempDir()
	c := startServer(t, Options{})
	c.initialize(root)
	u := protocol.DocumentUri("file://" + filepath.Join(root, "demo.mcpdesc.yaml"))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "yaml", "version": 1, "text": faulty}})
	p := c.waitDiagnostics(u, 1)
	dup := findCode(p, "mcpdesc.tags.references/duplicate")
	if dup == nil || len(p.Diagnostics) != 3 {
		t.Fatalf("diagnostics: %v", codes(p))
	}
	// 10:19 to 10:24 in the loader's terms: "notes", the second.
	want := protocol.Range{Start: protocol.Position{Line: 9, Character: 18}, End: protocol.Position{Line: 9, Character: 23}}
	if dup.Range != want || dup.Severity != 1 || dup.Source != "celint" {
		t.Errorf("duplicate tag: range %+v severity %v source %q; want %+v", dup.Range, dup.Severity, dup.Source, want)
	}
	if dup.CodeDescription == nil || !strings.HasPrefix(dup.CodeDescription.Href, "https://") {
		t.Errorf("duplicate tag: codeDescription %+v, want the rule page", dup.CodeDescription)
	}

	// Hover on the finding: the rule's title and page.
	var h wireHover
	if err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": protocol.Position{Line: 9, Character: 20}}, &h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.Contents.Value, "mcpdesc.tags.references/duplicate") || !strings.Contains(h.Contents.Value, "](https://") {
		t.Errorf("hover on the finding:\n%s", h.Contents.Value)
	}
	// Hover on a key: the rules that check its value, or the object it
	// is in.
	for _, tc := range []struct {
		at      protocol.Position
		pointer string
	}{
		{protocol.Position{Line: 9, Character: 6}, "`/tools/0/tags`"},
		{protocol.Position{Line: 8, Character: 6}, "`/tools/0`"},
	} {
		h = wireHover{}
		if err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": tc.at}, &h); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(h.Contents.Value, tc.pointer) || !strings.Contains(h.Contents.Value, "- **mcpdesc.") {
			t.Errorf("hover on a key at %+v:\n%s", tc.at, h.Contents.Value)
		}
	}

	// Code actions on the finding: its fix, and a suppression comment.
	var actions []protocol.CodeAction
	if err := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u}, "range": want, "context": map[string]any{"diagnostics": []any{dup}}}, &actions); err != nil {
		t.Fatal(err)
	}
	var fix, suppress *protocol.CodeAction
	for i, a := range actions {
		switch {
		case strings.HasPrefix(a.Title, "Fix mcpdesc.tags.references/duplicate"):
			fix = &actions[i]
		case a.Title == "Suppress mcpdesc.tags.references/duplicate on this line":
			suppress = &actions[i]
		}
	}
	if fix == nil || suppress == nil {
		t.Fatalf("code actions: %+v", actions)
	}
	edits := fix.Edit.Changes[u]
	if len(edits) != 1 {
		t.Fatalf("fix edits: %+v", fix.Edit)
	}
	fixed, err := apply([]byte(faulty), []change{{Range: &edits[0].Range, Text: edits[0].NewText}}, 1<<20)
	if err != nil || !strings.Contains(string(fixed), "tags: [notes]\n") {
		t.Fatalf("the fix gives %q (%v)", fixed, err)
	}
	sup := suppress.Edit.Changes[u]
	if len(sup) != 1 || sup[0].NewText != "    # celint-disable-next-line mcpdesc.tags.references/duplicate\n" || sup[0].Range.Start != (protocol.Position{Line: 9}) {
		t.Errorf("suppression edit: %+v", sup)
	}

	// The client applies the fix: the finding goes.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{"range": edits[0].Range, "text": edits[0].NewText}},
	})
	p = c.waitDiagnostics(u, 2)
	if findCode(p, "mcpdesc.tags.references/duplicate") != nil || len(p.Diagnostics) != 2 {
		t.Errorf("after the fix: %v", codes(p))
	}

	// Closing clears the document's diagnostics.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
	if p := c.waitDiagnostics(u, -1); len(p.Diagnostics) != 0 {
		t.Errorf("after didClose: %v", codes(p))
	}
	c.shutdown()
}

func TestNotADescription(t *testing.T) {
	root := t.TempDir()
	c := startServer(t, Options{})
	c.initialize(root)
	for i, text := range []string{`{"name": "web", "version": "1.0.0"}`, "services:\n  web: {image: nginx}\n", "broken: [\n"} {
		ext := ".json"
		if i > 0 {
			ext = ".yaml"
		}
		u := protocol.DocumentUri(fmt.Sprintf("file://%s/doc%d%s", root, i, ext))
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "yaml", "version": 1, "text": text}})
		if p := c.waitDiagnostics(u, 1); len(p.Diagnostics) != 0 {
			t.Errorf("%s: %v", text, codes(p))
		}
	}
	// A description that breaks while being edited gets its syntax error.
	u := protocol.DocumentUri("file://" + root + "/d.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "yaml", "version": 1, "text": faulty}})
	c.waitDiagnostics(u, 1)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2}, "contentChanges": []any{map[string]any{"text": faulty + "  - [\n"}}})
	p := c.waitDiagnostics(u, 2)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "celint.input" || p.Diagnostics[0].Range.Start.Line < 12 {
		t.Errorf("a broken description: %+v", p.Diagnostics)
	}
	c.shutdown()
}

// frame writes one message with the protocol's header, as a client would.
func frame(t *testing.T, w io.Writer, body string) {
	t.Helper()
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		t.Fatal(err)
	}
}

func TestBadMessages(t *testing.T) {
	root := t.TempDir()
	c := startServer(t, Options{})
	var perr *jsonrpc2.Error
	if err := c.call("textDocument/hover", map[string]any{}, nil); !errors.As(err, &perr) || perr.Code != jsonrpc2.ServerNotInitialized {
		t.Errorf("a request before initialize: %v", err)
	}
	c.initialize(root)
	// Content that is not JSON-RPC: skipped, and said in the client's log.
	frame(t, c.raw, `{"jsonrpc": "2.0", "id": 7, "method": `)
	select {
	case msg := <-c.logs:
		if !strings.Contains(msg, "not JSON-RPC") {
			t.Errorf("log: %q", msg)
		}
	case <-time.After(30 * time.Second):
		t.Error("no log message for a message that is not JSON-RPC")
	}
	if err := c.call("workspace/symbol", map[string]any{"query": "x"}, nil); !errors.As(err, &perr) || perr.Code != jsonrpc2.MethodNotFound {
		t.Errorf("an unknown method: %v", err)
	}
	if err := c.call("textDocument/hover", []int{1, 2}, nil); !errors.As(err, &perr) || perr.Code != jsonrpc2.InvalidParams {
		t.Errorf("bad params: %v", err)
	}
	// A position outside a document, and a document never opened: no hover.
	var h *wireHover
	if err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere.yaml"}, "position": protocol.Position{Line: 99}}, &h); err != nil || h != nil {
		t.Errorf("hover on a document not open: %v %v", h, err)
	}
	// A change that does not fit the text is not applied.
	u := protocol.DocumentUri("file://" + root + "/d.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "yaml", "version": 1, "text": faulty}})
	c.waitDiagnostics(u, 1)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2}, "contentChanges": []any{map[string]any{"range": protocol.Range{Start: protocol.Position{Line: 500}, End: protocol.Position{Line: 501}}, "text": "x"}}})
	if p := c.waitDiagnostics(u, 2); len(p.Diagnostics) != 3 {
		t.Errorf("after a change outside the text: %v", codes(p))
	}
	c.shutdown()
}

func TestExitWithoutShutdown(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(t.TempDir())
	c.notify("exit", nil)
	if err := <-c.served; !errors.Is(err, ErrNoShutdown) {
		t.Errorf("exit without shutdown: %v", err)
	}
}

func TestClientGone(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(t.TempDir())
	u := protocol.DocumentUri("file:///w/d.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "yaml", "version": 1, "text": faulty}})
	_ = c.raw.Close()
	select {
	case err := <-c.served:
		if err != nil {
			t.Errorf("Serve when the client is gone: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not end when its client went")
	}
}

func TestMessageTooLarge(t *testing.T) {
	c := startServer(t, Options{MaxMessage: 1 << 20})
	c.initialize(t.TempDir())
	go func() {
		// A header promising 1 GiB, then more than the limit of it.
		fmt.Fprintf(c.raw, "Content-Length: %d\r\n\r\n", 1<<30)
		chunk := make([]byte, 64<<10)
		for i := 0; i < 64; i++ {
			if _, err := c.raw.Write(chunk); err != nil {
				return
			}
		}
	}()
	select {
	case <-c.served:
	case <-time.After(60 * time.Second):
		t.Fatal("the server read on past the message limit")
	}
}

func TestLargeDocument(t *testing.T) {
	c := startServer(t, Options{})
	root := t.TempDir()
	c.initialize(root)
	// 16 MiB and a little more: over the ruleset's limit.
	var b strings.Builder
	b.WriteString(faulty)
	b.WriteString("x-pad:\n")
	for b.Len() <= 16<<20 {
		b.WriteString("  - aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n")
	}
	u := protocol.DocumentUri("file://" + root + "/big.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "yaml", "version": 1, "text": b.String()}})
	p := c.waitDiagnostics(u, 1)
	if len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, "limit") {
		t.Errorf("a document over the limit: %+v", p.Diagnostics)
	}
	c.shutdown()
}

func TestManyChanges(t *testing.T) {
	c := startServer(t, Options{})
	root := t.TempDir()
	c.initialize(root)
	u := protocol.DocumentUri("file://" + root + "/d.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "yaml", "version": 1, "text": faulty}})
	// 1,000 edits as fast as the pipe takes them, each typing one
	// character of a new description and the last one restoring it.
	at := protocol.Position{Line: 8, Character: 17}
	const n = 1000
	for i := 2; i <= n; i++ {
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": i}, "contentChanges": []any{map[string]any{"range": protocol.Range{Start: at, End: at}, "text": "x"}}})
		at.Character++
	}
	p := c.waitDiagnostics(u, n)
	if len(p.Diagnostics) != 3 {
		t.Errorf("after %d changes: %v", n, codes(p))
	}
	// Older versions may have been published before, never after.
	select {
	case late := <-c.diags:
		t.Errorf("a publication after the latest version's: version %v", *late.Version)
	case <-time.After(200 * time.Millisecond):
	}
	c.shutdown()
}

func TestConfigAndSuppressions(t *testing.T) {
	root := t.TempDir()
	// The workspace's config turns a finding off; a comment suppresses
	// another; a config file above the workspace folder is never read.
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "rules:\n  mcpdesc.document.schema-reference/missing: off\n"
	if err := os.WriteFile(filepath.Join(root, ".celint.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize(root)
	u := protocol.DocumentUri("file://" + filepath.Join(root, "d.yaml"))
	text := strings.Replace(faulty, "    tags: [notes, notes]", "    # celint-disable-next-line mcpdesc.tags.references -- kept on purpose\n    tags: [notes, notes]", 1)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "yaml", "version": 1, "text": text}})
	p := c.waitDiagnostics(u, 1)
	if got := codes(p); len(got) != 1 || got[0] != "mcpdesc.document.structure" {
		t.Errorf("with the config and the comment: %v", got)
	}
	// A config file that does not load: the document says why.
	if err := os.WriteFile(filepath.Join(root, ".celint.yaml"), []byte("rules: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": "file://" + filepath.Join(root, ".celint.yaml")}})
	p = c.waitDiagnostics(u, 1)
	if len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, ".celint.yaml:") {
		t.Errorf("with a broken config: %+v", p.Diagnostics)
	}
	c.shutdown()
}

// TestOpenDocumentsBound: the texts of all open documents together are
// bounded; a document that would pass the bound is not held, says so, and
// is linted once another document's close leaves it room.
func TestOpenDocumentsBound(t *testing.T) {
	c := startServer(t, Options{MaxOpen: len(faulty) * 3 / 2})
	root := t.TempDir()
	c.initialize(root)
	a := protocol.DocumentUri("file://" + root + "/a.yaml")
	b := protocol.DocumentUri("file://" + root + "/b.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": a, "languageId": "yaml", "version": 1, "text": faulty}})
	if p := c.waitDiagnostics(a, 1); len(p.Diagnostics) != 3 {
		t.Fatalf("the first document: %v", codes(p))
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": b, "languageId": "yaml", "version": 1, "text": faulty}})
	if p := c.waitDiagnostics(b, 1); len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, "all open documents together") {
		t.Fatalf("a document past the bound: %+v", p.Diagnostics)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": a}})
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": b, "version": 2}, "contentChanges": []any{map[string]any{"text": faulty}}})
	if p := c.waitDiagnostics(b, 2); len(p.Diagnostics) != 3 {
		t.Errorf("after the first document closed: %v", codes(p))
	}
	c.shutdown()
}

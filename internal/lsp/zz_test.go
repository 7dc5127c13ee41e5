package lsp
import ("testing";"runtime";"time";"github.com/tliron/glsp/protocol_3_16";"github.com/celint/celint/internal/benchgen";"bytes")
func TestZZ(t *testing.T){
	c := startServer(t, Options{}); root := t.TempDir(); c.initialize(root)
	data := benchgen.Description(5000)
	u := protocol.DocumentUri("file://" + root + "/d.json")
	off := bytes.Index(data, []byte("Generated tool number 0")); at := newText(data).position(off)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "json", "version": 1, "text": string(data)}})
	c.waitDiagnostics(u, 1)
	var peak uint64; stop := make(chan bool)
	go func(){ for { select { case <-stop: return; default: }; var m runtime.MemStats; runtime.ReadMemStats(&m); if m.HeapInuse>peak {peak=m.HeapInuse}; time.Sleep(20*time.Millisecond)} }()
	t0 := time.Now()
	for i := 2; i <= 300; i++ {
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": i}, "contentChanges": []any{map[string]any{"range": protocol.Range{Start: at, End: protocol.Position{Line: at.Line, Character: at.Character+1}}, "text": "g"}}})
	}
	sent := time.Since(t0)
	c.waitDiagnostics(u, 300)
	close(stop)
	t.Logf("sent 1000 changes in %v, last diags after %v, peak heap %d MB, doc %d MB", sent, time.Since(t0), peak>>20, len(data)>>20)
	c.shutdown()
}

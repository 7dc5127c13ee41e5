package lsp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celint/celint/internal/benchgen"
)

// BenchmarkEdit measures, in one run, the latency of an edit in the
// language server (from didChange to its publishDiagnostics, over a pipe)
// and the time of a one-shot `celint check` of the same document: the
// edit changes one character of the first tool's description, back and
// forth, and comes after the previous edit's diagnostics (a pause). Reported: edit-ms, check-ms and edit/check.
func BenchmarkEdit(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "celint")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", bin, "../../cmd/celint").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, tools := range []int{1, 5000} {
		b.Run(fmt.Sprintf("tools=%d", tools), func(b *testing.B) {
			data := benchgen.Description(tools)
			dir := b.TempDir()
			file := filepath.Join(dir, "bench.json")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				b.Fatal(err)
			}
			off := bytes.Index(data, []byte("Generated tool number 0"))
			if off < 0 {
				b.Fatal("the workload has no first tool's description")
			}
			at := newText(data).position(off)
			c := startServer(b, Options{})
			defer c.conn.Close()
			var res protocol.InitializeResult
			if _, err := c.conn.Call(context.Background(), "initialize", map[string]any{"processId": 1, "rootUri": "file://" + dir, "capabilities": map[string]any{}}, &res); err != nil {
				b.Fatal(err)
			}
			u := protocol.DocumentUri("file://" + file)
			_ = c.conn.Notify(context.Background(), "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "json", "version": 1, "text": string(data)}})
			wait := func(version int32) {
				for p := range c.diags {
					if p.URI == u && p.Version != nil && *p.Version == version {
						return
					}
				}
			}
			wait(1)
			var edit, check time.Duration
			version := int32(1)
			for b.Loop() {
				version++
				letter := "g"
				if version%2 == 1 {
					letter = "G"
				}
				r := protocol.Range{Start: at, End: protocol.Position{Line: at.Line, Character: at.Character + 1}}
				t0 := time.Now()
				_ = c.conn.Notify(context.Background(), "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": version}, "contentChanges": []any{map[string]any{"range": r, "text": letter}}})
				wait(version)
				edit += time.Since(t0)
				t0 = time.Now()
				cmd := exec.Command(bin, "check", "--no-config", "--fail-on", "never", file)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("celint check: %v\n%s", err, out)
				}
				check += time.Since(t0)
			}
			n := float64(b.N)
			b.ReportMetric(float64(edit.Microseconds())/1000/n, "edit-ms")
			b.ReportMetric(float64(check.Microseconds())/1000/n, "check-ms")
			b.ReportMetric(float64(edit)/float64(check), "edit/check")
			b.ReportMetric(0, "ns/op")
		})
	}
}

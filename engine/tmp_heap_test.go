package engine_test

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/benchgen"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

func TestTmpHeap(t *testing.T) {
	runtime.MemProfileRate = 4096
	cat, _ := rulesets.Catalog(engine.Options{})
	data := benchgen.Description(5000)
	_, rs, _ := cat.Load("big.json", data, nil)
	doc, _ := loader.Parse("big.json", data, rs.LoadOptions)
	rs.Lint(context.Background(), doc, engine.LintOptions{Workers: 2})
	runtime.GC()
	f, _ := os.Create("/tmp/heap.prof")
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap in use %d MB", ms.HeapAlloc>>20)
	runtime.KeepAlive(doc)
	runtime.KeepAlive(data)
}

package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcSettings reads the collector's percent and memory limit.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func TestDeferFirstGC(t *testing.T) {
	percent, limit := gcSettings()
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)

	// The user's choice is kept.
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		deferFirstGC(func(k string) string {
			if k == env {
				return "200"
			}
			return ""
		})
		if p, l := gcSettings(); p != 100 || l != math.MaxInt64 {
			t.Errorf("with %s set: GOGC %d, memory limit %d; want them untouched", env, p, l)
		}
	}

	deferFirstGC(func(string) string { return "" })
	if p, l := gcSettings(); p != -1 || l != startupHeap {
		t.Fatalf("before the first collection: GOGC %d, memory limit %d; want off and %d", p, l, startupHeap)
	}
	// After the first collection the defaults are back.
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if p, l := gcSettings(); p == 100 && l == math.MaxInt64 {
			break
		}
		if time.Now().After(deadline) {
			p, l := gcSettings()
			t.Fatalf("after collections: GOGC %d, memory limit %d; want 100 and no limit", p, l)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

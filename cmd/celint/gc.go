package main

import (
	"runtime"
	"runtime/debug"
)

// startupHeap is the heap size below which a run does not collect garbage
// until its first collection. Loading the rulesets and linting a small
// document allocate about 30 MiB, almost all of it kept to the end: with
// Go's default of a collection each time the heap doubles from 4 MiB,
// a one-tool run spent a fifth of its time in five collections that freed
// little. Larger runs reach the bound early and then collect as usual.
const startupHeap = 64 << 20

// deferFirstGC turns the collector off until the heap first reaches
// startupHeap; after that first collection Go's defaults (GOGC=100, no
// memory limit) apply again. It does nothing when the user set GOGC or
// GOMEMLIMIT, whose choice is kept as it is.
func deferFirstGC(getenv func(string) string) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	limit := debug.SetMemoryLimit(startupHeap)
	percent := debug.SetGCPercent(-1)
	// The sentinel is garbage at once: its finalizer runs after the first
	// collection, which the memory limit triggers.
	s := &gcSentinel{}
	runtime.SetFinalizer(s, func(*gcSentinel) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

// gcSentinel has a pointer so that it is not a tiny allocation, which
// could share its block with a live object and never be finalized.
type gcSentinel struct{ _ *int }

package engine

import (
	"sync/atomic"
	"testing"
)

// TestParallelTasks: every task runs once, whatever the number of
// workers, and a task's panic reaches the caller.
func TestParallelTasks(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 5, 100} {
		var ran [50]atomic.Int32
		tasks := make([]func(), len(ran))
		for i := range tasks {
			tasks[i] = func() { ran[i].Add(1) }
		}
		parallelTasks(tasks, workers)
		for i := range ran {
			if n := ran[i].Load(); n != 1 {
				t.Fatalf("workers=%d: task %d ran %d times", workers, i, n)
			}
		}
		tasks[7] = func() { panic("task 7") }
		func() {
			defer func() {
				if p := recover(); p != "task 7" {
					t.Errorf("workers=%d: recovered %v, want the task's panic", workers, p)
				}
			}()
			parallelTasks(tasks, workers)
		}()
	}
}

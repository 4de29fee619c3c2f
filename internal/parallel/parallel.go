// Package parallel runs independent tasks on a bounded number of
// goroutines, handing them out in order as goroutines come free, so
// tasks of uneven cost still keep every goroutine busy.
package parallel

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Do calls f(worker, task) for tasks 0..tasks-1, spread over at most
// workers goroutines; worker (0..workers-1) tells f which scratch space is
// its own. It returns when every call has. A panic in f is raised again
// on the caller's goroutine (with the worker's stack), where a caller's
// recover can see it: on a worker of its own it would end the process.
func Do(tasks, workers int, f func(worker, task int)) {
	workers = min(workers, tasks)
	if workers <= 1 {
		for t := range tasks {
			f(0, t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var panicked any
	for w := range workers {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					once.Do(func() { panicked = fmt.Sprintf("%v\n%s", p, debug.Stack()) })
					next.Store(int64(tasks)) // the others stop at their next task
				}
			}()
			for t := int(next.Add(1) - 1); t < tasks; t = int(next.Add(1) - 1) {
				f(w, t)
			}
		})
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}

// For calls f(task) for tasks 0..tasks-1 on up to GOMAXPROCS goroutines.
func For(tasks int, f func(task int)) {
	Do(tasks, runtime.GOMAXPROCS(0), func(_, t int) { f(t) })
}

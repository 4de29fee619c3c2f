package parallel

import (
	"sync/atomic"
	"testing"
)

// Every task runs once, each on a worker in range, whatever the number of
// workers against tasks.
func TestDoRunsEachTaskOnce(t *testing.T) {
	for _, c := range [][2]int{{0, 4}, {1, 4}, {5, 1}, {100, 3}, {3, 100}} {
		tasks, workers := c[0], c[1]
		runs := make([]atomic.Int32, tasks)
		Do(tasks, workers, func(w, task int) {
			if w < 0 || w >= max(1, min(workers, tasks)) {
				t.Errorf("%d tasks on %d workers: worker %d", tasks, workers, w)
			}
			runs[task].Add(1)
		})
		for task := range runs {
			if n := runs[task].Load(); n != 1 {
				t.Errorf("%d tasks on %d workers: task %d ran %d times", tasks, workers, task, n)
			}
		}
	}
}

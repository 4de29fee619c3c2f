package parallel

import (
	"fmt"
	"strings"
	"testing"
)

// A panic in a task reaches the caller's goroutine, where recover sees it.
func TestPanicReachesCaller(t *testing.T) {
	got := func() (p any) {
		defer func() { p = recover() }()
		Do(100, 4, func(_, task int) {
			if task == 37 {
				panic("task 37")
			}
		})
		return nil
	}()
	if s := fmt.Sprint(got); !strings.HasPrefix(s, "task 37\n") || !strings.Contains(s, "goroutine") {
		t.Errorf("recovered %q, want the task's panic with its stack", s)
	}
}

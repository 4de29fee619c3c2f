package crawl

import (
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// panics holds the first panic of a crawl's goroutines. A fetch runs on a
// goroutine of its own, beyond the recovery of whoever called Crawl (the
// scheduler's), so a panic there would end the whole process: it is
// caught, the page fails, and Crawl returns the panic with its stack as
// its error, failing this run only.
type panics struct {
	once sync.Once
	err  error
}

// safely runs fetch for key, turning a panic into a failed fetch.
func (c *crawler) safely(key string, fetch func() fetched) (f fetched) {
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("panic while fetching %s: %v\n%s", key, p, debug.Stack())
			c.panics.once.Do(func() { c.panics.err = err })
			f = fetched{resp: Response{Class: ClassCancelled, Err: err}, at: time.Now().UTC()}
		}
	}()
	return fetch()
}

package crawl_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// panicState is a crawl state that panics on the nth Load, as a store
// without its statements once did (a nil pointer in Missing).
type panicState struct{ n atomic.Int32 }

func (s *panicState) Load(key, digest string) (crawl.Stored, bool, bool) {
	if s.n.Add(-1) == 0 {
		panic("boom at " + key)
	}
	return crawl.Stored{}, false, false
}
func (*panicState) Save(string, string, crawl.Stored) error { return nil }
func (*panicState) Touch(string, string) error              { return nil }
func (*panicState) Missing(string) (int, time.Time, bool)   { return 0, time.Time{}, false }
func (*panicState) SaveMissing(string, int) error           { return nil }
func (*panicState) Requests(int) error                      { return nil }

// A panic on a fetch's goroutine fails the crawl with the panic and its
// stack: the process, and other jobs' runs in it, go on.
func TestCrawlPanicInFetchIsAnError(t *testing.T) {
	w := wikitest.New(t, 100)
	for _, concurrency := range []int{1, 4} {
		cfg := config(w.URL(), 50, concurrency)
		st := &panicState{}
		st.n.Store(7)
		cfg.State = st
		res, err := crawl.Crawl(context.Background(), cfg)
		if err == nil || res != nil || !strings.Contains(err.Error(), "panic while fetching") ||
			!strings.Contains(err.Error(), "boom at /wiki/") || !strings.Contains(err.Error(), "goroutine") {
			t.Errorf("concurrency %d: Crawl = %v, %v; want the panic with its stack", concurrency, res, err)
		}
	}
}

package crawl

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// inflightGrace is how long a request already sent may go on after its
// crawl is cancelled. Letting it finish (rather than dropping the
// connection) means every request the host answered is a page of the run,
// so its counts agree with the host's log; the grace bounds how long a
// slow host can hold up a stop.
const inflightGrace = 5 * time.Second

// inflight returns the context of one request: deadline from now, and
// cancelled inflightGrace after ctx is.
func inflight(ctx context.Context, deadline time.Duration) (context.Context, context.CancelFunc) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deadline)
	stop := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(inflightGrace, cancel)
		context.AfterFunc(rctx, func() { t.Stop() })
	})
	return rctx, func() { stop(); cancel() }
}

// sentCounter counts requests by the status of their answer.
type sentCounter struct {
	mu sync.Mutex
	by map[int]int
}

func (s *sentCounter) add(status int) {
	s.mu.Lock()
	s.by[status]++
	s.mu.Unlock()
}

func (s *sentCounter) counts() map[int]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[int]int, len(s.by))
	for k, v := range s.by {
		out[k] = v
	}
	return out
}

// counting is a transport that counts every request it sends, redirects
// included, by the status of the answer.
type counting struct {
	next http.RoundTripper
	sent *sentCounter
}

func (t counting) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.sent.add(0)
		return resp, err
	}
	t.sent.add(resp.StatusCode)
	return resp, nil
}

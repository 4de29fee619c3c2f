package crawl

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
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
	return maps.Clone(s.by)
}

// counting is a transport that counts every request it sends, by the
// status of the answer.
type counting struct {
	next http.RoundTripper
	sent *sentCounter
}

func (t counting) RoundTrip(req *http.Request) (*http.Response, error) {
	return RoundTripCounted(t.next, req, t.sent.add)
}

// RoundTripCounted sends req through rt and calls count once for every
// request written to the host, with the status of its answer (0: none).
// Counting writes rather than round trips counts what the host saw: Go's
// transport silently sends a request again when a reused connection
// breaks before any answer, and the host logs both. A request never
// written (a refused connection) is not counted.
func RoundTripCounted(rt http.RoundTripper, req *http.Request, count func(status int)) (*http.Response, error) {
	var writes atomic.Int32
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { writes.Add(1) }}
	resp, err := rt.RoundTrip(req.WithContext(httptrace.WithClientTrace(req.Context(), trace)))
	unanswered := writes.Load()
	if err == nil {
		unanswered--
		count(resp.StatusCode)
	}
	for range unanswered {
		count(0)
	}
	return resp, err
}

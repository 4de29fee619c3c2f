package crawl

import (
	"context"
	"sync"
	"time"
)

// Politeness is the process-wide registry of per-host limits. Every job
// that crawls a host shares that host's limit, so two jobs on
// en.wikipedia.org together stay within one budget.
type Politeness struct {
	mu    sync.Mutex
	hosts map[string]*HostLimit
}

// NewPoliteness returns an empty registry. A process needs exactly one.
func NewPoliteness() *Politeness { return &Politeness{hosts: make(map[string]*HostLimit)} }

// Host returns the limit for host, creating it on first use (maxRPS <= 0:
// no rate limit). When jobs ask
// for different settings, the strictest applies: the lowest rate and the
// fewest requests in flight.
func (p *Politeness) Host(host string, maxRPS float64, concurrency int) *HostLimit {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.hosts[host]
	if h == nil {
		h = &HostLimit{wake: make(chan struct{})}
		p.hosts[host] = h
	}
	var interval time.Duration
	if maxRPS > 0 {
		interval = time.Duration(float64(time.Second) / maxRPS)
	}
	h.tighten(interval, max(concurrency, 1))
	return h
}

// HostLimit spaces request starts to one host and bounds requests in flight.
//
// Spacing starts 1/max_rps apart is not enough by itself: a start that
// wakes late, next to one on time, puts max_rps+1 starts inside some one
// second. So the limit also keeps the last max_rps start times and never
// starts another until window after the oldest of them.
type HostLimit struct {
	mu          sync.Mutex
	interval    time.Duration // minimum gap between request starts
	burst       int           // starts allowed in any window (0: no limit)
	recent      []time.Time   // the last burst starts, oldest first
	limit       int           // maximum requests in flight
	inflight    int
	next        time.Time     // earliest start of the next request
	pausedUntil time.Time     // set by Retry-After
	wake        chan struct{} // closed when a request ends

	latency latencies // of the host's answers: requests' deadlines
}

// window is the span in which at most max_rps requests start: a second,
// with a margin for the jitter between our clock and the server's.
const window = time.Second + 20*time.Millisecond

func (h *HostLimit) tighten(interval time.Duration, limit int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.interval = max(h.interval, interval)
	if h.interval > 0 {
		h.burst = max(1, int(time.Second/h.interval))
	}
	if h.limit == 0 || limit < h.limit {
		h.limit = limit
	}
}

// SetCrawlDelay raises the gap between request starts to robots.txt's
// Crawl-delay.
func (h *HostLimit) SetCrawlDelay(d time.Duration) { h.tighten(d, h.limit) }

// PauseUntil holds every request start to the host until t (Retry-After).
func (h *HostLimit) PauseUntil(t time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.After(h.pausedUntil) {
		h.pausedUntil = t
	}
}

// Acquire waits for a free in-flight slot and for the request's start time.
// The caller must call release when the request is done.
func (h *HostLimit) Acquire(ctx context.Context) (release func(), err error) {
	if err := h.takeSlot(ctx); err != nil {
		return nil, err
	}
	release = h.releaseSlot
	h.mu.Lock()
	start := time.Now()
	if h.next.After(start) {
		start = h.next
	}
	if h.pausedUntil.After(start) {
		start = h.pausedUntil
	}
	if h.burst > 0 {
		if len(h.recent) >= h.burst {
			if oldest := h.recent[len(h.recent)-h.burst]; oldest.Add(window).After(start) {
				start = oldest.Add(window)
			}
		}
		h.recent = append(h.recent[max(0, len(h.recent)-h.burst+1):], start)
	}
	h.next = start.Add(h.interval)
	h.mu.Unlock()
	if err := sleepUntil(ctx, start); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

func (h *HostLimit) takeSlot(ctx context.Context) error {
	for {
		h.mu.Lock()
		if h.inflight < h.limit {
			h.inflight++
			h.mu.Unlock()
			return nil
		}
		wake := h.wake
		h.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (h *HostLimit) releaseSlot() {
	h.mu.Lock()
	h.inflight--
	close(h.wake)
	h.wake = make(chan struct{})
	h.mu.Unlock()
}

// sleepUntil waits until t or until ctx is done.
func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

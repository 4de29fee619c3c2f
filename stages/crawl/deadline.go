package crawl

import (
	"slices"
	"sync"
	"time"
)

// A request's deadline follows what its host has shown: DeadlineFactor
// times the p99 of the host's recent answers, within [MinDeadline, the
// fetcher's Timeout], and InitialDeadline until DeadlineSamples answers
// are known. A retry doubles its attempt's deadline, so a page that is
// slow but sound still comes on a later attempt. A host answering in
// 50 ms gets 1 s; one answering in 2 s gets the full 30 s. One slow
// answer then costs seconds, not the 30 s a fixed time-out spends while
// the rest of the crawl waits for it.
const (
	DeadlineFactor  = 10
	MinDeadline     = time.Second
	InitialDeadline = 10 * time.Second
	DeadlineSamples = 16
	latencyWindow   = 256 // the answers the p99 is taken over
)

// latencies keeps a host's recent answer times.
type latencies struct {
	mu   sync.Mutex
	ring []time.Duration
	next int
	p99  time.Duration // of ring, kept up to date every few samples
	seen int
}

// observe records the time an answer took: to its whole body for a page,
// to its headers for any other.
func (l *latencies) observe(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ring) < latencyWindow {
		l.ring = append(l.ring, d)
	} else {
		l.ring[l.next] = d
		l.next = (l.next + 1) % latencyWindow
	}
	if l.seen++; l.seen <= DeadlineSamples || l.seen%8 == 0 {
		s := slices.Clone(l.ring)
		slices.Sort(s)
		l.p99 = s[(len(s)*99)/100]
	}
}

// deadline returns the deadline of an attempt (1 for the first), at most
// limit.
func (l *latencies) deadline(attempt int, limit time.Duration) time.Duration {
	l.mu.Lock()
	d := InitialDeadline
	if len(l.ring) >= DeadlineSamples {
		d = DeadlineFactor * l.p99
	}
	l.mu.Unlock()
	d = max(d, MinDeadline) << min(attempt-1, 8)
	return min(d, limit)
}

package crawl

import (
	"errors"
	"sync"
	"time"
)

var errBudget = errors.New("not requested: the run's request budget or deadline is spent")

// Budget bounds the requests of a run, every attempt counted (robots.txt,
// retries and redirects' first request included), and when they may
// start. A nil *Budget grants everything.
type Budget struct {
	mu       sync.Mutex
	used     int
	limit    int       // 0: no limit
	reserve  int       // kept back from the limit for now
	deadline time.Time // zero: none
	now      func() time.Time
}

// NewBudget returns a budget of max requests (0: no limit) until deadline
// (zero: none), of which spent are already used.
func NewBudget(max, spent int, deadline time.Time) *Budget {
	return &Budget{used: spent, limit: max, deadline: deadline, now: time.Now}
}

// Take grants one request, or reports that none is left.
func (b *Budget) Take() bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.exhausted() {
		return false
	}
	b.used++
	return true
}

// Used returns the requests granted so far.
func (b *Budget) Used() int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// keepBack makes n requests unavailable until keepBack(0).
func (b *Budget) keepBack(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserve = n
}

// spent reports whether no request is left (beyond any kept back).
func (b *Budget) spent() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.exhausted()
}

// exhausted reports whether the limit (less what is kept back) or the
// deadline is reached; b.mu is held.
func (b *Budget) exhausted() bool {
	return b.limit > 0 && b.used >= b.limit-b.reserve || !b.deadline.IsZero() && !b.now().Before(b.deadline)
}

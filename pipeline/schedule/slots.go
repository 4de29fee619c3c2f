package schedule

import (
	"context"
	"sync"
)

// slots bounds the runs going at once (max_parallel_jobs); the bound can
// change while runs hold slots, on a reload.
type slots struct {
	mu    sync.Mutex
	used  int
	limit int
	freed chan struct{} // closed when a slot is freed or the limit grows
}

func newSlots(limit int) *slots {
	return &slots{limit: max(limit, 1), freed: make(chan struct{})}
}

// acquire takes a slot, waiting (after calling waiting once) until one is
// free; it returns false if ctx is done first.
func (s *slots) acquire(ctx context.Context, waiting func()) bool {
	told := false
	for {
		s.mu.Lock()
		if s.used < s.limit {
			s.used++
			s.mu.Unlock()
			return true
		}
		freed := s.freed
		s.mu.Unlock()
		if !told {
			waiting()
			told = true
		}
		select {
		case <-freed:
		case <-ctx.Done():
			return false
		}
	}
}

func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.used--
	s.wake()
}

func (s *slots) setLimit(limit int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit = max(limit, 1)
	s.wake()
}

func (s *slots) wake() {
	close(s.freed)
	s.freed = make(chan struct{})
}

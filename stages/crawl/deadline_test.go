package crawl

import (
	"testing"
	"time"
)

func TestDeadlineFollowsTheHost(t *testing.T) {
	var l latencies
	if d := l.deadline(1, 30*time.Second); d != InitialDeadline {
		t.Errorf("no answers yet: %v, want %v", d, InitialDeadline)
	}
	for range DeadlineSamples {
		l.observe(50 * time.Millisecond)
	}
	for _, c := range []struct {
		attempt int
		want    time.Duration
	}{{1, MinDeadline}, {2, 2 * MinDeadline}, {3, 4 * MinDeadline}, {9, 30 * time.Second}} {
		if d := l.deadline(c.attempt, 30*time.Second); d != c.want {
			t.Errorf("50 ms answers, attempt %d: %v, want %v", c.attempt, d, c.want)
		}
	}
	for range latencyWindow {
		l.observe(2 * time.Second)
	}
	if d := l.deadline(1, 30*time.Second); d != 20*time.Second {
		t.Errorf("2 s answers: %v, want 20s", d)
	}
	if d := l.deadline(1, 5*time.Second); d != 5*time.Second {
		t.Errorf("bounded by the fetcher's time-out: %v", d)
	}
	// Two slow answers in 256 do not move the p99.
	var m latencies
	for i := range latencyWindow {
		d := 40 * time.Millisecond
		if i%200 == 0 {
			d = 30 * time.Second
		}
		m.observe(d)
	}
	if d := m.deadline(1, 30*time.Second); d != MinDeadline {
		t.Errorf("a rare slow answer: %v, want %v", d, MinDeadline)
	}
}

// A 404 recorded under a clock that was ahead is due now, not in a year.
func TestRecentFutureIsDue(t *testing.T) {
	week := 7 * 24 * time.Hour
	for _, c := range []struct {
		age  time.Duration
		want bool
	}{{time.Hour, true}, {week, false}, {-365 * 24 * time.Hour, false}, {0, true}} {
		if got := recent(c.age, week); got != c.want {
			t.Errorf("recent(%v, a week) = %v, want %v", c.age, got, c.want)
		}
	}
}

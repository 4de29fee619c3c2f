package crawl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// Jobs sharing a host share one limit, and the strictest settings win.
func TestPolitenessSharedAndStrictest(t *testing.T) {
	p := NewPoliteness()
	a := p.Host("en.wikipedia.org", 4, 8)
	b := p.Host("en.wikipedia.org", 2, 3)
	if a != b {
		t.Fatal("two jobs on one host got two limits")
	}
	if a.interval != 500*time.Millisecond || a.limit != 3 {
		t.Errorf("interval %v limit %d, want 500ms and 3", a.interval, a.limit)
	}
	if other := p.Host("de.wikipedia.org", 4, 8); other == a {
		t.Error("another host shares the limit")
	}
	a.SetCrawlDelay(2 * time.Second)
	if a.interval != 2*time.Second {
		t.Errorf("Crawl-delay 2s: interval %v", a.interval)
	}
	a.SetCrawlDelay(time.Second) // never loosens
	if a.interval != 2*time.Second {
		t.Errorf("a shorter Crawl-delay loosened the interval to %v", a.interval)
	}
}

// Request starts are reserved in order, each at least interval after the
// last, and a Retry-After pause holds them all.
func TestHostLimitSchedule(t *testing.T) {
	h := NewPoliteness().Host("h", 0, 2)
	h.tighten(time.Millisecond, 2)
	pause := time.Now().Add(20 * time.Millisecond)
	h.PauseUntil(pause)
	var mu sync.Mutex
	var starts []time.Time
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			release, err := h.Acquire(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			starts = append(starts, time.Now())
			h.mu.Lock()
			if h.inflight > 2 {
				t.Errorf("%d in flight, limit 2", h.inflight)
			}
			h.mu.Unlock()
			mu.Unlock()
			release()
		})
	}
	wg.Wait()
	for _, s := range starts {
		if s.Before(pause) {
			t.Errorf("a request started %v before the Retry-After pause ended", pause.Sub(s))
		}
	}
}

// robots.txt's Crawl-delay reaches the host's limit through the crawl.
func TestCrawlHonoursCrawlDelay(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nCrawl-delay: 0.05\n"))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<div id="mw-content-text"><p>x</p></div>`))
	}))
	defer srv.Close()
	p := NewPoliteness()
	_, err := Crawl(context.Background(), Config{BaseURL: srv.URL, Seeds: []string{"/wiki/A"}, MaxPages: 1,
		Concurrency: 1, Politeness: p, Fetch: FetchOptions{UserAgent: ua}})
	if err != nil {
		t.Fatal(err)
	}
	if h := p.Host(srv.Listener.Addr().String(), 0, 1); h.interval != 50*time.Millisecond {
		t.Errorf("interval after Crawl-delay 0.05 = %v", h.interval)
	}
}

// In fake time, with many goroutines asking at once, no window of one
// second ever holds more than max_rps request starts, and starts stay
// 1/max_rps apart; the limit still reaches about max_rps.
func TestLimiterNeverExceedsRateInAnySecond(t *testing.T) {
	for _, rps := range []float64{4, 2.5, 10, 0.5} {
		synctest.Test(t, func(t *testing.T) {
			h := NewPoliteness().Host("example.org", rps, 8)
			var mu sync.Mutex
			var starts []time.Time
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 12 {
						release, err := h.Acquire(context.Background())
						if err != nil {
							t.Error(err)
							return
						}
						mu.Lock()
						starts = append(starts, time.Now())
						hold := time.Duration(len(starts)%3) * 100 * time.Millisecond // requests of varied length
						mu.Unlock()
						time.Sleep(hold)
						release()
					}
				}()
			}
			wg.Wait()
			slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
			burst := max(1, int(rps))
			for i := burst; i < len(starts); i++ {
				if d := starts[i].Sub(starts[i-burst]); d <= time.Second {
					t.Fatalf("max_rps %v: starts %d and %d are %v apart: %d starts within one second", rps, i-burst, i, d, burst+1)
				}
			}
			for i := 1; i < len(starts); i++ {
				if d := starts[i].Sub(starts[i-1]); d < time.Duration(float64(time.Second)/rps) {
					t.Fatalf("max_rps %v: starts %v apart", rps, d)
				}
			}
			// At most max_rps in every second means at most its floor on
			// average: 2.5 allows 2.
			ceiling := min(rps, float64(burst))
			if rate := float64(len(starts)-1) / starts[len(starts)-1].Sub(starts[0]).Seconds(); rate < 0.9*ceiling {
				t.Errorf("max_rps %v: reached only %.2f starts a second", rps, rate)
			}
		})
	}
}

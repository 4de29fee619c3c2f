package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// requestLog is a wiki that records when each request started and how
// many were in flight at once.
type requestLog struct {
	mu               sync.Mutex
	starts           []time.Time
	inFlight, maxFly int
}

func (l *requestLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.starts = append(l.starts, time.Now())
	l.inFlight++
	l.maxFly = max(l.maxFly, l.inFlight)
	l.mu.Unlock()
	defer func() { l.mu.Lock(); l.inFlight--; l.mu.Unlock() }()
	if r.URL.Path == "/robots.txt" {
		fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		return
	}
	var i int
	if _, err := fmt.Sscanf(r.URL.Path, "/wiki/Page_%d", &i); err != nil || i < 0 || i >= 100 {
		http.NotFound(w, r)
		return
	}
	time.Sleep(30 * time.Millisecond) // a server's work, so that requests overlap
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	fmt.Fprint(w, wikitest.Article(i, 100))
}

// busiest returns the most request starts the server saw in any window
// of span. The server sees arrivals, not starts: on a loaded machine two
// requests started 200 ms apart may arrive closer, so a test allows for
// that jitter with a span a little under a second.
func (l *requestLog) busiest(span time.Duration) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := slices.Clone(l.starts)
	slices.SortFunc(s, func(a, b time.Time) int { return a.Compare(b) })
	most := 0
	for i, t := range s {
		j := i
		for j < len(s) && s[j].Sub(t) < span {
			j++
		}
		most = max(most, j-i)
	}
	return most
}

// arrivalSpan is a second less the arrival jitter a loaded machine adds.
const arrivalSpan = 900 * time.Millisecond

// Two processes crawling two jobs on one host, sharing an output root (as
// two CronJobs share a volume), together never exceed the host's max_rps
// in any second nor its concurrency: they take turns with the host lease.
func TestPolitenessAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("two crawls of 25 pages at 5 requests a second")
	}
	bin := buildRunner(t)
	log := &requestLog{}
	srv := httptest.NewServer(log)
	defer srv.Close()
	dir := t.TempDir()
	jobs := filepath.Join(dir, "jobs.yaml")
	os.WriteFile(jobs, []byte(`defaults:
  base_url: `+srv.URL+`
  user_agent: "topicrank-test/0.1 (ops@example.org)"
  max_pages: 25
  link_scope: body
  politeness: {max_rps: 5, concurrency: 2}
jobs:
  - {name: one, seeds: [/wiki/Page_0], topics: [tennis]}
  - {name: two, seeds: [/wiki/Page_50], topics: [racket]}
`), 0o644)
	waited := runTwo(t, bin, jobs, filepath.Join(dir, "outputs"), "one", "two")
	// Without the lease the two would send 10 a second together.
	if n := log.busiest(arrivalSpan); n > 5 {
		t.Errorf("%d requests in %v, max_rps 5", n, arrivalSpan)
	}
	if log.maxFly > 2 {
		t.Errorf("%d requests in flight at once, concurrency 2", log.maxFly)
	}
	if len(log.starts) < 50 {
		t.Errorf("%d requests: both crawls should have run", len(log.starts))
	}
	t.Logf("%d requests, busiest second %d (%v: %d), most in flight %d, one waited for the other: %v",
		len(log.starts), log.busiest(time.Second), arrivalSpan, log.busiest(arrivalSpan), log.maxFly, waited)
}

// runTwo runs two jobs at once in two processes of bin sharing an output
// root, and says whether one waited for the other's host lease.
func runTwo(t *testing.T, bin, jobs, out string, names ...string) (waited bool) {
	t.Helper()
	var wg sync.WaitGroup
	logs := make([]bytes.Buffer, len(names))
	for i, job := range names {
		wg.Go(func() {
			cmd := exec.Command(bin, "run", "-config", jobs, "-job", job, "-out", out)
			cmd.Stderr = &logs[i]
			if err := cmd.Run(); err != nil {
				t.Errorf("run -job %s: %v\n%s", job, err, logs[i].String())
			}
		})
	}
	wg.Wait()
	for i := range logs {
		waited = waited || strings.Contains(logs[i].String(), "waiting for the host lease")
	}
	return waited
}

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// The same through the wikimirror, judged by its own request log: two
// processes crawling two jobs of real pages on one host, max_rps 5 and
// concurrency 2 each, never send more than 5 requests a second nor more
// than 2 at once together. Skips without ../shared.
func TestPolitenessAcrossProcessesOnMirror(t *testing.T) {
	if testing.Short() {
		t.Skip("two crawls of 25 pages at 5 requests a second")
	}
	dir := t.TempDir()
	requests := filepath.Join(dir, "requests.jsonl")
	base := wikitest.Mirror(t, "-closed", "-log", requests)
	bin := buildRunner(t)
	jobs := filepath.Join(dir, "jobs.yaml")
	os.WriteFile(jobs, []byte(`defaults:
  base_url: `+base+`
  user_agent: "topicrank-test/0.1 (ops@example.org)"
  max_pages: 25
  politeness: {max_rps: 5, concurrency: 2}
jobs:
  - {name: city, seeds: [/wiki/Seattle], topics: [seattle]}
  - {name: thought, seeds: [/wiki/Philosophy], topics: [philosophy]}
`), 0o644)
	waited := runTwo(t, bin, jobs, filepath.Join(dir, "outputs"), "city", "thought")
	log, spans := readMirrorLog(t, requests)
	if n := log.busiest(arrivalSpan); n > 5 {
		t.Errorf("the mirror saw %d requests in %v, max_rps 5", n, arrivalSpan)
	}
	if n := mostAtOnce(spans); n > 2 {
		t.Errorf("the mirror served %d requests at once, concurrency 2", n)
	}
	if len(log.starts) < 50 {
		t.Errorf("%d requests: both crawls should have run", len(log.starts))
	}
	t.Logf("%d requests, busiest second %d, most at once %d, one waited for the other: %v",
		len(log.starts), log.busiest(time.Second), mostAtOnce(spans), waited)
}

// readMirrorLog reads the mirror's request log: each request's arrival,
// and its span (arrival to answer).
func readMirrorLog(t *testing.T, path string) (*requestLog, [][2]time.Time) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	log := &requestLog{}
	var spans [][2]time.Time
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e struct {
			Time  time.Time `json:"time"`
			DurMS int64     `json:"dur_ms"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("mirror log line %q: %v", sc.Text(), err)
		}
		log.starts = append(log.starts, e.Time)
		spans = append(spans, [2]time.Time{e.Time, e.Time.Add(time.Duration(e.DurMS) * time.Millisecond)})
	}
	return log, spans
}

// mostAtOnce returns the most spans that overlap at one instant.
func mostAtOnce(spans [][2]time.Time) int {
	type edge struct {
		at   time.Time
		open int
	}
	var edges []edge
	for _, s := range spans {
		edges = append(edges, edge{s[0], 1}, edge{s[1], -1})
	}
	slices.SortFunc(edges, func(a, b edge) int { // an end before a start at the same instant
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return a.open - b.open
	})
	most, n := 0, 0
	for _, e := range edges {
		n += e.open
		most = max(most, n)
	}
	return most
}

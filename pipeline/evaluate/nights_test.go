//go:build cgo

package evaluate

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/internal/snapshot"
	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// evaluate -nights on the demo's real pages: the learned strategy's
// nights never harvest fewer relevant pages than the night before, bfs
// is crawled once, and the table, the Parquet rows by night and the
// chart come out.
func TestEvaluateNights(t *testing.T) {
	snap, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(snapshot.NewServer(snap))
	defer srv.Close()
	r := pipeline.NewRunner(t.TempDir(), slog.New(slog.DiscardHandler))
	r.BaseURL = srv.URL
	job := pipeline.Job{Name: "sports", Seeds: []string{"/wiki/Seattle"}, Topics: []string{"sports", "team", "league"},
		MaxPages: 60, Admission: "best-first", LinkScope: "prose", RelevanceThreshold: 0.1, Weighted: true,
		UserAgent: "topicrank-test/0.1 (ops@example.org)", Epsilons: []float64{0.01}, Beta: 0.85, MaxRPS: 1000, Concurrency: 4}
	rep, err := EvaluateNights(context.Background(), r, job, []string{"bfs", "learned"}, "", 3, Truth{}, t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Harvests) != 4 {
		t.Fatalf("%d harvests, want bfs once and learned three nights", len(rep.Harvests))
	}
	for n := 2; n <= 3; n++ {
		a, _ := rep.night("learned", n-1)
		b, _ := rep.night("learned", n)
		if b.Relevant < a.Relevant {
			t.Errorf("night %d: %d relevant pages, the night before %d", n, b.Relevant, a.Relevant)
		}
	}
	var out bytes.Buffer
	if err := rep.PrintNights(&out); err != nil || !strings.Contains(out.String(), "night 3") {
		t.Errorf("table: %v\n%s", err, out.String())
	}
	dir := Dir(t.TempDir(), rep.Job, rep.RunID)
	if _, err := rep.Save(dir); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var nights, bfsNight int
	if err := db.QueryRow(`SELECT count(*) FILTER (WHERE strategy = 'learned'), max(night) FILTER (WHERE strategy = 'bfs') FROM read_parquet(?)`,
		filepath.Join(dir, "harvest.parquet")).Scan(&nights, &bfsNight); err != nil || nights != 3 || bfsNight != 1 {
		t.Errorf("harvest.parquet: %d learned nights, bfs night %d (%v)", nights, bfsNight, err)
	}
	if svg, err := os.ReadFile(filepath.Join(dir, "harvest.svg")); err != nil || !bytes.Contains(svg, []byte("night")) {
		t.Errorf("harvest.svg: %v", err)
	}
}

// An evaluation that fetched nothing is an error, not a table of zeros.
func TestEvaluateNothingCrawled(t *testing.T) {
	srv := httptest.NewServer(nil)
	base := srv.URL
	srv.Close() // nothing listens there now
	r := pipeline.NewRunner(t.TempDir(), slog.New(slog.DiscardHandler))
	r.BaseURL = base
	job := pipeline.Job{Name: "demo", Seeds: []string{"/wiki/Seattle"}, Topics: []string{"seattle"}, MaxPages: 10,
		Admission: "best-first", LinkScope: "prose", RelevanceThreshold: 0.1, Weighted: true,
		UserAgent: "topicrank-test/0.1 (ops@example.org)", Epsilons: []float64{0.01}, Beta: 0.85, MaxRPS: 1000, Concurrency: 2}
	if _, err := Evaluate(context.Background(), r, job, []string{"bfs", "similarity"}, "", Truth{}, slog.New(slog.DiscardHandler)); err == nil ||
		!strings.Contains(err.Error(), "no crawl fetched a page") {
		t.Errorf("Evaluate with nothing reachable: %v", err)
	}
}

// heldOutJobs are docs/learned.md's second held-out eight, never used to
// choose a setting of memory.
const heldOutJobs = `defaults:
  user_agent: "topicrank-test/0.1 (https://example.org; ops@example.org)"
  max_pages: 250
  admission: best-first
  strategy: learned
  relevance_threshold: 0.1
  politeness: {max_rps: 1000, concurrency: 8}
jobs:
  - {name: us-military, seeds: [/wiki/United_States], topics: [military, army, war]}
  - {name: seattle-grunge, seeds: [/wiki/Seattle], topics: [grunge, band, rock]}
  - {name: google-ads, seeds: [/wiki/Google], topics: [advertising, advertisement, ads]}
  - {name: obama-campaign, seeds: [/wiki/Barack_Obama], topics: [election, campaign]}
  - {name: microsoft-windows, seeds: [/wiki/Microsoft], topics: [windows, operating, software]}
  - {name: nyc-baseball, seeds: [/wiki/New_York_City], topics: [baseball, yankees, mets]}
  - {name: trump-realestate, seeds: [/wiki/Donald_Trump], topics: [real estate, hotel, casino]}
  - {name: washington-universities, seeds: [/wiki/Washington_(state)], topics: [university, college]}
`

// Four nights of the held-out topics on the closed-world corpus: the
// mean of night 2 is at least 55% of the way from bfs to the oracle, that
// of night 4 at least 75%, and no night of any topic is below bfs.
func TestNightsHeldOutOnClosedMirror(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls 8 topics for 4 nights")
	}
	if raceBuild {
		t.Skip("measures crawls, not concurrency: .ci/run runs it without the race detector")
	}
	base := wikitest.Mirror(t, "-closed")
	cfg, err := pipeline.ParseConfig("jobs.yaml", []byte(heldOutJobs))
	if err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(wikitest.Shared(t), "data", "wikipedia-2018", "uw-cse373-en-wikipedia-2018.tar.zst")
	log := slog.New(slog.DiscardHandler)
	r := pipeline.NewRunner(t.TempDir(), log)
	r.BaseURL = base
	var bfs, oracle float64
	nights := make([]float64, 4)
	for _, job := range cfg.Jobs {
		truth, err := LoadOracle(corpus, job, nil)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := EvaluateNights(context.Background(), r, job, []string{"bfs", "learned", Oracle}, "", 4, Truth{Oracle: truth}, t.TempDir(), log)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := rep.night("bfs", 1)
		o, _ := rep.night(Oracle, 1)
		bfs, oracle = bfs+b.Rate(), oracle+o.Rate()
		for n := range nights {
			h, _ := rep.night("learned", n+1)
			nights[n] += h.Rate()
			if h.Rate() < b.Rate() {
				t.Errorf("%s night %d: %.3f, below bfs's %.3f", job.Name, n+1, h.Rate(), b.Rate())
			}
		}
	}
	way := func(n int) float64 { return (nights[n] - bfs) / (oracle - bfs) }
	t.Logf("of the way from bfs to the oracle: %.0f%% %.0f%% %.0f%% %.0f%%", 100*way(0), 100*way(1), 100*way(2), 100*way(3))
	if way(1) < 0.55 || way(3) < 0.75 {
		t.Errorf("night 2 is %.0f%% of the way, night 4 %.0f%%: want at least 55%% and 75%%", 100*way(1), 100*way(3))
	}
}

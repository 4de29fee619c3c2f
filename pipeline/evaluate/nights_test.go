//go:build cgo

package evaluate

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"math"
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
// is crawled once, and the table, each night's churn (printed and in
// harvest.parquet, null on a first night), the Parquet rows by night
// and the chart come out.
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
	for i, h := range rep.Harvests {
		c := h.Churn
		if (c != nil) != (h.Night > 1) {
			t.Fatalf("%s night %d: churn %v, want one on nights after the first", h.Strategy, h.Night, c)
		}
		if c == nil {
			continue
		}
		before := rep.Harvests[i-1].Pages
		if c.Kept+c.Entered != h.Pages || c.Kept+c.Left != before ||
			math.Abs(c.Jaccard-float64(c.Kept)/float64(c.Kept+c.Entered+c.Left)) > 1e-12 {
			t.Errorf("night %d: churn %+v of %d vertices after %d", h.Night, *c, h.Pages, before)
		}
		row := fmt.Sprintf("%s %d %d %d %d %.3f", h.Strategy, h.Night, c.Kept, c.Entered, c.Left, c.Jaccard)
		if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), row) {
			t.Errorf("the table lacks the churn row %q:\n%s", row, out.String())
		}
	}
	dir, db := saved(t, rep)
	var jaccard sql.NullFloat64
	for _, h := range rep.Harvests {
		err := db.QueryRow(`SELECT jaccard FROM read_parquet(?) WHERE strategy = ? AND night = ?`,
			filepath.Join(dir, "harvest.parquet"), h.Strategy, h.Night).Scan(&jaccard)
		if c := h.Churn; err != nil || jaccard.Valid != (c != nil) || (c != nil && math.Abs(jaccard.Float64-c.Jaccard) > 1e-12) {
			t.Errorf("harvest.parquet, %s night %d: jaccard %v (%v), want %v", h.Strategy, h.Night, jaccard, err, c)
		}
	}
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

// Four nights of the six assessed topics on the closed-world corpus,
// judged by people's labels (../shared/data/assessments), closed world,
// 250 pages, learned, best-first, nothing edited between nights: the
// published relevant agrees with people (macro F1 at least 0.75 over the
// nights, 0.72 on each, no topic below 0.5), the graph holds still (consecutive nights'
// Jaccard at least 0.85 on the mean, 0.7 for every topic), nights do not
// get worse (each night's mean harvest no lower than the night before's
// − 0.005) and the last night of every topic harvests at least bfs's.
// The figures are docs/relevance.md's.
func TestNightsByPeopleOnClosedMirror(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls 6 topics for 4 nights")
	}
	if raceBuild {
		t.Skip("measures crawls, not concurrency: .ci/run runs it without the race detector")
	}
	base := wikitest.Mirror(t, "-closed")
	cfg, err := pipeline.LoadConfig(filepath.Join("..", "..", "docs", "relevance", "assessed-topics.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	labels := filepath.Join(wikitest.Shared(t), "data", "assessments", "dev-labels.tsv")
	log := slog.New(slog.DiscardHandler)
	r := pipeline.NewRunner(t.TempDir(), log)
	r.BaseURL = base
	const nights = 4
	var reps []*Report
	for _, job := range cfg.Jobs {
		l, err := ReadLabels(labels, job.Name)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := EvaluateNights(context.Background(), r, job, []string{"bfs", "learned", Oracle}, "", nights, Truth{Labels: l}, t.TempDir(), log)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		rep.PrintPeople(&out)
		t.Logf("%s%s", job.Name, out.String())
		reps = append(reps, rep)
		var bfs float64
		for i, h := range rep.Harvests {
			p, c := rep.People[i], h.Churn
			if h.Strategy == "bfs" {
				bfs = p.Harvest() // bfs comes first
			}
			if h.Strategy != "learned" {
				continue
			}
			if p.F1() < 0.5 {
				t.Errorf("%s night %d: F1 %.3f against people, below 0.5", job.Name, h.Night, p.F1())
			}
			if h.Night > 1 && c.Jaccard < 0.7 {
				t.Errorf("%s night %d: Jaccard %.3f with the night before, below 0.7", job.Name, h.Night, c.Jaccard)
			}
			if h.Night == nights && p.Harvest() < bfs {
				t.Errorf("%s night %d: harvest %.3f, below bfs's %.3f", job.Name, h.Night, p.Harvest(), bfs)
			}
		}
	}
	s, err := Summarize("learned", reps)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s.Print(&out)
	t.Log(out.String())
	meanF1 := 0.0
	for i := range nights {
		meanF1 += s.F1[i] / nights
		if s.F1[i] < 0.72 {
			t.Errorf("night %d: macro F1 %.3f against people, want at least 0.72", i+1, s.F1[i])
		}
		if i > 0 && s.Harvest[i] < s.Harvest[i-1]-0.005 {
			t.Errorf("night %d harvests %.3f, night %d %.3f", i+1, s.Harvest[i], i, s.Harvest[i-1])
		}
	}
	if meanF1 < 0.75 {
		t.Errorf("macro F1 %.3f against people over the nights, want at least 0.75", meanF1)
	}
	if s.Jaccard < 0.85 {
		t.Errorf("consecutive nights' Jaccard %.3f on the mean, want at least 0.85", s.Jaccard)
	}
	if way := (s.Harvest[nights-1] - s.BFS) / (s.Oracle - s.BFS); way < 0.85 {
		t.Errorf("night %d harvests %.3f, %.0f%% of the way from bfs (%.3f) to the oracle (%.3f); want at least 85%%",
			nights, s.Harvest[nights-1], 100*way, s.BFS, s.Oracle)
	}
}

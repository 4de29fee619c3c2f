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
	rep, err := EvaluateNights(context.Background(), r, job, []string{"bfs", "learned"}, "", 3, nil, t.TempDir(), slog.New(slog.DiscardHandler))
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
	if _, err := Evaluate(context.Background(), r, job, []string{"bfs", "similarity"}, "", nil, slog.New(slog.DiscardHandler)); err == nil ||
		!strings.Contains(err.Error(), "no crawl fetched a page") {
		t.Errorf("Evaluate with nothing reachable: %v", err)
	}
}

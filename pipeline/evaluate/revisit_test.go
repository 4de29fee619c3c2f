//go:build cgo

package evaluate

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/revisit"
)

// runner evaluate -revisit's path: nights recorded by revisit: all runs
// on the dynamic mirror are replayed, a budgeted run among them is
// skipped, and the table, revisit.parquet (read back with DuckDB) and the
// chart are written.
func TestEvaluateRevisitOnRecordedNights(t *testing.T) {
	base := wikitest.Mirror(t, "-dynamic", "-closed")
	cfg, err := pipeline.ParseConfig("jobs.yaml", []byte(`defaults:
  user_agent: "topicrank-test/0.1 (ops@example.org)"
  max_pages: 120
  politeness: {max_rps: 1000, concurrency: 8}
jobs:
  - {name: dyn, seeds: [/wiki/Seattle], topics: [seattle]}
`))
	if err != nil {
		t.Fatal(err)
	}
	r := pipeline.NewRunner(t.TempDir(), slog.New(slog.DiscardHandler))
	r.BaseURL = base
	clock := time.Date(2026, 11, 21, 2, 0, 0, 0, time.UTC)
	r.Now = func() time.Time { clock = clock.Add(24 * time.Hour); return clock }
	job := cfg.Jobs[0]
	for n := 1; n <= 5; n++ {
		resp, err := http.Get(fmt.Sprintf("%s/_mirror/epoch?set=%d", base, n))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		j := job
		if n == 4 { // a budgeted night: not a night's whole truth
			j.Revisit, j.MaxRequests = "dynamicity", 40
		}
		if _, err := r.Run(context.Background(), j); err != nil {
			t.Fatal(err)
		}
	}
	policies := []revisit.Policy{revisit.Oldest, revisit.Dynamicity, revisit.Freshness}
	rep, err := EvaluateRevisit(r.OutDir, job, policies, 0.25, revisit.DefaultNewShare)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 4 || len(rep.Skipped) != 1 || len(rep.Scores) != 3 || len(rep.Scores[0].Nights) != 3 {
		t.Fatalf("runs %v, skipped %v, %d scores", rep.Runs, rep.Skipped, len(rep.Scores))
	}
	for _, s := range rep.Scores {
		if m := s.Mean; m.Fetched != 30 || !(m.Freshness > 0.5 && m.Freshness <= 1) {
			t.Errorf("%s: mean %+v: want 30 pages a night (a quarter of 120)", s.Policy, m)
		}
	}
	var out bytes.Buffer
	if err := rep.Print(&out); err != nil || !strings.Contains(out.String(), "dynamicity") {
		t.Errorf("table: %v\n%s", err, out.String())
	}
	dir := RevisitDir(r.OutDir, job.Name, rep.RunID)
	if err := rep.Save(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"revisit.png", "revisit.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", f, err)
		}
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows, policiesSeen int
	if err := db.QueryRow(fmt.Sprintf(`SELECT count(*), count(DISTINCT policy) FROM read_parquet('%s')`,
		filepath.Join(dir, "revisit.parquet"))).Scan(&rows, &policiesSeen); err != nil || rows != 3*4 || policiesSeen != 3 {
		t.Errorf("revisit.parquet: %d rows, %d policies (%v); want 12 (3 nights and the mean, per policy) and 3", rows, policiesSeen, err)
	}
	if _, err := EvaluateRevisit(r.OutDir, job, policies, 0, 0.1); err == nil {
		t.Error("a budget of 0 was accepted")
	}
}

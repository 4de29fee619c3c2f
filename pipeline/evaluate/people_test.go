//go:build cgo

package evaluate

import (
	"context"
	"database/sql"
	"log/slog"
	"math"
	"path/filepath"
	"testing"

	_ "github.com/marcboeker/go-duckdb" // real DuckDB, for tests only
)

// An evaluation judged by people's labels saves what it prints of them
// in people.parquet, a row per crawl, read back by DuckDB: the counts,
// harvest, precision, recall and F1, and the churn, null on a first night.
func TestPeopleParquet(t *testing.T) {
	r, job, labels := labelledWiki(t)
	rep, err := EvaluateNights(context.Background(), r, job, []string{"bfs", "learned"}, "", 2, Truth{Labels: labels}, t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	dir, db := saved(t, rep)
	var rows int
	if err := db.QueryRow(`SELECT count(*) FROM read_parquet(?)`, filepath.Join(dir, "people.parquet")).Scan(&rows); err != nil || rows != len(rep.Harvests) {
		t.Fatalf("people.parquet: %d rows (%v), want %d", rows, err, len(rep.Harvests))
	}
	for i, h := range rep.Harvests {
		p, c := rep.People[i], h.Churn
		var labelled, relevant, fp int
		var harvest, f1 float64
		var judge bool
		var jaccard sql.NullFloat64
		err := db.QueryRow(`SELECT labelled, relevant, false_positives, harvest, f1, label_judge, jaccard
			FROM read_parquet(?) WHERE strategy = ? AND night = ?`, filepath.Join(dir, "people.parquet"), h.Strategy, h.Night).
			Scan(&labelled, &relevant, &fp, &harvest, &f1, &judge, &jaccard)
		if err != nil || labelled != p.Labelled || relevant != p.Relevant || fp != p.FP ||
			math.Abs(harvest-p.Harvest()) > 1e-12 || math.Abs(f1-p.F1()) > 1e-12 || judge {
			t.Errorf("%s night %d: %d %d %d %v %v %v (%v), want %+v", h.Strategy, h.Night, labelled, relevant, fp, harvest, f1, judge, err, p)
		}
		if (c != nil) != (h.Night > 1) || jaccard.Valid != (c != nil) || (c != nil && math.Abs(jaccard.Float64-c.Jaccard) > 1e-12) {
			t.Errorf("%s night %d: jaccard %v, want %v on nights after the first", h.Strategy, h.Night, jaccard, c)
		}
	}
}

// saved saves rep and returns its folder and a DuckDB to read it with,
// closed when the test ends.
func saved(t *testing.T, rep *Report) (string, *sql.DB) {
	t.Helper()
	dir := Dir(t.TempDir(), rep.Job, rep.RunID)
	if _, err := rep.Save(dir); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return dir, db
}

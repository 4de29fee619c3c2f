//go:build cgo

package pipeline

import (
	"context"
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/graph/parquetin"
	"github.com/topicrank/topicrank/stages/rank"
)

// TestPageRankSQLRecipe runs docs/pagerank-sql.md's recipe as written on
// a crawl's published tables: its top 100 are our ranks' top 100, to 1e-6.
func TestPageRankSQLRecipe(t *testing.T) {
	b, err := os.ReadFile("../docs/pagerank-sql.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(b), "-- recipe: pagerank\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/pagerank-sql.md has no `-- recipe: pagerank` block")
	}
	w := wikitest.New(t, 600)
	r := testRunner(t, w.URL())
	job := testJob("sqlrank", 300)
	m, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(r.OutDir, job.Name, m.RunID)
	g, _, err := parquetin.Read(context.Background(), filepath.Join(run, "edges.parquet"), filepath.Join(run, "degrees.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	want := rank.PageRank(g, 0.85, []float64{1e-12})[0].Ranks

	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // temp tables are per connection
	stmts := strings.Split(strings.ReplaceAll(block, "RUN", run), ";")
	for _, s := range stmts[:len(stmts)-2] {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%v\n%s", err, s)
		}
	}
	rows, err := db.Query(stmts[len(stmts)-2])
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var page string
		var got float64
		if err := rows.Scan(&page, &got); err != nil {
			t.Fatal(err)
		}
		v := uint32(0)
		for i, name := range g.Names() {
			if name == page {
				v = uint32(i)
			}
		}
		if math.Abs(got-want[v]) > 1e-6 {
			t.Errorf("%s: SQL rank %v, ours %v", page, got, want[v])
		}
		n++
	}
	if n != 100 {
		t.Errorf("%d rows, want the top 100", n)
	}
	// The same top 100, by position (ties by vertex order, as ours).
	order := rank.Order(want)
	rows2, _ := db.Query(stmts[len(stmts)-2])
	defer rows2.Close()
	for i := 0; rows2.Next(); i++ {
		var page string
		var got float64
		rows2.Scan(&page, &got)
		if page != g.Name(order[i]) && math.Abs(want[order[i]]-got) > 1e-9 {
			t.Errorf("position %d: SQL %s, ours %s", i+1, page, g.Name(order[i]))
		}
	}
}

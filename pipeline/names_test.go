//go:build cgo

package pipeline

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// Links whose titles are not valid UTF-8, or hold NUL, control or
// bidi-override characters, are published with their percent-encoding:
// the run is complete and DuckDB reads every table and graph.txt.
func TestHostileNamesReadBackWithDuckDB(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>T\xff\x00</title><div id="mw-content-text"><div class="mw-parser-output"><p>
			<a href="/wiki/%FF%FE">bad bytes</a> <a href="/wiki/A%00B">nul</a> <a href="/wiki/Evil%E2%80%AEgnp.exe">bidi</a>
			<a href="/wiki/Line%0ABreak">newline</a> tennis</p></div></div>`)
	}))
	defer srv.Close()
	r := testRunner(t, srv.URL)
	job := testJob("hostile", 5)
	job.Seeds = []string{"/wiki/Seed"}
	m, err := r.Run(context.Background(), job)
	if err != nil || m.Status != StatusComplete {
		t.Fatalf("run: %v %+v", err, m)
	}
	dir := filepath.Join(r.OutDir, "hostile", m.RunID)
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pages := query(t, db, fmt.Sprintf(`SELECT page FROM read_parquet('%s') ORDER BY vertex_id`, filepath.Join(dir, "pages.parquet")))
	want := []string{"/wiki/Seed", "/wiki/%FF%FE", "/wiki/A%00B", "/wiki/Evil%E2%80%AEgnp.exe", "/wiki/Line_Break"}
	if !slices.Equal(pages, want) {
		t.Errorf("pages = %q, want %q", pages, want)
	}
	// Every string column of every table, and graph.txt, reads as text.
	for _, f := range []string{"pages.parquet", "edges.parquet", "degrees.parquet", "changes.parquet", "ranks/0.01.parquet"} {
		for _, row := range query(t, db, fmt.Sprintf(`SELECT * FROM read_parquet('%s')`, filepath.Join(dir, f))) {
			if !utf8.ValidString(row) || strings.ContainsAny(row, "\x00\u202e") {
				t.Errorf("%s: row %q", f, row)
			}
		}
	}
	lines := query(t, db, fmt.Sprintf(`SELECT * FROM read_csv('%s', header = false, delim = ' ', columns = {'u': 'VARCHAR', 'v': 'VARCHAR'}, skip = 1)`,
		filepath.Join(dir, "graph.txt")))
	if len(lines) != 16 { // every page links to the four others
		t.Errorf("graph.txt: %d edges read, want 16: %q", len(lines), lines)
	}
}

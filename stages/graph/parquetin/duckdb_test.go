//go:build cgo

package parquetin

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/marcboeker/go-duckdb" // real DuckDB, for tests only

	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
)

// What DuckDB exports reads as our own tables do: a text pair, integer
// ids with a vertices table, ids alone (named by their digits); nulls and
// wrong types are refused with the file and row named.
func TestReadDuckDBExports(t *testing.T) {
	g, dir := sample(t)
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	edges := filepath.Join(dir, "edges.parquet")
	copyTo := func(name, query string) string {
		path := filepath.Join(dir, name)
		if _, err := db.Exec(fmt.Sprintf("COPY (%s) TO '%s' (FORMAT parquet)", query, path)); err != nil {
			t.Fatal(err)
		}
		return path
	}
	pair := copyTo("pair.parquet", fmt.Sprintf("SELECT src, dst FROM read_parquet('%s')", edges))
	got, _, err := Read(context.Background(), pair, filepath.Join(dir, "degrees.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, got, g)
	ids := copyTo("ids.parquet", fmt.Sprintf("SELECT src_id::BIGINT AS src_id, dst_id::BIGINT AS dst_id FROM read_parquet('%s')", edges))
	verts := copyTo("verts.parquet", fmt.Sprintf("SELECT vertex_id AS id, page AS name FROM read_parquet('%s') ORDER BY vertex_id", filepath.Join(dir, "degrees.parquet")))
	if got, _, err = Read(context.Background(), ids, verts); err != nil {
		t.Fatal(err)
	}
	sameGraph(t, got, g)
	if got, _, err = Read(context.Background(), ids, ""); err != nil || got.NumEdges() != g.NumEdges() || got.Name(0) != "0" {
		t.Errorf("ids alone: %v, first vertex %q", err, got.Name(0))
	}
	// rank -out -edge-list gzip's graph.txt.gz and -edge-list zstd's
	// graph.txt.zst, as DuckDB's read_csv reads them.
	for name, mode := range map[string]publish.EdgeListMode{"graph.txt.gz": publish.EdgeListGzip, "graph.txt.zst": publish.EdgeListZstd} {
		out := t.TempDir()
		if _, err := publish.Write(out, &publish.Input{Job: "rank", RunID: "r", Graph: g, Ranks: rank.PageRank(g, 0.85, []float64{1e-9}), EdgeList: mode}); err != nil {
			t.Fatal(err)
		}
		var lines int
		var first string
		if err := db.QueryRow(fmt.Sprintf(`SELECT count(*), min(src) FROM read_csv('%s', skip = 1, delim = ' ', header = false, columns = {'src': 'VARCHAR', 'dst': 'VARCHAR'})`,
			filepath.Join(out, name))).Scan(&lines, &first); err != nil || lines != g.NumEdges() || first != "/wiki/A" {
			t.Errorf("DuckDB read %d lines of %s, first source %q (%v), want %d", lines, name, first, err, g.NumEdges())
		}
	}
	for _, c := range []struct{ name, query, want string }{
		{"null.parquet", "SELECT * FROM (VALUES ('/wiki/A', '/wiki/B'), (NULL, '/wiki/C')) t(src, dst)", "row 2: a null src"},
		{"double.parquet", "SELECT 1.5::DOUBLE AS src, 2.5::DOUBLE AS dst", "want text names or integer ids"},
		{"missing.parquet", "SELECT 1 AS x", "no edges"},
	} {
		_, _, err := Read(context.Background(), copyTo(c.name, c.query), "")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: %v, want %q and the file named", c.name, err, c.want)
		}
	}
}

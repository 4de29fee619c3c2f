//go:build cgo

package parquetin

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/marcboeker/go-duckdb" // real DuckDB, for tests only

	"github.com/topicrank/topicrank/stages/graph"
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

// A table DuckDB writes in many row groups, dictionary pages in some and
// plain ones in others (as it does once a dictionary grows too large),
// reads as the same pairs written as an edge list do, whole or as a glob
// of parts; a vertices table with ids too large for a slice still names
// them.
func TestReadDuckDBLargeExport(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dir := t.TempDir()
	pairs := `SELECT src, dst FROM (SELECT i, CASE WHEN i < 60000 THEN '/wiki/Hub_' || (i % 50) ELSE '/wiki/Page_' || i END AS src,
		'/wiki/Page_' || ((i * 7919) % 90000) AS dst FROM range(120000) t(i)) WHERE src != dst ORDER BY i`
	for _, q := range []string{
		fmt.Sprintf("COPY (%s) TO '%s/all.parquet' (FORMAT parquet, ROW_GROUP_SIZE 20000)", pairs, dir),
		fmt.Sprintf("COPY (SELECT * FROM (%s) LIMIT 70000) TO '%s/part1.parquet' (FORMAT parquet)", pairs, dir),
		fmt.Sprintf("COPY (SELECT * FROM (%s) OFFSET 70000) TO '%s/part2.parquet' (FORMAT parquet)", pairs, dir),
		fmt.Sprintf("COPY (%s) TO '%s/all.txt' (HEADER false, DELIMITER ' ')", pairs, dir),
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(filepath.Join(dir, "all.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, _, err := graph.ReadEdgeList(f, graph.ReadOptions{NoHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, glob := range []string{"all.parquet", "part*.parquet"} {
		got, _, err := Read(context.Background(), filepath.Join(dir, glob), "")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Names(), want.Names()) || got.NumEdges() != want.NumEdges() {
			t.Fatalf("%s: %d vertices and %d edges, or other names, than the edge list's %d and %d", glob,
				got.NumVertices(), got.NumEdges(), want.NumVertices(), want.NumEdges())
		}
		sameGraph(t, got, want)
	}
	// Sparse ids: a vertices table whose ids are far apart.
	for _, q := range []string{
		fmt.Sprintf("COPY (SELECT row_number() OVER () * 1000000007 AS id, name FROM (SELECT DISTINCT src AS name FROM read_parquet('%[1]s/all.parquet') UNION SELECT dst FROM read_parquet('%[1]s/all.parquet')) ORDER BY name) TO '%[1]s/verts.parquet' (FORMAT parquet)", dir),
		fmt.Sprintf("COPY (SELECT s.id AS src_id, d.id AS dst_id FROM read_parquet('%[1]s/all.parquet') e JOIN read_parquet('%[1]s/verts.parquet') s ON s.name = e.src JOIN read_parquet('%[1]s/verts.parquet') d ON d.name = e.dst) TO '%[1]s/ids.parquet' (FORMAT parquet)", dir),
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := Read(context.Background(), filepath.Join(dir, "ids.parquet"), filepath.Join(dir, "verts.parquet"))
	if err != nil || got.NumEdges() != want.NumEdges() || got.NumVertices() != want.NumVertices() {
		t.Errorf("sparse ids: %v; %d vertices and %d edges, want %d and %d", err, got.NumVertices(), got.NumEdges(), want.NumVertices(), want.NumEdges())
	}
}

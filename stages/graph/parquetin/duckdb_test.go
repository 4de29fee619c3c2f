//go:build cgo

package parquetin

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/marcboeker/go-duckdb" // real DuckDB, for tests only
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
	// rank -out -edge-list gzip's graph.txt.gz, as DuckDB's read_csv reads it.
	var lines int
	if err := db.QueryRow(fmt.Sprintf(`SELECT count(*) FROM read_csv('%s', skip = 1, delim = ' ', header = false, columns = {'src': 'VARCHAR', 'dst': 'VARCHAR'})`,
		gzipped(t, filepath.Join(dir, "graph.txt")))).Scan(&lines); err != nil || lines != g.NumEdges() {
		t.Errorf("DuckDB read %d lines of graph.txt.gz (%v), want %d", lines, err, g.NumEdges())
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

// gzipped writes path's bytes gzip-compressed beside it, as rank -out
// -edge-list gzip does, and returns the new file.
func gzipped(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	if err := os.WriteFile(path+".gz", buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path + ".gz"
}

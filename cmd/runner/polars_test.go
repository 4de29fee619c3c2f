//go:build cgo

package main

import (
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/internal/duckdbtest"
	"github.com/topicrank/topicrank/pipeline"
)

// polarsRows prints a Parquet file as Polars (nodejs-polars, the Rust
// engine's Node binding) reads it: its columns with their types, then
// each row as a JSON array.
const polarsRows = `
const pl = require("nodejs-polars");
const df = pl.readParquet(process.argv[1]);
console.log(JSON.stringify(df.columns.map((c, i) => c + " " + String(df.dtypes[i]))));
for (const r of df.rows()) console.log(JSON.stringify(r));
`

// Polars reads the demo's categories.parquet as DuckDB does: the same
// columns, with the types the docs give, and the same rows in the same
// order. It runs where TOPICRANK_POLARS names a node_modules folder
// holding nodejs-polars (.ci/run installs it from npm) and node runs.
func TestPolarsReadsCategoriesAsDuckDB(t *testing.T) {
	modules := os.Getenv("TOPICRANK_POLARS")
	node, err := exec.LookPath("node")
	if modules == "" || err != nil {
		t.Skip("no Polars: set TOPICRANK_POLARS to a node_modules folder holding nodejs-polars (and put node on PATH)")
	}
	out := filepath.Join(t.TempDir(), "outputs")
	if code, stdout, stderr := runner(t, "demo", "-out", out); code != 0 {
		t.Fatalf("demo: exit %d\n%s\n%s", code, stdout, stderr)
	}
	runs, err := pipeline.CompleteRuns(out, "demo")
	if err != nil || len(runs) != 2 {
		t.Fatalf("demo published %v (%v)", runs, err)
	}
	file := filepath.Join(out, "demo", runs[1], "categories.parquet")
	cmd := exec.Command(node, "-e", polarsRows, file)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("Polars: %v\n%s", err, b)
	}
	polars := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := `["job DataType(String)","run_id DataType(String)","page DataType(String)","vertex_id DataType(Int32)",` +
		`"category DataType(String)","hidden DataType(Bool)","sort_key DataType(String)"]`
	if polars[0] != want {
		t.Errorf("Polars' columns:\n got %s\nwant %s", polars[0], want)
	}

	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var duck []string
	for _, vals := range duckdbtest.Rows(t, db, `SELECT * FROM read_parquet(?)`, file) {
		line, err := json.Marshal(vals)
		if err != nil {
			t.Fatal(err)
		}
		duck = append(duck, string(line))
	}
	if len(duck) < 1000 || !slices.Equal(polars[1:], duck) {
		n := min(len(duck), len(polars)-1, 3)
		t.Errorf("Polars read %d rows, DuckDB %d; the first:\n%q\n%q", len(polars)-1, len(duck), polars[1:1+n], duck[:n])
	}
}

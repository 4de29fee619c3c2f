//go:build cgo

package parquet

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/marcboeker/go-duckdb" // real DuckDB, a second reader

	"github.com/topicrank/topicrank/internal/duckdbtest"
)

// DuckDB reads random tables of every column kind: its types, every value
// and null, and the statistics it reads from the footer.
func TestRoundTripDuckDB(t *testing.T) {
	defer func(n int) { pageBytes = n }(pageBytes)
	pageBytes = 500
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 8 {
		path := filepath.Join(t.TempDir(), "t.parquet")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := writeRandom(t, f, r, 1500)
		f.Close()

		var types []string
		for _, row := range queryRows(t, db, fmt.Sprintf("SELECT column_type FROM (DESCRIBE SELECT * FROM '%s')", path)) {
			types = append(types, row[0].(string))
		}
		if want := "INTEGER INTEGER BIGINT DOUBLE BOOLEAN BOOLEAN VARCHAR VARCHAR TIMESTAMP WITH TIME ZONE VARCHAR VARCHAR DOUBLE VARCHAR"; strings.Join(types, " ") != want {
			t.Fatalf("trial %d: types %q, want %q", trial, types, want)
		}
		got := make(table, len(testColumns))
		for _, row := range queryRows(t, db, fmt.Sprintf("SELECT * FROM '%s'", path)) {
			for c, v := range row {
				if ts, ok := v.(time.Time); ok {
					v = ts.UnixMicro()
				}
				got[c] = append(got[c], v)
			}
		}
		compareTables(t, fmt.Sprintf("trial %d", trial), got, want)

		// The statistics DuckDB decodes: i32's bounds over the file.
		if len(want[0]) > 0 {
			lo, hi, _ := expectedStats(want[0])
			stats := queryRows(t, db, fmt.Sprintf("SELECT min(stats_min_value::INTEGER), max(stats_max_value::INTEGER) FROM parquet_metadata('%s') WHERE path_in_schema = 'i32'", path))
			if stats[0][0] != lo || stats[0][1] != hi {
				t.Errorf("trial %d: DuckDB reads i32 bounds %v, want %v %v", trial, stats[0], lo, hi)
			}
		}
		for col, want := range map[string]string{"given": "PLAIN, RLE, RLE_DICTIONARY", "indexed": "PLAIN, RLE", "sdn": "PLAIN, RLE, RLE_DICTIONARY", "s": "PLAIN, RLE", "rep": "PLAIN, RLE, RLE_DICTIONARY"} {
			got := queryRows(t, db, fmt.Sprintf("SELECT DISTINCT encodings FROM parquet_metadata('%s') WHERE path_in_schema = '%s'", path, col))
			if len(got) > 1 || len(got) == 1 && got[0][0] != want { // no rows: no row group
				t.Errorf("trial %d: column %s encodings %v, want %s", trial, col, got, want)
			}
		}
		kv := queryRows(t, db, fmt.Sprintf("SELECT decode(value) FROM parquet_kv_metadata('%s') WHERE decode(key) = 'topicrank.version'", path))
		if len(kv) != 1 || kv[0][0] != "test" {
			t.Errorf("trial %d: key-value metadata %v", trial, kv)
		}
	}
}

func queryRows(t *testing.T, db *sql.DB, q string) [][]any {
	t.Helper()
	return duckdbtest.Rows(t, db, q)
}

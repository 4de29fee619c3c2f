package publish

import (
	"io"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// A table is written a row group at a time: full groups of rowGroupRows,
// then the rest; an empty table is still a readable file, of no row
// groups.
func TestTableRowGroups(t *testing.T) {
	in := &Input{Job: "j", RunID: "r"}
	for _, tc := range []struct {
		rows   int
		groups []int64
	}{
		{rowGroupRows + 3, []int64{rowGroupRows, 3}},
		{0, nil},
	} {
		spec := tableSpec{[]column{field("x", tInt32, false)}, func(t *table) {
			for i := range tc.rows {
				t.i32(2).Append(int32(i))
				t.endRow()
			}
		}}
		dir := t.TempDir()
		f, err := writeFile(dir, "t.parquet", func(w io.Writer) (int64, error) { return writeTable(w, in, spec) })
		if err != nil {
			t.Fatal(err)
		}
		r, err := file.OpenParquetFile(filepath.Join(dir, "t.parquet"), false)
		if err != nil {
			t.Fatal(err)
		}
		var groups []int64
		for i := range r.NumRowGroups() {
			rg := r.MetaData().RowGroup(i)
			groups = append(groups, rg.NumRows())
			for c := range 2 { // job and run_id: one value, in a dictionary
				cc, _ := rg.ColumnChunk(c)
				if !slices.Contains(cc.Encodings(), parquet.Encodings.RLEDict) {
					t.Errorf("column %d is written with %v, want a dictionary", c, cc.Encodings())
				}
			}
		}
		r.Close()
		if f.Rows != int64(tc.rows) || !slices.Equal(groups, tc.groups) {
			t.Errorf("%d rows: manifest says %d, row groups %v, want %v", tc.rows, f.Rows, groups, tc.groups)
		}
		var sum, last int64 = 0, -1
		err = readTable(filepath.Join(dir, "t.parquet"), func(r row) {
			x := int64(r.cols["x"].(*array.Int32).Value(r.i))
			if x != last+1 || r.mustStr("job") != "j" || r.mustStr("run_id") != "r" {
				t.Fatalf("row %d: x %d job %q run %q", last+1, x, r.mustStr("job"), r.mustStr("run_id"))
			}
			last = x
			sum++
		})
		if err != nil || sum != int64(tc.rows) {
			t.Errorf("read back %d rows (err %v), want %d", sum, err, tc.rows)
		}
	}
}

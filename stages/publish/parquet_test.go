package publish

import (
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/rank"
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
		{rowGroupRows + 3, []int64{int64(rowGroupRows), 3}},
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

// Edges, degrees and ranks written in row groups of a few rows, so that
// row groups end inside a vertex's out-edges and every row group has its
// own dictionary of names: read back, every row is the graph's.
func TestVertexTablesAcrossRowGroups(t *testing.T) {
	defer func(n int) { rowGroupRows = n }(rowGroupRows)
	rowGroupRows = 7
	r := rand.New(rand.NewPCG(7, 8))
	b := graph.NewBuilder()
	for i := range 40 {
		b.Vertex(fmt.Sprintf("/wiki/V%d", i))
	}
	for range 300 {
		b.AddEdge(uint32(r.IntN(40)), uint32(r.IntN(40)))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{Job: "j", RunID: "r", Graph: g, Ranks: rank.PageRank(g, 0.85, []float64{0.01})}
	dir := t.TempDir()
	if _, err := Write(dir, in); err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for u := range g.NumVertices() {
		for _, v := range g.Out(uint32(u)) {
			want = append(want, fmt.Sprint(g.Name(uint32(u)), g.Name(v), u, v))
		}
	}
	err = readTable(filepath.Join(dir, "edges.parquet"), func(r row) {
		got = append(got, fmt.Sprint(r.mustStr("src"), r.mustStr("dst"), r.int32("src_id"), r.int32("dst_id")))
	})
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("edges (err %v):\n got %q\nwant %q", err, got, want)
	}
	pf, err := file.OpenParquetFile(filepath.Join(dir, "edges.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	if n, want := pf.NumRowGroups(), (g.NumEdges()+6)/7; n != want {
		t.Errorf("%d edges in %d row groups, want %d", g.NumEdges(), n, want)
	}
	pf.Close()
	want, got = nil, nil
	for pos, v := range rank.Order(in.Ranks[0].Ranks) {
		want = append(want, fmt.Sprint(g.Name(v), v, pos+1, in.Ranks[0].Ranks[v], in.Ranks[0].Iterations))
	}
	err = readTable(filepath.Join(dir, RanksPath(0.01)), func(r row) {
		got = append(got, fmt.Sprint(r.mustStr("page"), r.int32("vertex_id"), r.int32("position"), r.float64("rank"), r.int32("iterations")))
	})
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ranks (err %v):\n got %q\nwant %q", err, got, want)
	}
	want, got = nil, nil
	for v := range g.NumVertices() {
		want = append(want, fmt.Sprint(g.Name(uint32(v)), v, g.InDegree(uint32(v)), g.OutDegree(uint32(v))))
	}
	err = readTable(filepath.Join(dir, "degrees.parquet"), func(r row) {
		got = append(got, fmt.Sprint(r.mustStr("page"), r.int32("vertex_id"), r.int32("in_degree"), r.int32("out_degree")))
	})
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("degrees (err %v):\n got %q\nwant %q", err, got, want)
	}
}

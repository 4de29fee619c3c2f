// Package parquetin reads a graph from Parquet edge tables: topicrank's
// own edges.parquet, or what DuckDB, Polars or Spark export, so a user can
// filter edges in SQL and rank the result (runner rank -graph x.parquet).
//
// An edges table gives its edges either as a text pair (columns src and
// dst, names such as /wiki/Title) or as integer ids (src_id and dst_id, or
// integer src and dst). Ids are named by a vertices table when one is
// given (columns vertex_id or id, and page or name: our pages and degrees
// tables are such tables), else by their decimal text. A text pair is
// preferred when a table has both, as our own edges tables do.
//
// Vertices are numbered as an edge-list file numbers them, by first
// mention, unless a vertices table is given: then the table's rows are the
// vertices, in its order, isolated ones included. An edges table alone
// cannot hold a vertex with no edges, so ranking a crawl's edges.parquet
// alone gives other ranks than the crawl's; with its degrees.parquet as the
// vertices table they are the same, bit for bit.
package parquetin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/topicrank/topicrank/stages/graph"
)

// IsParquet reports whether path names Parquet input: a .parquet file or
// a glob of them.
func IsParquet(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".parquet") }

// Read reads the edges of every file the glob pattern edges matches (in
// name order) and, if vertices is not "", the vertices table, and builds
// the graph. Self-loops and repeated edges are dropped and counted, as
// for an edge list.
func Read(ctx context.Context, edges, vertices string) (*graph.Graph, graph.ReadStats, error) {
	paths, err := filepath.Glob(edges)
	if err != nil {
		return nil, graph.ReadStats{}, fmt.Errorf("%s: %w", edges, err)
	}
	if len(paths) == 0 {
		return nil, graph.ReadStats{}, fmt.Errorf("%s: no such file", edges)
	}
	slices.Sort(paths)
	b := graph.NewBuilder()
	var names map[int64]uint32 // vertices table: id -> vertex
	if vertices != "" {
		if names, err = readVertices(ctx, vertices, b); err != nil {
			return nil, graph.ReadStats{}, err
		}
	}
	for _, p := range paths {
		if err := readEdges(ctx, p, b, names); err != nil {
			return nil, graph.ReadStats{}, err
		}
	}
	g, err := b.Build()
	return g, graph.ReadStats{Duplicates: b.Duplicates, SelfLoops: b.SelfLoops}, err
}

// table is one Parquet file being read column by column.
type table struct {
	path   string
	f      *os.File
	reader *pqarrow.FileReader
	schema *arrow.Schema
}

func open(path string) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	pf, err := file.NewParquetReader(f, file.WithReadProps(parquet.NewReaderProperties(memory.DefaultAllocator)))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: not a Parquet file: %w", path, err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	if err == nil {
		var s *arrow.Schema
		if s, err = fr.Schema(); err == nil {
			return &table{path: path, f: f, reader: fr, schema: s}, nil
		}
	}
	f.Close()
	return nil, fmt.Errorf("%s: %w", path, err)
}

func (t *table) close() { t.f.Close() }

// column returns the index of the first of names the table has, or -1.
func (t *table) column(names ...string) int {
	for _, n := range names {
		if i := t.schema.FieldIndices(n); len(i) > 0 {
			return i[0]
		}
	}
	return -1
}

func (t *table) columns() string {
	var s []string
	for _, f := range t.schema.Fields() {
		s = append(s, f.Name+" "+f.Type.String())
	}
	return strings.Join(s, ", ")
}

// rows calls f with each record batch of the given columns.
func (t *table) rows(ctx context.Context, cols []int, f func(arrow.RecordBatch) error) error {
	rr, err := t.reader.GetRecordReader(ctx, cols, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", t.path, err)
	}
	defer rr.Release()
	for {
		rec, err := rr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", t.path, err)
		}
		if err := f(rec); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// texts reads a text column (plain, large or dictionary-encoded) into
// strings; ok is false for another type.
func texts(a arrow.Array) (get func(i int) (string, bool), ok bool) {
	switch a := a.(type) {
	case *array.String:
		return func(i int) (string, bool) { return a.Value(i), a.IsValid(i) }, true
	case *array.LargeString:
		return func(i int) (string, bool) { return a.Value(i), a.IsValid(i) }, true
	case *array.StringView:
		return func(i int) (string, bool) { return a.Value(i), a.IsValid(i) }, true
	case *array.Dictionary:
		dict, ok := texts(a.Dictionary())
		if !ok {
			return nil, false
		}
		return func(i int) (string, bool) {
			if a.IsNull(i) {
				return "", false
			}
			return dict(a.GetValueIndex(i))
		}, true
	}
	return nil, false
}

// ints reads an integer column; ok is false for another type.
func ints(a arrow.Array) (get func(i int) (int64, bool), ok bool) {
	switch a := a.(type) {
	case *array.Int32:
		return func(i int) (int64, bool) { return int64(a.Value(i)), a.IsValid(i) }, true
	case *array.Int64:
		return func(i int) (int64, bool) { return a.Value(i), a.IsValid(i) }, true
	case *array.Uint32:
		return func(i int) (int64, bool) { return int64(a.Value(i)), a.IsValid(i) }, true
	case *array.Int16:
		return func(i int) (int64, bool) { return int64(a.Value(i)), a.IsValid(i) }, true
	}
	return nil, false
}

func isText(t arrow.DataType) bool {
	switch t := t.(type) {
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return true
	case *arrow.DictionaryType:
		return isText(t.ValueType)
	}
	return false
}

// readEdges adds the edges of one table to b.
func readEdges(ctx context.Context, path string, b *graph.Builder, names map[int64]uint32) error {
	t, err := open(path)
	if err != nil {
		return err
	}
	defer t.close()
	src, dst := t.column("src"), t.column("dst")
	byName := src >= 0 && dst >= 0 && isText(t.schema.Field(src).Type) && isText(t.schema.Field(dst).Type)
	if !byName {
		src, dst = t.column("src_id", "src"), t.column("dst_id", "dst")
	}
	if src < 0 || dst < 0 {
		return fmt.Errorf("%s: no edges: want columns src and dst (text), or src_id and dst_id (integers); it has %s", path, t.columns())
	}
	row := int64(0)
	return t.rows(ctx, []int{src, dst}, func(rec arrow.RecordBatch) error {
		defer func() { row += rec.NumRows() }()
		if byName {
			s, _ := texts(rec.Column(0))
			d, _ := texts(rec.Column(1))
			for i := range int(rec.NumRows()) {
				u, ok1 := s(i)
				v, ok2 := d(i)
				if !ok1 || !ok2 {
					return fmt.Errorf("%s: row %d: a null %s", path, row+int64(i)+1, nullCol(ok1, "src", "dst"))
				}
				b.AddEdge(b.Vertex(u), b.Vertex(v))
			}
			return nil
		}
		s, ok1 := ints(rec.Column(0))
		d, ok2 := ints(rec.Column(1))
		if !ok1 || !ok2 {
			return fmt.Errorf("%s: columns %s and %s are %s and %s: want text names or integer ids",
				path, rec.ColumnName(0), rec.ColumnName(1), rec.Column(0).DataType(), rec.Column(1).DataType())
		}
		for i := range int(rec.NumRows()) {
			u, ok1 := s(i)
			v, ok2 := d(i)
			if !ok1 || !ok2 {
				return fmt.Errorf("%s: row %d: a null %s", path, row+int64(i)+1, nullCol(ok1, rec.ColumnName(0), rec.ColumnName(1)))
			}
			uid, err := vertex(b, names, u)
			if err != nil {
				return fmt.Errorf("%s: row %d: %w", path, row+int64(i)+1, err)
			}
			vid, err := vertex(b, names, v)
			if err != nil {
				return fmt.Errorf("%s: row %d: %w", path, row+int64(i)+1, err)
			}
			b.AddEdge(uid, vid)
		}
		return nil
	})
}

func nullCol(firstOK bool, first, second string) string {
	if firstOK {
		return second
	}
	return first
}

// vertex returns the vertex of an integer id: the vertices table's, or a
// vertex named by the id's decimal text.
func vertex(b *graph.Builder, names map[int64]uint32, id int64) (uint32, error) {
	if names == nil {
		return b.Vertex(strconv.FormatInt(id, 10)), nil
	}
	v, ok := names[id]
	if !ok {
		return 0, fmt.Errorf("vertex id %d is not in the vertices table", id)
	}
	return v, nil
}

// readVertices adds the vertices table's rows to b, in order, and returns
// them by id.
func readVertices(ctx context.Context, path string, b *graph.Builder) (map[int64]uint32, error) {
	t, err := open(path)
	if err != nil {
		return nil, err
	}
	defer t.close()
	id, name := t.column("vertex_id", "id"), t.column("page", "name")
	if id < 0 || name < 0 || !isText(t.schema.Field(name).Type) {
		return nil, fmt.Errorf("%s: not a vertices table: want an integer vertex_id (or id) and a text page (or name); it has %s", path, t.columns())
	}
	out := map[int64]uint32{}
	row := int64(0)
	err = t.rows(ctx, []int{id, name}, func(rec arrow.RecordBatch) error {
		defer func() { row += rec.NumRows() }()
		ids, ok := ints(rec.Column(0))
		if !ok {
			return fmt.Errorf("%s: column %s is %s: want integers", path, rec.ColumnName(0), rec.Column(0).DataType())
		}
		ns, _ := texts(rec.Column(1))
		for i := range int(rec.NumRows()) {
			k, ok1 := ids(i)
			n, ok2 := ns(i)
			if !ok1 || !ok2 {
				return fmt.Errorf("%s: row %d: a null %s", path, row+int64(i)+1, nullCol(ok1, rec.ColumnName(0), rec.ColumnName(1)))
			}
			if _, dup := out[k]; dup {
				return fmt.Errorf("%s: row %d: vertex id %d twice", path, row+int64(i)+1, k)
			}
			before := b.NumVertices()
			v := b.Vertex(n)
			if b.NumVertices() == before {
				return fmt.Errorf("%s: row %d: vertex %q twice", path, row+int64(i)+1, n)
			}
			out[k] = v
		}
		return nil
	})
	return out, err
}

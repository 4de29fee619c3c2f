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
	"runtime/debug"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
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
	// Decoding leaves garbage at the rate rows are read, while the edge
	// arrays (most of the heap) hold no pointers: collected at Go's
	// default pace, the garbage grew as large as the arrays before a
	// collection (3.5 GB at 155 M edges, against 2.3 for the edge list).
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	b := graph.NewBuilder()
	var names *idMap // the vertices table's ids
	if vertices != "" {
		if names, err = readVertices(ctx, vertices, b); err != nil {
			return nil, graph.ReadStats{}, err
		}
	}
	// The edges of every file are reserved at once: grown file by file,
	// the edge arrays were copied and held twice (3.0 GB instead of 2.1
	// for 155 M edges in four files).
	rows := int64(0)
	for _, p := range paths {
		t, err := open(p)
		if err != nil {
			return nil, graph.ReadStats{}, err
		}
		rows += t.rowCount
		t.close()
	}
	b.Grow(int(rows))
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
	path     string
	f        *os.File
	reader   *pqarrow.FileReader
	schema   *arrow.Schema
	rowCount int64
}

func open(path string) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	pf, err := parquetReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: not a Parquet file: %w", path, err)
	}
	props := pqarrow.ArrowReadProperties{BatchSize: 1 << 20}      // a row group's dictionary comes with every batch: few, large batches
	for _, name := range []string{"src", "dst", "page", "name"} { // read as a dictionary: each name interned once per row group
		if i := pf.MetaData().Schema.ColumnIndexByName(name); i >= 0 && dictionaryOnly(pf.MetaData(), i) {
			props.SetReadDict(i, true)
		}
	}
	fr, err := pqarrow.NewFileReader(pf, props, memory.DefaultAllocator)
	if err == nil {
		var s *arrow.Schema
		if s, err = fr.Schema(); err == nil {
			return &table{path: path, f: f, reader: fr, schema: s, rowCount: pf.NumRows()}, nil
		}
	}
	f.Close()
	return nil, fmt.Errorf("%s: %w", path, err)
}

// parquetReader reads f's footer. arrow-go panics on some damaged ones
// (a logical type out of range): that is an error in the file.
func parquetReader(f *os.File) (pf *file.Reader, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("damaged metadata (the reader failed: %v)", r)
		}
	}()
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	// Column chunks are read through a buffer, not whole: a row group of
	// 64 M rows has chunks of hundreds of megabytes.
	props.BufferedStreamEnabled, props.BufferSize = true, 1<<20
	return file.NewParquetReader(f, file.WithReadProps(props))
}

func (t *table) close() { t.f.Close() }

// dictionaryOnly reports whether every page of column col is dictionary
// encoded. A writer whose dictionary grew too large (DuckDB's) goes on
// in plain pages: read as a dictionary, their values would be hashed into
// one by the reader and then interned again, so they are read as text.
func dictionaryOnly(md *metadata.FileMetaData, col int) bool {
	for rg := range md.NumRowGroups() {
		cc, err := md.RowGroup(rg).ColumnChunk(col)
		if err != nil || !cc.HasDictionaryPage() {
			return false
		}
		for _, st := range cc.EncodingStats() {
			data := int(st.PageType) == 0 || int(st.PageType) == 3 // Parquet's DATA_PAGE and DATA_PAGE_V2
			if data && st.Encoding != parquet.Encodings.PlainDict && st.Encoding != parquet.Encodings.RLEDict {
				return false
			}
		}
	}
	return true
}

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

// rows calls f with each record batch of the given columns. arrow-go
// panics on some damaged pages: that is an error in the file.
func (t *table) rows(ctx context.Context, cols []int, f func(arrow.RecordBatch) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: damaged pages (the reader failed: %v)", t.path, r)
		}
	}()
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

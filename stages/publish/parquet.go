package publish

import (
	"cmp"
	"io"

	"github.com/topicrank/topicrank/internal/names"
	"github.com/topicrank/topicrank/internal/parquet"
	"github.com/topicrank/topicrank/internal/version"
)

// rowGroupRows is the size of a row group: a table of n rows has
// ceil(n/rowGroupRows) of them, few and large, as scanners like them.
// Tests make it small.
var rowGroupRows = 1 << 20

// A column is a published column: text repeats, so it is dictionary-encoded
// unless its values are all different (distinct). Page names can be given
// by vertex id (vertexField, pageField).
type column struct {
	parquet.Column
	byVertex bool
}

func field(name string, t parquet.Type, nullable bool) column {
	return column{Column: parquet.Column{Name: name, Type: t, Optional: nullable, Dict: t == parquet.String}}
}

// vertexField is a page-name column given by vertex id: its dictionary is
// the row group's vertices, found by id, so no name is hashed. It has no
// min/max statistics: those of a row group's names prune nothing.
func vertexField(name string) column {
	return column{Column: parquet.Column{Name: name, Type: parquet.String, Dict: true, NoStats: true}, byVertex: true}
}

// pageField is a page-name column given by vertex id whose rows name
// every vertex once (degrees, ranks): written plainly, as a dictionary
// would hold every name, and without statistics, as its bounds are
// those of all names.
func pageField(name string) column {
	c := vertexField(name)
	c.Dict = false
	return c
}

// distinct marks a text column whose values are all different (the page
// column of pages): a dictionary would hold every value and add an index
// per row, so it is written plainly.
func distinct(c column) column {
	c.Dict = false
	return c
}

const (
	tString    = parquet.String
	tInt32     = parquet.Int32
	tInt64     = parquet.Int64
	tFloat64   = parquet.Float64
	tBool      = parquet.Bool
	tTimestamp = parquet.Timestamp // UTC, microseconds
)

// A tableSpec is one published table: its columns after job and run_id,
// which every table carries so that globs across jobs and nights need no
// paths, and a function that appends its rows.
type tableSpec struct {
	fields []column
	rows   func(t *table) // appends each row's columns, then calls t.endRow
}

// table writes a Parquet file a row group at a time: rows are appended
// column by column, and every rowGroupRows rows become one row group.
// Memory holds a row group, never the table.
type table struct {
	pw         *parquet.Writer
	cols       []parquet.Chunk  // by column; for a vertex column, its dictionary once made
	vertices   []idCol          // by column; nil but for page names by vertex id
	constants  []func(rows int) // by column; nil but for constant columns, whose rows it sets
	jobCol     *dictCol         // column 0
	runCol     *dictCol         // column 1
	job, runID string
	names      []string // by vertex id, made safe
	pending    int      // rows appended since the last row group
	rows       int64    // rows written
	err        error    // the first write error; later rows are dropped
}

func newTable(w io.Writer, in *Input, fields []column) (*table, error) {
	all := append([]column{field("job", tString, false), field("run_id", tString, false)}, fields...)
	cols := make([]parquet.Column, len(all))
	for i, c := range all {
		cols[i] = c.Column
	}
	// created_by names the writer, as "<program> version <version>".
	v := cmp.Or(in.version, version.String())
	pw, err := parquet.NewWriter(w, cols, "topicrank version "+v, parquet.KeyValue{Key: "topicrank.version", Value: v})
	if err != nil {
		return nil, err
	}
	t := &table{pw: pw, job: in.Job, runID: in.RunID, names: in.safeNames(), cols: make([]parquet.Chunk, len(all)),
		vertices: make([]idCol, len(all)), constants: make([]func(int), len(all)), jobCol: newDictCol(), runCol: newDictCol()}
	for i, c := range all {
		switch {
		case i < 2:
		case c.byVertex && c.Dict:
			t.vertices[i] = newVertexCol(t.names)
		case c.byVertex:
			t.vertices[i] = &pageCol{names: t.names}
		case c.Type == tInt32:
			t.cols[i] = new(parquet.Col[int32])
		case c.Type == tInt64 || c.Type == tTimestamp:
			t.cols[i] = new(parquet.Col[int64])
		case c.Type == tFloat64:
			t.cols[i] = new(parquet.Col[float64])
		case c.Type == tBool:
			t.cols[i] = new(parquet.Col[bool])
		default:
			t.cols[i] = new(parquet.Col[string])
		}
	}
	return t, nil
}

// str is a text column: every value is kept valid UTF-8 (names.ValidUTF8),
// so that no reader fails on a hostile title or message.
func (t *table) str(i int) strCol {
	return strCol{t.cols[i].(*parquet.Col[string]), names.ValidUTF8}
}

// name is a page-name column given as text: control and bidirectional
// characters are percent-encoded too (names.Safe). Crawled names already
// are; names read from an edge-list file may not be.
func (t *table) name(i int) strCol { return strCol{t.cols[i].(*parquet.Col[string]), names.Safe} }

// vertex is a page-name column given by vertex id (vertexField,
// pageField).
func (t *table) vertex(i int) idCol { return t.vertices[i] }

// constant makes column i hold v in every row, with nothing appended per
// row.
func constant[T parquet.Value](t *table, i int, v T) {
	c := &parquet.Repeat[T]{Value: v}
	t.cols[i], t.constants[i] = c, func(rows int) { c.Rows = rows }
}

// expect makes room in every column for n rows (at most a row group's).
func (t *table) expect(n int) {
	n = min(n, rowGroupRows)
	for i, c := range t.cols {
		if v := t.vertices[i]; v != nil {
			v.grow(n)
		} else if c, ok := c.(interface{ Grow(int) }); ok {
			c.Grow(n)
		}
	}
}

// strCol appends strings through a cleaning function.
type strCol struct {
	c     *parquet.Col[string]
	clean func(string) string
}

func (c strCol) Append(s string) { c.c.Append(c.clean(s)) }
func (c strCol) AppendNull()     { c.c.AppendNull() }

func (t *table) i32(i int) *parquet.Col[int32]    { return t.cols[i].(*parquet.Col[int32]) }
func (t *table) i64(i int) *parquet.Col[int64]    { return t.cols[i].(*parquet.Col[int64]) }
func (t *table) f64(i int) *parquet.Col[float64]  { return t.cols[i].(*parquet.Col[float64]) }
func (t *table) ts(i int) *parquet.Col[int64]     { return t.cols[i].(*parquet.Col[int64]) }
func (t *table) boolean(i int) *parquet.Col[bool] { return t.cols[i].(*parquet.Col[bool]) }

// endRow completes a row whose other columns are appended, and writes a
// row group when one is full.
func (t *table) endRow() { t.endRows(1) }

// room is the number of rows the row group being filled has left.
func (t *table) room() int { return rowGroupRows - t.pending }

// endRows completes n rows (at most room()) whose other columns are
// appended, and writes a row group when one is full.
func (t *table) endRows(n int) {
	t.jobCol.appendN(t.job, n)
	t.runCol.appendN(t.runID, n)
	t.pending += n
	if t.pending == rowGroupRows {
		t.flush()
	}
}

// flush writes the pending rows as a row group.
func (t *table) flush() {
	t.cols[0], t.cols[1] = t.jobCol.chunk(t.pending), t.runCol.chunk(t.pending)
	for i, v := range t.vertices {
		if v != nil {
			t.cols[i] = v.dict()
		}
		if set := t.constants[i]; set != nil {
			set(t.pending)
		}
	}
	if t.err == nil {
		t.err = t.pw.WriteRowGroup(t.cols...)
	}
	for _, c := range t.cols {
		if c, ok := c.(interface{ Reset() }); ok {
			c.Reset()
		}
	}
	t.rows += int64(t.pending)
	t.pending = 0
}

// close writes the last rows and the file's footer, and returns the number
// of rows. An empty table is a file of no row groups.
func (t *table) close() (int64, error) {
	if t.pending > 0 {
		t.flush()
	}
	if err := t.pw.Close(); t.err == nil {
		t.err = err
	}
	return t.rows, t.err
}

// optString appends s, or null when s is empty.
func optString(b strCol, s string) {
	if s == "" {
		b.AppendNull()
	} else {
		b.Append(s)
	}
}

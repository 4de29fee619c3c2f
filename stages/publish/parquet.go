package publish

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/topicrank/topicrank/internal/names"
	"github.com/topicrank/topicrank/internal/version"
)

// rowGroupRows is the size of a row group: a table of n rows has
// ceil(n/rowGroupRows) of them, few and large, as scanners like them.
const rowGroupRows = 1 << 20

// writerProps are the Parquet settings of a table: zstd, column
// statistics, dictionary encoding for text (names repeat) and not for
// numbers, where hashing every value costs more than zstd saves, nor for a
// column of distinct values (see distinct).
func writerProps(fields []arrow.Field, distinct map[string]bool) *parquet.WriterProperties {
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithDictionaryDefault(false),
		parquet.WithStats(true),
		parquet.WithMaxRowGroupLength(rowGroupRows),
		// A row group's names (up to rowGroupRows of them) fit one
		// dictionary page; a larger dictionary falls back to plain pages.
		parquet.WithDictionaryPageSizeLimit(256 << 20),
	} // created_by stays arrow-go's own: readers use it to know the writer's quirks
	for i, f := range fields {
		if (f.Type.ID() == arrow.STRING || f.Type.ID() == arrow.DICTIONARY) && !distinct[f.Name] {
			opts = append(opts, parquet.WithDictionaryFor(f.Name, true))
		}
		// Page names given by vertex id carry no min/max statistics: those
		// of a row group's names prune nothing, and computing them means
		// hashing every row's index.
		if i >= 2 && f.Type.ID() == arrow.DICTIONARY {
			opts = append(opts, parquet.WithStatsFor(f.Name, false))
		}
	}
	return parquet.NewWriterProperties(opts...)
}

// distinct marks a text column whose values are all different (the page
// column of pages, degrees and ranks): a dictionary would hold every value
// and add an index per row, and building it hashes every string, the
// largest cost of writing those tables. Such a column is written plainly.
func distinct(f arrow.Field) arrow.Field {
	f.Metadata = arrow.NewMetadata([]string{distinctKey}, []string{"true"})
	return f
}

const distinctKey = "topicrank.distinct"

// A tableSpec is one published table: its columns after job and run_id,
// which every table carries so that globs across jobs and nights need no
// paths, and a function that appends its rows.
type tableSpec struct {
	fields []arrow.Field
	rows   func(t *table) // appends each row's columns, then calls t.endRow
}

// table writes a Parquet file a row group at a time: rows are appended
// column by column, and every rowGroupRows rows become one record batch
// written as one row group. Memory holds a row group, never the table.
//
// Text columns that repeat are dictionary arrays, written to Parquet's
// dictionary pages as they are, with no hashing of strings: job and
// run_id (a handful of values: dictCol) and page names (vertexCol, whose
// dictionary is the row group's vertices, found by id).
type table struct {
	schema     *arrow.Schema
	fw         *pqarrow.FileWriter
	plain      []array.Builder // by column; nil for a dictionary column
	vertices   []*vertexCol    // by column; nil but for page names by vertex id
	jobCol     *dictCol        // column 0
	runCol     *dictCol        // column 1
	job, runID string
	names      []string // by vertex id, made safe
	pending    int      // rows appended since the last row group
	rows       int64    // rows written
	err        error    // the first write error; later rows are dropped
}

func newTable(w io.Writer, in *Input, fields []arrow.Field) (*table, error) {
	all := append([]arrow.Field{field("job", tDict, false), field("run_id", tDict, false)}, fields...)
	plain := map[string]bool{}
	for i, f := range all {
		if f.Metadata.FindKey(distinctKey) >= 0 {
			plain[f.Name] = true
			all[i].Metadata = arrow.Metadata{} // a mark for writerProps, not for readers
		}
	}
	schema := arrow.NewSchema(all, nil)
	fw, err := pqarrow.NewFileWriter(schema, w, writerProps(all, plain), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	// Which program wrote the file goes in the key-value metadata.
	if err := fw.AppendKeyValueMetadata("topicrank.version", version.String()); err != nil {
		return nil, err
	}
	t := &table{schema: schema, fw: fw, job: in.Job, runID: in.RunID, names: in.safeNames(), plain: make([]array.Builder, len(all)),
		vertices: make([]*vertexCol, len(all)), jobCol: newDictCol(), runCol: newDictCol()}
	for i, f := range all {
		switch {
		case i < 2:
		case arrow.TypeEqual(f.Type, tDict):
			t.vertices[i] = newVertexCol(t.names)
		default:
			t.plain[i] = array.NewBuilder(memory.DefaultAllocator, f.Type)
		}
	}
	return t, nil
}

// str is a text column: every value is kept valid UTF-8 (names.ValidUTF8),
// so that no reader fails on a hostile title or message.
func (t *table) str(i int) strCol {
	return strCol{t.plain[i].(*array.StringBuilder), names.ValidUTF8}
}

// name is a page-name column given as text: control and bidirectional
// characters are percent-encoded too (names.Safe). Crawled names already
// are; names read from an edge-list file may not be.
func (t *table) name(i int) strCol { return strCol{t.plain[i].(*array.StringBuilder), names.Safe} }

// vertex is a page-name column given by vertex id (a tDict field).
func (t *table) vertex(i int) *vertexCol { return t.vertices[i] }

// page appends vertex v's name to a text column (made safe once per
// vertex: Input.safeNames).
func (t *table) page(i int, v uint32) { t.plain[i].(*array.StringBuilder).Append(t.names[v]) }

// strCol appends strings through a cleaning function.
type strCol struct {
	b     *array.StringBuilder
	clean func(string) string
}

func (c strCol) Append(s string)               { c.b.Append(c.clean(s)) }
func (c strCol) AppendNull()                   { c.b.AppendNull() }
func (t *table) i32(i int) *array.Int32Builder { return t.plain[i].(*array.Int32Builder) }
func (t *table) i64(i int) *array.Int64Builder { return t.plain[i].(*array.Int64Builder) }
func (t *table) f64(i int) *array.Float64Builder {
	return t.plain[i].(*array.Float64Builder)
}
func (t *table) ts(i int) *array.TimestampBuilder { return t.plain[i].(*array.TimestampBuilder) }
func (t *table) boolean(i int) *array.BooleanBuilder {
	return t.plain[i].(*array.BooleanBuilder)
}

// endRow completes a row whose other columns are appended, and writes a
// row group when one is full.
func (t *table) endRow() {
	t.jobCol.append(t.job)
	t.runCol.append(t.runID)
	t.pending++
	if t.pending == rowGroupRows {
		t.flush()
	}
}

// flush writes the pending rows as a row group.
func (t *table) flush() {
	cols := make([]arrow.Array, len(t.plain))
	cols[0], cols[1] = t.jobCol.array(), t.runCol.array()
	for i := 2; i < len(cols); i++ {
		if t.plain[i] != nil {
			cols[i] = t.plain[i].NewArray() // and empties the builder
		} else {
			cols[i] = t.vertices[i].array()
		}
	}
	rec := array.NewRecordBatch(t.schema, cols, int64(t.pending))
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()
	if t.err == nil {
		t.err = t.fw.Write(rec)
	}
	t.rows += int64(t.pending)
	t.pending = 0
}

// close writes the last rows (or, for an empty table, an empty row group)
// and the file's footer, and returns the number of rows.
func (t *table) close() (int64, error) {
	if t.pending > 0 || t.rows == 0 {
		t.flush()
	}
	for _, b := range t.plain {
		if b != nil {
			b.Release()
		}
	}
	if err := t.fw.Close(); t.err == nil {
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

func field(name string, t arrow.DataType, nullable bool) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: nullable}
}

var (
	tString    = arrow.BinaryTypes.String
	tInt32     = arrow.PrimitiveTypes.Int32
	tInt64     = arrow.PrimitiveTypes.Int64
	tFloat64   = arrow.PrimitiveTypes.Float64
	tBool      = arrow.FixedWidthTypes.Boolean
	tTimestamp = arrow.FixedWidthTypes.Timestamp_us // UTC, microseconds
	// tDict is text as a dictionary array: readers see VARCHAR.
	tDict = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
)

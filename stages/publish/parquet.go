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

// writerProps are the Parquet settings of every table: zstd, dictionary
// encoding (page names repeat across tables and runs), column statistics.
func writerProps() *parquet.WriterProperties {
	return parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithDictionaryDefault(true),
		parquet.WithStats(true),
		parquet.WithMaxRowGroupLength(rowGroupRows),
	) // created_by stays arrow-go's own: readers use it to know the writer's quirks

}

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
type table struct {
	b          *array.RecordBuilder
	fw         *pqarrow.FileWriter
	job, runID string
	pending    int   // rows in b
	rows       int64 // rows written
	err        error // the first write error; later rows are dropped
}

func newTable(w io.Writer, job, runID string, fields []arrow.Field) (*table, error) {
	all := append([]arrow.Field{field("job", tString, false), field("run_id", tString, false)}, fields...)
	schema := arrow.NewSchema(all, nil)
	fw, err := pqarrow.NewFileWriter(schema, w, writerProps(), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	// Which program wrote the file goes in the key-value metadata.
	if err := fw.AppendKeyValueMetadata("topicrank.version", version.String()); err != nil {
		return nil, err
	}
	return &table{b: array.NewRecordBuilder(memory.DefaultAllocator, schema), fw: fw, job: job, runID: runID}, nil
}

// str is a text column: every value is kept valid UTF-8 (names.ValidUTF8),
// so that no reader fails on a hostile title or message.
func (t *table) str(i int) strCol {
	return strCol{t.b.Field(i).(*array.StringBuilder), names.ValidUTF8}
}

// name is a page-name column: control and bidirectional characters are
// percent-encoded too (names.Safe). Crawled names already are; names read
// from an edge-list file may not be.
func (t *table) name(i int) strCol { return strCol{t.b.Field(i).(*array.StringBuilder), names.Safe} }

// strCol appends strings through a cleaning function.
type strCol struct {
	b     *array.StringBuilder
	clean func(string) string
}

func (c strCol) Append(s string)               { c.b.Append(c.clean(s)) }
func (c strCol) AppendNull()                   { c.b.AppendNull() }
func (t *table) i32(i int) *array.Int32Builder { return t.b.Field(i).(*array.Int32Builder) }
func (t *table) i64(i int) *array.Int64Builder { return t.b.Field(i).(*array.Int64Builder) }
func (t *table) f64(i int) *array.Float64Builder {
	return t.b.Field(i).(*array.Float64Builder)
}
func (t *table) ts(i int) *array.TimestampBuilder { return t.b.Field(i).(*array.TimestampBuilder) }
func (t *table) boolean(i int) *array.BooleanBuilder {
	return t.b.Field(i).(*array.BooleanBuilder)
}

// endRow completes a row whose other columns are appended, and writes a
// row group when one is full.
func (t *table) endRow() {
	t.str(0).Append(t.job)
	t.str(1).Append(t.runID)
	t.pending++
	if t.pending == rowGroupRows {
		t.flush()
	}
}

// flush writes the pending rows as a row group.
func (t *table) flush() {
	rec := t.b.NewRecordBatch() // and empties the builder
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
	t.b.Release()
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
)

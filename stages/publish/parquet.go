package publish

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

// rowGroupRows bounds a row group. A table is written with one Write call,
// so it has ceil(rows/rowGroupRows) row groups: few and large, as scanners
// like them.
const rowGroupRows = 1 << 20

// writerProps are the Parquet settings of every table: zstd, dictionary
// encoding (page names repeat across tables and runs), column statistics.
func writerProps() *parquet.WriterProperties {
	return parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithDictionaryDefault(true),
		parquet.WithStats(true),
		parquet.WithMaxRowGroupLength(rowGroupRows),
		parquet.WithCreatedBy("topicrank"),
	)
}

// table builds one Arrow record column by column.
type table struct {
	schema *arrow.Schema
	b      *array.RecordBuilder
	in     *Input // for finish
}

func newTable(fields ...arrow.Field) *table {
	s := arrow.NewSchema(fields, nil)
	return &table{schema: s, b: array.NewRecordBuilder(memory.DefaultAllocator, s)}
}

func (t *table) str(i int) *array.StringBuilder { return t.b.Field(i).(*array.StringBuilder) }
func (t *table) i32(i int) *array.Int32Builder  { return t.b.Field(i).(*array.Int32Builder) }
func (t *table) i64(i int) *array.Int64Builder  { return t.b.Field(i).(*array.Int64Builder) }
func (t *table) f64(i int) *array.Float64Builder {
	return t.b.Field(i).(*array.Float64Builder)
}
func (t *table) ts(i int) *array.TimestampBuilder { return t.b.Field(i).(*array.TimestampBuilder) }
func (t *table) boolean(i int) *array.BooleanBuilder {
	return t.b.Field(i).(*array.BooleanBuilder)
}

// newRunTable is newTable with the job and run_id columns first, which
// every table carries so that globs across jobs and nights need no paths.
// Build the other columns, then call finish.
func newRunTable(in *Input, fields ...arrow.Field) *table {
	t := newTable(append([]arrow.Field{field("job", tString, false), field("run_id", tString, false)}, fields...)...)
	t.in = in
	return t
}

// finish fills the job and run_id columns to the length of the others.
func (t *table) finish() *table {
	n := t.b.Field(2).Len()
	for i, v := range []string{t.in.Job, t.in.RunID} {
		b := t.str(i)
		b.Reserve(n)
		for range n {
			b.Append(v)
		}
	}
	return t
}

// optString appends s, or null when s is empty.
func optString(b *array.StringBuilder, s string) {
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

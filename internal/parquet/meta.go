package parquet

import "math"

// Enum values of parquet.thrift (apache/parquet-format).
const (
	// Type
	physBoolean   = 0
	physInt32     = 1
	physInt64     = 2
	physDouble    = 5
	physByteArray = 6

	// FieldRepetitionType
	repRequired = 0
	repOptional = 1

	// ConvertedType
	convUTF8            = 0
	convTimestampMicros = 10

	// Encoding
	encPlain          = 0
	encRLE            = 3
	encRLEDictionary  = 8
	codecZstd         = 6
	pageData          = 0
	pageDictionary    = 2
	formatVersion     = 2
	fieldLogicalType  = 10
	logicalString     = 1
	logicalTimestamp  = 8
	timeUnitMicros    = 2
	columnOrderByType = 1
)

// chunkMeta is what the footer says of one column chunk. Offsets are from
// the chunk's start until the writer places it (place).
type chunkMeta struct {
	encodings    []int32
	numValues    int64 // rows, nulls included
	uncompressed int64 // page headers and pages before compression
	compressed   int64 // page headers and pages as written
	dataOffset   int64 // the first data page's header
	dictOffset   int64 // the dictionary page's header, -1 if none
	dataPages    int32
	dataEncoding int32
	stats        stats
}

// start is where the chunk begins: its dictionary page, or else its first
// data page.
func (m *chunkMeta) start() int64 {
	if m.dictOffset >= 0 {
		return m.dictOffset
	}
	return m.dataOffset
}

func (m *chunkMeta) place(base int64) {
	m.dataOffset += base
	if m.dictOffset >= 0 {
		m.dictOffset += base
	}
}

// stats are a column chunk's statistics: min and max as Parquet's plain
// encoding of the value (nil: none) and the number of nulls.
type stats struct {
	min, max []byte
	nulls    int64
}

type rowGroupMeta struct {
	chunks []chunkMeta
	rows   int64
}

// writeStats writes a Statistics struct as field id of the open struct.
func (c *compact) writeStats(id int16, s stats) {
	c.structField(id)
	c.i64(3, s.nulls)
	if s.max != nil {
		c.binary(5, s.max) // max_value
		c.binary(6, s.min) // min_value
	}
	c.end()
}

// pageHeader encodes a PageHeader: a dictionary page (dict) or a version 1
// data page whose levels are RLE-encoded.
func pageHeader(dict bool, values, uncompressed, compressed int, enc int32) []byte {
	var c compact
	c.begin()
	if dict {
		c.i32(1, pageDictionary)
	} else {
		c.i32(1, pageData)
	}
	c.i32(2, int32(uncompressed))
	c.i32(3, int32(compressed))
	if dict {
		c.structField(7) // dictionary_page_header
		c.i32(1, int32(values))
		c.i32(2, enc)
		c.end()
	} else {
		c.structField(5) // data_page_header
		c.i32(1, int32(values))
		c.i32(2, enc)
		c.i32(3, encRLE) // definition levels
		c.i32(4, encRLE) // repetition levels (none: the schema is flat)
		c.end()
	}
	c.end()
	return c.buf
}

// footer encodes the FileMetaData of a file.
func footer(cols []Column, groups []rowGroupMeta, kv []KeyValue, createdBy string) []byte {
	var c compact
	c.begin()
	c.i32(1, formatVersion)
	c.list(2, ctStruct, len(cols)+1)
	c.begin() // the root
	c.string(4, "schema")
	c.i32(5, int32(len(cols)))
	c.end()
	for _, col := range cols {
		writeSchemaElement(&c, col)
	}
	var rows int64
	for _, g := range groups {
		rows += g.rows
	}
	c.i64(3, rows)
	c.list(4, ctStruct, len(groups))
	for i, g := range groups {
		writeRowGroup(&c, cols, g, i)
	}
	if len(kv) > 0 {
		c.list(5, ctStruct, len(kv))
		for _, p := range kv {
			c.begin()
			c.string(1, p.Key)
			c.string(2, p.Value)
			c.end()
		}
	}
	c.string(6, createdBy)
	c.list(7, ctStruct, len(cols)) // column_orders: min and max by type
	for range cols {
		c.begin()
		c.structField(columnOrderByType)
		c.end()
		c.end()
	}
	c.end()
	return c.buf
}

func writeSchemaElement(c *compact, col Column) {
	c.begin()
	c.i32(1, col.Type.physical())
	if col.Optional {
		c.i32(3, repOptional)
	} else {
		c.i32(3, repRequired)
	}
	c.string(4, col.Name)
	switch col.Type {
	case String:
		c.i32(6, convUTF8)
		c.structField(fieldLogicalType)
		c.structField(logicalString)
		c.end()
		c.end()
	case Timestamp:
		c.i32(6, convTimestampMicros)
		c.structField(fieldLogicalType)
		c.structField(logicalTimestamp)
		c.bool(1, true) // isAdjustedToUTC
		c.structField(2)
		c.structField(timeUnitMicros)
		c.end()
		c.end()
		c.end()
		c.end()
	}
	c.end()
}

func writeRowGroup(c *compact, cols []Column, g rowGroupMeta, ordinal int) {
	c.begin()
	c.list(1, ctStruct, len(g.chunks))
	var size, compressed int64
	for i, m := range g.chunks {
		size += m.uncompressed
		compressed += m.compressed
		c.begin() // ColumnChunk
		c.i64(2, m.start())
		c.structField(3) // ColumnMetaData
		c.i32(1, cols[i].Type.physical())
		c.list(2, ctI32, len(m.encodings))
		for _, e := range m.encodings {
			c.i32Elem(e)
		}
		c.list(3, ctBinary, 1)
		c.bytes([]byte(cols[i].Name))
		c.i32(4, codecZstd)
		c.i64(5, m.numValues)
		c.i64(6, m.uncompressed)
		c.i64(7, m.compressed)
		c.i64(9, m.dataOffset)
		if m.dictOffset >= 0 {
			c.i64(11, m.dictOffset)
		}
		if !cols[i].NoStats {
			c.writeStats(12, m.stats)
		}
		writeEncodingStats(c, m)
		c.end()
		c.end()
	}
	c.i64(2, size)
	c.i64(3, g.rows)
	if len(g.chunks) > 0 {
		c.i64(5, g.chunks[0].start())
	}
	c.i64(6, compressed)
	if ordinal <= math.MaxInt16 {
		c.i16(7, int16(ordinal))
	}
	c.end()
}

// writeEncodingStats writes encoding_stats: readers learn from it that a
// chunk is dictionary-encoded throughout.
func writeEncodingStats(c *compact, m chunkMeta) {
	n := 1
	if m.dictOffset >= 0 {
		n = 2
	}
	c.list(13, ctStruct, n)
	if m.dictOffset >= 0 {
		c.begin()
		c.i32(1, pageDictionary)
		c.i32(2, encPlain)
		c.i32(3, 1)
		c.end()
	}
	c.begin()
	c.i32(1, pageData)
	c.i32(2, m.dataEncoding)
	c.i32(3, m.dataPages)
	c.end()
}

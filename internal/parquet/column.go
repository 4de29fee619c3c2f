package parquet

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// Type is a column's type as readers see it.
type Type int

const (
	Int32     Type = iota // INT32
	Int64                 // INT64
	Float64               // DOUBLE
	Bool                  // BOOLEAN
	String                // BYTE_ARRAY annotated as UTF-8 text
	Timestamp             // INT64 microseconds since the epoch, annotated as a UTC timestamp
)

func (t Type) physical() int32 {
	switch t {
	case Int32:
		return physInt32
	case Int64, Timestamp:
		return physInt64
	case Float64:
		return physDouble
	case Bool:
		return physBoolean
	default:
		return physByteArray
	}
}

func (t Type) String() string {
	return [...]string{"int32", "int64", "float64", "bool", "string", "timestamp"}[t]
}

// Column describes one column of a file.
type Column struct {
	Name     string
	Type     Type
	Optional bool // may hold nulls
	// Dict writes a String column through a dictionary: a *Dict chunk's
	// own, or one of a *Col's distinct values, built by hashing. Without
	// it, every row's value is written plainly, a *Dict chunk's looked up
	// by index.
	Dict    bool
	NoStats bool // write no statistics
}

// A Chunk is one column's values in one row group: a *Col, a *Dict or a
// *Repeat.
type Chunk interface {
	Len() int // rows, nulls included
	encode(w *chunkWriter) error
}

// Value is a Go type a column holds: int32 for Int32, int64 for Int64 and
// Timestamp, float64 for Float64, bool for Bool, string for String.
type Value interface {
	int32 | int64 | float64 | bool | string
}

// Col is a column's values, appended row by row. A null is only a row
// number: Parquet stores the values that are present.
type Col[T Value] struct {
	Values []T
	nulls  []int // rows that are null, increasing
}

func (c *Col[T]) Append(v T) { c.Values = append(c.Values, v) }

// AppendNull appends a null (an error at writing if the column is
// required).
func (c *Col[T]) AppendNull() { c.nulls = append(c.nulls, len(c.Values)+len(c.nulls)) }

func (c *Col[T]) Len() int { return len(c.Values) + len(c.nulls) }

// Grow makes room for n more values.
func (c *Col[T]) Grow(n int) { c.Values = slices.Grow(c.Values, n) }

// Reset empties c, keeping its memory for the next row group.
func (c *Col[T]) Reset() { c.Values, c.nulls = c.Values[:0], c.nulls[:0] }

// Dict is a String column given as a dictionary of distinct values and,
// per row, an index into it. A dictionary column writes it as it is, with
// no hashing of text; a plain one writes each row's value.
type Dict struct {
	Values []string
	Index  []int32
}

func (d *Dict) Len() int { return len(d.Index) }

// Grow makes room for n more rows.
func (d *Dict) Grow(n int) { d.Index = slices.Grow(d.Index, n) }

// Reset empties d, keeping its memory for the next row group.
func (d *Dict) Reset() { d.Values, d.Index = d.Values[:0], d.Index[:0] }

// Repeat is a column whose rows all hold one value: written as a
// dictionary of that value and one run, whatever the column's Dict says,
// so it costs nothing per row.
type Repeat[T Value] struct {
	Value T
	Rows  int
}

func (r *Repeat[T]) Len() int { return r.Rows }

func checkChunk(col Column, ch Chunk) error {
	var ok bool
	switch ch.(type) {
	case *Col[int32], *Repeat[int32]:
		ok = col.Type == Int32
	case *Col[int64], *Repeat[int64]:
		ok = col.Type == Int64 || col.Type == Timestamp
	case *Col[float64], *Repeat[float64]:
		ok = col.Type == Float64
	case *Col[bool], *Repeat[bool]:
		ok = col.Type == Bool
	case *Col[string], *Dict, *Repeat[string]:
		ok = col.Type == String
	}
	if !ok {
		return fmt.Errorf("column %s: a %T chunk for a %v column", col.Name, ch, col.Type)
	}
	return nil
}

// valueStats returns the min and max of vals as statistics encode them
// (plain, but text without its length), nil if there are none. NaN is
// skipped, and a zero bound is written as -0 (min) and +0 (max), as the
// format asks.
func valueStats[T Value](vals []T) (lo, hi []byte) {
	switch v := any(vals).(type) {
	case []int32:
		return bounds(v)
	case []int64:
		return bounds(v)
	case []string:
		lo, hi = bounds(v)
		if len(lo) > maxStatBytes || len(hi) > maxStatBytes {
			return nil, nil
		}
		return lo, hi
	case []float64:
		lo, hi = bounds(v)
		if lo != nil && math.Float64frombits(binary.LittleEndian.Uint64(lo)) == 0 {
			lo = binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.Copysign(0, -1)))
		}
		if hi != nil && math.Float64frombits(binary.LittleEndian.Uint64(hi)) == 0 {
			hi = binary.LittleEndian.AppendUint64(nil, 0)
		}
		return lo, hi
	case []bool:
		var seen [2]bool
		for _, x := range v {
			seen[b2i(x)] = true
		}
		switch {
		case seen[0] && seen[1]:
			return []byte{0}, []byte{1}
		case seen[0]:
			return []byte{0}, []byte{0}
		case seen[1]:
			return []byte{1}, []byte{1}
		}
	}
	return nil, nil
}

// maxStatBytes drops the bounds of a text column when one is longer, as
// parquet-cpp does by default: they would bloat the footer.
const maxStatBytes = 4096

// bounds returns the plain encoding of the least and greatest of vals,
// NaN aside, nil if there are none.
func bounds[T cmp.Ordered](vals []T) (lo, hi []byte) {
	first := true
	var mn, mx T
	for _, v := range vals {
		if v != v { // NaN
			continue
		}
		if first {
			mn, mx, first = v, v, false
		}
		mn, mx = min(mn, v), max(mx, v)
	}
	if first {
		return nil, nil
	}
	return statBytes(mn), statBytes(mx)
}

func statBytes(v any) []byte {
	switch v := v.(type) {
	case int32:
		return binary.LittleEndian.AppendUint32(nil, uint32(v))
	case int64:
		return binary.LittleEndian.AppendUint64(nil, uint64(v))
	case float64:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v))
	default:
		return []byte(v.(string))
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

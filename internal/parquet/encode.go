package parquet

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

func (c *Col[T]) encode(w *chunkWriter) error {
	if len(c.nulls) > 0 && !w.col.Optional {
		return fmt.Errorf("parquet: column %s: a null in row %d of a required column", w.col.Name, c.nulls[0])
	}
	if s, ok := any(c.Values).([]string); ok {
		if err := checkUTF8(w.col, s); err != nil {
			return err
		}
	}
	levels := c.levels(w.col.Optional)
	if !w.col.NoStats {
		w.meta.stats.min, w.meta.stats.max = valueStats(c.Values)
		w.meta.stats.nulls = int64(len(c.nulls))
	}
	if s, ok := any(c.Values).([]string); ok && w.col.Dict {
		values, index := dictionary(s)
		return w.dictPages(values, index, levels)
	}
	w.meta.encodings = []int32{encPlain, encRLE}
	w.meta.dataEncoding = encPlain
	ends := splitPages(c.Len(), levels, valueBits(c.Values))
	r, v := 0, 0
	for _, end := range ends {
		n := present(levels, r, end)
		w.startPage(levelsOf(levels, r, end))
		w.body = appendPlain(w.body, c.Values[v:v+n])
		w.page(false, end-r, encPlain)
		r, v = end, v+n
	}
	return nil
}

// levels returns the definition level of each row of an optional column
// (1: present, 0: null), nil for a required one.
func (c *Col[T]) levels(optional bool) []uint8 {
	if !optional {
		return nil
	}
	l := make([]uint8, c.Len())
	for i := range l {
		l[i] = 1
	}
	for _, r := range c.nulls {
		l[r] = 0
	}
	return l
}

// splitPages divides rows into data pages of about pageBytes of values,
// value v taking bits(v) bits, and returns each page's end row. There is
// always one page, if an empty one.
func splitPages(rows int, levels []uint8, bits valueSize) []int {
	var ends []int
	if levels == nil && bits.fixed > 0 { // every page but the last has the same rows
		per := max(1, pageBytes*8/bits.fixed)
		for end := per; end < rows; end += per {
			ends = append(ends, end)
		}
		return append(ends, rows)
	}
	size, v := 0, 0
	for r := range rows {
		if levels == nil || levels[r] == 1 {
			size += bits.of(v)
			v++
		}
		if size >= pageBytes*8 {
			ends = append(ends, r+1)
			size = 0
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != rows {
		ends = append(ends, rows)
	}
	return ends
}

// valueSize gives the size of a column's values in bits: fixed, or for
// text, of(v) for value v.
type valueSize struct {
	fixed int
	text  []string
}

func fixedBits(n int) valueSize { return valueSize{fixed: n} }

func (s valueSize) of(v int) int {
	if s.fixed > 0 {
		return s.fixed
	}
	return 8 * (4 + len(s.text[v]))
}

// valueBits returns the size of vals in plain encoding.
func valueBits[T Value](vals []T) valueSize {
	switch s := any(vals).(type) {
	case []string:
		return valueSize{text: s}
	case []bool:
		return fixedBits(1)
	case []int32:
		return fixedBits(32)
	default:
		return fixedBits(64)
	}
}

// present counts the values among rows [from, to).
func present(levels []uint8, from, to int) int {
	if levels == nil {
		return to - from
	}
	n := 0
	for _, l := range levels[from:to] {
		n += int(l)
	}
	return n
}

func levelsOf(levels []uint8, from, to int) []uint8 {
	if levels == nil {
		return nil
	}
	return levels[from:to]
}

// appendPlain appends vals in Parquet's plain encoding: little-endian
// numbers, booleans packed eight to a byte (least significant bit first),
// text as a 4-byte length and its bytes.
func appendPlain[T Value](dst []byte, vals []T) []byte {
	switch s := any(vals).(type) {
	case []int32:
		dst = slices.Grow(dst, 4*len(s))
		for _, x := range s {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(x))
		}
	case []int64:
		dst = slices.Grow(dst, 8*len(s))
		for _, x := range s {
			dst = binary.LittleEndian.AppendUint64(dst, uint64(x))
		}
	case []float64:
		dst = slices.Grow(dst, 8*len(s))
		for _, x := range s {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(x))
		}
	case []bool:
		for i := 0; i < len(s); i += 8 {
			var b byte
			for j, x := range s[i:min(i+8, len(s))] {
				b |= byte(b2i(x)) << j
			}
			dst = append(dst, b)
		}
	case []string:
		for _, x := range s {
			dst = appendText(dst, x)
		}
	}
	return dst
}

// appendText appends one text value in plain encoding: its length in 4
// bytes, then its bytes.
func appendText(dst []byte, s string) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}

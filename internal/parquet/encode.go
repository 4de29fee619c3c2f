package parquet

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"
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
		w.dictPages(values, index, levels)
		return nil
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

func (d *Dict) encode(w *chunkWriter) error {
	for r, i := range d.Index {
		if i < 0 || int(i) >= len(d.Values) {
			return fmt.Errorf("parquet: column %s: row %d: index %d outside a dictionary of %d values", w.col.Name, r, i, len(d.Values))
		}
	}
	if w.col.Optional {
		return fmt.Errorf("parquet: column %s: a Dict chunk for an optional column", w.col.Name)
	}
	if !w.col.Dict { // each row's value, written plainly
		return d.encodePlain(w)
	}
	if err := checkUTF8(w.col, d.Values); err != nil {
		return err
	}
	if !w.col.NoStats {
		w.meta.stats.min, w.meta.stats.max = valueStats(d.used())
	}
	w.dictPages(d.Values, d.Index, nil)
	return nil
}

// encodePlain writes the value of each row in plain pages, for a column
// whose rows are mostly different values, kept as indices until now. It
// reads each row's value once: the rows are in any order, so the reads
// miss the cache.
func (d *Dict) encodePlain(w *chunkWriter) error {
	if !w.col.NoStats {
		w.meta.stats.min, w.meta.stats.max = valueStats(d.used())
	}
	w.meta.encodings = []int32{encPlain, encRLE}
	w.meta.dataEncoding = encPlain
	w.body = w.body[:0]
	start := 0
	var batch [64]string
	for first := 0; first < len(d.Index); first += len(batch) {
		// Gather a batch of values before copying them: the loads are
		// independent, so their cache misses overlap.
		rows := d.Index[first:min(first+len(batch), len(d.Index))]
		for k, i := range rows {
			batch[k] = d.Values[i]
		}
		for k, v := range batch[:len(rows)] {
			w.body = binary.LittleEndian.AppendUint32(w.body, uint32(len(v)))
			w.body = append(w.body, v...)
			if !utf8.ValidString(v) {
				return fmt.Errorf("parquet: column %s: row %d (%q) is not UTF-8", w.col.Name, first+k, v)
			}
			if r := first + k; len(w.body) >= pageBytes {
				w.page(false, r+1-start, encPlain)
				w.body, start = w.body[:0], r+1
			}
		}
	}
	if start < len(d.Index) || len(d.Index) == 0 {
		w.page(false, len(d.Index)-start, encPlain)
	}
	return nil
}

func (r *Repeat[T]) encode(w *chunkWriter) error {
	one := []T{r.Value}
	if s, ok := any(one).([]string); ok {
		if err := checkUTF8(w.col, s); err != nil {
			return err
		}
	}
	if !w.col.NoStats {
		w.meta.stats.min, w.meta.stats.max = valueStats(one)
	}
	w.meta.encodings = []int32{encPlain, encRLE, encRLEDictionary}
	w.meta.dataEncoding = encRLEDictionary
	w.body = appendPlain(w.body[:0], one)
	w.page(true, 1, encPlain)
	w.body = w.body[:0]
	if w.col.Optional { // every row is present: one run of level 1
		w.body = binary.LittleEndian.AppendUint32(w.body, 0)
		w.body = appendRun(w.body, r.Rows, 1, 1)
		binary.LittleEndian.PutUint32(w.body, uint32(len(w.body)-4))
	}
	w.body = append(w.body, 1) // indices one bit wide
	w.body = appendRun(w.body, r.Rows, 0, 1)
	w.page(false, r.Rows, encRLEDictionary)
	return nil
}

// used returns the values of the dictionary that rows refer to.
func (d *Dict) used() []string {
	seen := make([]bool, len(d.Values))
	var vals []string
	for _, i := range d.Index {
		if !seen[i] {
			seen[i] = true
			vals = append(vals, d.Values[i])
		}
	}
	return vals
}

// checkUTF8 refuses text that is not UTF-8: readers such as DuckDB refuse
// the whole file.
func checkUTF8(col Column, vals []string) error {
	for i, s := range vals {
		if !utf8.ValidString(s) {
			return fmt.Errorf("parquet: column %s: value %d (%q) is not UTF-8", col.Name, i, s)
		}
	}
	return nil
}

// dictPages writes the dictionary page, then data pages of indices.
func (w *chunkWriter) dictPages(values []string, index []int32, levels []uint8) {
	w.meta.encodings = []int32{encPlain, encRLE, encRLEDictionary}
	w.meta.dataEncoding = encRLEDictionary
	w.body = appendPlain(w.body[:0], values)
	w.page(true, len(values), encPlain)
	width := bitWidth(len(values))
	rows := len(index)
	if levels != nil {
		rows = len(levels)
	}
	r, v := 0, 0
	for _, end := range splitPages(rows, levels, fixedBits(width)) {
		n := present(levels, r, end)
		w.startPage(levelsOf(levels, r, end))
		w.body = append(w.body, byte(width))
		w.body = appendHybrid(w.body, index[v:v+n], width)
		w.page(false, end-r, encRLEDictionary)
		r, v = end, v+n
	}
}

// dictionary returns the distinct values of vals in order of first
// appearance, and each value's index among them.
func dictionary(vals []string) (values []string, index []int32) {
	seen := make(map[string]int32)
	index = make([]int32, len(vals))
	for r, s := range vals {
		i, ok := seen[s]
		if !ok {
			i = int32(len(values))
			values = append(values, s)
			seen[s] = i
		}
		index[r] = i
	}
	return values, index
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
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(x)))
			dst = append(dst, x...)
		}
	}
	return dst
}

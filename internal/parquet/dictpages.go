package parquet

import (
	"encoding/binary"
	"fmt"
	"slices"
	"unicode/utf8"
)

func (d *Dict) encode(w *chunkWriter) error {
	for r, i := range d.Index {
		if i < 0 || int(i) >= len(d.Values) {
			return fmt.Errorf("parquet: column %s: row %d: index %d outside a dictionary of %d values", w.col.Name, r, i, len(d.Values))
		}
	}
	if w.col.Optional {
		return fmt.Errorf("parquet: column %s: a Dict chunk for an optional column", w.col.Name)
	}
	if !w.col.NoStats {
		w.meta.stats.min, w.meta.stats.max = valueStats(d.used())
	}
	if !w.col.Dict { // each row's value, written plainly
		return d.encodePlain(w)
	}
	return w.dictPages(d.Values, d.Index, nil)
}

// encodePlain writes the value of each row in plain pages, for a column
// whose rows are mostly different values, kept as indices until now. It
// reads each row's value once: the rows are in any order, so the reads
// miss the cache.
func (d *Dict) encodePlain(w *chunkWriter) error {
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
			w.body = appendText(w.body, v)
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

// dictPages writes the dictionary page, then data pages of indices. It
// refuses a value that is not UTF-8, checked as it is copied.
func (w *chunkWriter) dictPages(values []string, index []int32, levels []uint8) error {
	w.meta.encodings = []int32{encPlain, encRLE, encRLEDictionary}
	w.meta.dataEncoding = encRLEDictionary
	size := 4 * len(values)
	for _, v := range values {
		size += len(v)
	}
	w.body = slices.Grow(w.body[:0], size)
	for i, v := range values {
		w.body = appendText(w.body, v)
		if !utf8.ValidString(v) {
			return fmt.Errorf("parquet: column %s: value %d (%q) is not UTF-8", w.col.Name, i, v)
		}
	}
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
	return nil
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

package parquetin

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	pq "github.com/topicrank/topicrank/internal/parquet"
	"github.com/topicrank/topicrank/stages/graph"
)

// chunk is one column chunk of names, decoded page by page from what
// arrow-go's page reader gives (headers read, pages decompressed), not
// through arrow arrays: building those cost more than the rest of the
// read, and a dictionary column rebuilt a hash table of its whole
// dictionary for every batch. A chunk holds its distinct values once
// each, with their hashes, and gives its rows' values a slice at a time
// (a row group may hold tens of millions of rows):
//
//   - a dictionary page's entries, all of them, hashed as read;
//   - a plain page's values, each distinct one once (a writer whose
//     dictionary grew too large, as DuckDB's does, goes on in plain
//     pages: a row group then names each name once, as a dictionary would).
//
// It reads flat columns of one BYTE_ARRAY per row, optional or required,
// in the PLAIN and dictionary encodings; readable says which files are
// such, and the others go through arrow.
type chunk struct {
	values
	rows []uint32 // the values of rows decoded and not yet taken, or null

	pages         file.PageReader
	optional      bool     // the maximum definition level is 1, not 0
	dict, dictLen int      // the dictionary's values are dict to dict+dictLen-1 (dictLen -1 before one)
	slots         []uint32 // plain values by hash: value+1, 0 empty
	defs, vals    []uint32 // a page's definition levels and values, reused
}

// values are a chunk's distinct values so far. While a row group is
// read they are only appended to, so a copy of the struct handed to
// another goroutine stays valid for the values it holds.
type values struct {
	data   []byte   // the values' bytes, one after the other
	ends   []uint32 // where each value's bytes end in data
	hashes []graph.Hash
}

const null = ^uint32(0)

// errUnreadable is a page readable did not expect: the file's metadata
// did not list its encoding.
var errUnreadable = errors.New("not a flat PLAIN or dictionary-encoded text column")

// value returns value k's bytes.
func (v *values) value(k uint32) []byte {
	start := uint32(0)
	if k > 0 {
		start = v.ends[k-1]
	}
	return v.data[start:v.ends[k]]
}

// open starts on the pages of a column chunk.
func (c *chunk) open(pr file.PageReader, optional bool) {
	c.data, c.ends, c.hashes, c.rows = c.data[:0], c.ends[:0], c.hashes[:0], c.rows[:0]
	c.pages, c.optional, c.dictLen = pr, optional, -1
	clear(c.slots)
}

// take moves the first n rows decoded into dst.
func (c *chunk) take(dst []uint32, n int) []uint32 {
	dst = append(dst[:0], c.rows[:n]...)
	c.rows = c.rows[:copy(c.rows, c.rows[n:])]
	return dst
}

// fill decodes pages until n rows wait to be taken or the chunk ends.
func (c *chunk) fill(n int, b *graph.Builder) error {
	for len(c.rows) < n && c.pages.Next() {
		var err error
		switch p := c.pages.Page().(type) {
		case *file.DictionaryPage:
			err = c.dictionary(p.Data(), int(p.NumValues()), parquet.Encoding(p.Encoding()), b)
		case *file.DataPageV1:
			data, levels := p.Data(), []byte(nil)
			if c.optional {
				if p.DefinitionLevelEncoding() != parquet.Encodings.RLE {
					return fmt.Errorf("definition levels in %s: %w", p.DefinitionLevelEncoding(), errUnreadable)
				}
				if len(data) < 4 || 4+int(binary.LittleEndian.Uint32(data)) > len(data) {
					return errors.New("a data page shorter than its definition levels")
				}
				n := 4 + int(binary.LittleEndian.Uint32(data))
				levels, data = data[4:n], data[n:]
			}
			err = c.page(parquet.Encoding(p.Encoding()), levels, data, int(p.NumValues()), b)
		case *file.DataPageV2:
			data := p.Data()
			rep, def := int(p.RepetitionLevelByteLen()), int(p.DefinitionLevelByteLen())
			if rep+def > len(data) {
				return errors.New("a data page shorter than its levels")
			}
			err = c.page(parquet.Encoding(p.Encoding()), data[rep:rep+def], data[rep+def:], int(p.NumValues()), b)
		}
		if err != nil {
			return err
		}
	}
	return c.pages.Err()
}

// dictionary reads a dictionary page of n PLAIN values.
func (c *chunk) dictionary(data []byte, n int, enc parquet.Encoding, b *graph.Builder) error {
	if enc != parquet.Encodings.Plain && enc != parquet.Encodings.PlainDict {
		return fmt.Errorf("a dictionary page in %s: %w", enc, errUnreadable)
	}
	c.dict, c.dictLen = len(c.ends), n
	for range n {
		v, rest, err := plainValue(data)
		if err != nil {
			return fmt.Errorf("dictionary page: %w", err)
		}
		c.add(v, b.Hash(v))
		data = rest
	}
	return nil
}

// page reads a data page of n rows whose present values are encoded in
// enc, their definition levels (if the column is optional) in levels.
func (c *chunk) page(enc parquet.Encoding, levels, data []byte, n int, b *graph.Builder) error {
	present := n
	if c.optional {
		c.defs = resize(c.defs, n)
		if _, err := pq.DecodeHybrid(levels, 1, c.defs); err != nil {
			return fmt.Errorf("definition levels: %w", err)
		}
		present = 0
		for _, d := range c.defs {
			present += int(d)
		}
	}
	c.vals = resize(c.vals, present)
	switch enc {
	case parquet.Encodings.Plain:
		for i := range c.vals {
			v, rest, err := plainValue(data)
			if err != nil {
				return err
			}
			c.vals[i], data = c.plain(v, b), rest
		}
	case parquet.Encodings.RLEDict, parquet.Encodings.PlainDict:
		if c.dictLen < 0 {
			return errors.New("a dictionary-encoded page without a dictionary page")
		}
		if present > 0 && len(data) == 0 {
			return errors.New("an empty dictionary-encoded page")
		}
		if present > 0 {
			if _, err := pq.DecodeHybrid(data[1:], int(data[0]), c.vals); err != nil {
				return fmt.Errorf("dictionary indices: %w", err)
			}
		}
		for i, k := range c.vals {
			if int(k) >= c.dictLen {
				return fmt.Errorf("dictionary index %d of a dictionary of %d", k, c.dictLen)
			}
			c.vals[i] = k + uint32(c.dict)
		}
	default:
		return fmt.Errorf("values in %s: %w", enc, errUnreadable)
	}
	k := 0
	for i := range n {
		if c.optional && c.defs[i] == 0 {
			c.rows = append(c.rows, null)
			continue
		}
		c.rows = append(c.rows, c.vals[k])
		k++
	}
	return nil
}

// plainValue splits a PLAIN-encoded BYTE_ARRAY (a 4-byte length, then the
// bytes) off data.
func plainValue(data []byte) (v, rest []byte, err error) {
	if len(data) < 4 || uint64(binary.LittleEndian.Uint32(data)) > uint64(len(data)-4) {
		return nil, nil, errors.New("a PLAIN value longer than its page")
	}
	n := 4 + int(binary.LittleEndian.Uint32(data))
	return data[4:n], data[n:], nil
}

// add appends a value.
func (c *chunk) add(v []byte, h graph.Hash) uint32 {
	c.data = append(c.data, v...)
	c.ends = append(c.ends, uint32(len(c.data)))
	c.hashes = append(c.hashes, h)
	return uint32(len(c.ends) - 1)
}

// plain returns the value v of a plain page, adding it when its hashes
// are new to the chunk (names are told apart by their hashes alone, as
// the graph's table tells them apart). Dictionary entries are found too
// once a rehash has placed them: the same name then has one value.
func (c *chunk) plain(v []byte, b *graph.Builder) uint32 {
	h := b.Hash(v)
	if len(c.slots) < 2*len(c.ends)+2 {
		c.rehash()
	}
	mask := uint64(len(c.slots) - 1)
	for i := h.Bits() & mask; ; i = (i + 1) & mask {
		switch k := c.slots[i]; {
		case k == 0:
			c.slots[i] = c.add(v, h) + 1
			return c.slots[i] - 1
		case c.hashes[k-1] == h:
			return k - 1
		}
	}
}

// rehash sizes the slots for the values there are, and as many again.
func (c *chunk) rehash() {
	c.slots = make([]uint32, max(1024, pow2(4*len(c.ends))))
	mask := uint64(len(c.slots) - 1)
	for k, h := range c.hashes {
		i := h.Bits() & mask
		for c.slots[i] != 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = uint32(k) + 1
	}
}

func pow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

func resize(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n)
	}
	return s[:n]
}

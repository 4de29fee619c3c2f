package parquetin

import "github.com/topicrank/topicrank/stages/graph"

// A chunk's values are its dictionary's entries, held for the whole
// chunk, and the distinct values of its plain pages, which a writer
// whose dictionary grew too large goes on in (DuckDB's and arrow's do).
// The plain values are copied into each slice that uses them, and the
// chunk drops its own once they are many: a row group of 64 M rows
// would otherwise hold every name it holds until its last slice.

// maxPlain is how many plain values a chunk keeps before dropping them
// (a variable for tests).
var maxPlain = 1 << 20

// values are names, one after the other, with their hashes.
type values struct {
	data   []byte   // the values' bytes, one after the other
	ends   []uint32 // where each value's bytes end in data
	hashes []graph.Hash
}

// value returns value k's bytes.
func (v *values) value(k uint32) []byte { return v.data[v.end(k):v.ends[k]] }

// end returns where the first k values end.
func (v *values) end(k uint32) uint32 {
	if k == 0 {
		return 0
	}
	return v.ends[k-1]
}

// add appends a value and returns its index.
func (v *values) add(b []byte, h graph.Hash) uint32 {
	v.data = append(v.data, b...)
	v.ends = append(v.ends, uint32(len(v.data)))
	v.hashes = append(v.hashes, h)
	return uint32(len(v.ends) - 1)
}

func (v *values) reset() { v.data, v.ends, v.hashes = v.data[:0], v.ends[:0], v.hashes[:0] }

// column is one column of a slice of rows: each row's value, or null.
// Values below len(dict.ends) are the chunk's dictionary entries, the
// rest the slice's own plain values, from len(dict.ends) on.
type column struct {
	rows  []uint32
	dict  values // shared with the chunk, which never changes these
	plain values // the slice's own
}

// name returns value k's bytes and hashes.
func (c *column) name(k uint32) ([]byte, graph.Hash) {
	if d := uint32(len(c.dict.ends)); k >= d {
		return c.plain.value(k - d), c.plain.hashes[k-d]
	}
	return c.dict.value(k), c.dict.hashes[k]
}

// base is the index of the chunk's first plain value.
func (c *chunk) base() uint32 { return uint32(max(c.dictLen, 0)) }

// plain returns the index of value v of a plain page, adding it when its
// hashes are new among the chunk's plain values (names are told apart by
// their hashes alone, as the graph's table tells them apart).
func (c *chunk) plain(v []byte, b *graph.Builder) uint32 {
	h := b.Hash(v)
	if len(c.slots) < 2*(len(c.ends)-int(c.base()))+2 {
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

// rehash places the plain values in slots for as many again.
func (c *chunk) rehash() {
	base := int(c.base())
	c.slots = resize(c.slots, max(1024, pow2(4*(len(c.ends)-base))))
	clear(c.slots)
	mask := uint64(len(c.slots) - 1)
	for k := base; k < len(c.hashes); k++ {
		i := c.hashes[k].Bits() & mask
		for c.slots[i] != 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = uint32(k) + 1
	}
}

// take moves the first n rows decoded into out, with the plain values
// they use, and drops the chunk's plain values once they are many.
func (c *chunk) take(n int, out *column) {
	base := c.base()
	out.dict = values{c.data[:c.end(base)], c.ends[:base], c.hashes[:base]}
	out.plain.reset()
	out.rows = c.renumber(c.rows[:n], &out.plain, append(out.rows[:0], c.rows[:n]...))
	c.rows = c.rows[:copy(c.rows, c.rows[n:])]
	if len(c.ends)-int(base) > maxPlain {
		c.compact()
	}
}

// compact keeps only the plain values that rows waiting to be taken use.
func (c *chunk) compact() {
	base := c.base()
	var kept values
	c.renumber(c.rows, &kept, c.rows)
	c.data = append(c.data[:c.end(base)], kept.data...)
	c.ends = c.ends[:base]
	for _, e := range kept.ends {
		c.ends = append(c.ends, c.end(base)+e)
	}
	c.hashes = append(c.hashes[:base], kept.hashes...)
	c.rehash()
}

// renumber copies the plain values that rows use into to, in order of
// first use, and writes rows into out with their plain values numbered
// in to (from base on); out may be rows.
func (c *chunk) renumber(rows []uint32, to *values, out []uint32) []uint32 {
	base := c.base()
	c.local = resize(c.local, len(c.ends)-int(base))
	clear(c.local)
	for i, r := range rows {
		if r != null && r >= base {
			k := r - base
			if c.local[k] == 0 {
				c.local[k] = to.add(c.value(r), c.hashes[r]) + 1
			}
			r = base + c.local[k] - 1
		}
		out[i] = r
	}
	return out
}

func pow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

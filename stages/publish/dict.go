package publish

import (
	"math/bits"
	"slices"

	"github.com/topicrank/topicrank/internal/names"
	"github.com/topicrank/topicrank/internal/parquet"
)

// dictCol is a text column of few distinct values (job, run_id), nearly
// always one value in row after row: it keeps runs of equal values, so a
// row costs a comparison, and makes the indices when a row group is
// written.
type dictCol struct {
	values []string
	index  map[string]int32
	runs   []valueRun
	dict   parquet.Dict // reused from row group to row group
	repeat parquet.Repeat[string]
}

type valueRun struct {
	value int32 // index in values
	n     int
}

func newDictCol() *dictCol { return &dictCol{index: map[string]int32{}} }

// appendN appends n rows of s.
func (c *dictCol) appendN(s string, n int) {
	if k := len(c.runs) - 1; k >= 0 && c.values[c.runs[k].value] == s {
		c.runs[k].n += n
		return
	}
	i, ok := c.index[s]
	if !ok {
		i = int32(len(c.values))
		c.values = append(c.values, names.ValidUTF8(s))
		c.index[s] = i
	}
	c.runs = append(c.runs, valueRun{i, n})
}

// chunk returns the pending rows (a constant, or a dictionary and
// indices) and starts a new row group.
func (c *dictCol) chunk(rows int) parquet.Chunk {
	defer func() { c.values, c.index, c.runs = c.values[:0], map[string]int32{}, c.runs[:0] }()
	if len(c.values) == 1 { // one value: appendN kept it as one run
		c.repeat = parquet.Repeat[string]{Value: c.values[0], Rows: rows}
		return &c.repeat
	}
	c.dict.Reset()
	for _, r := range c.runs {
		for range r.n {
			c.dict.Index = append(c.dict.Index, r.value)
		}
	}
	c.dict.Values = append(c.dict.Values, c.values...)
	return &c.dict
}

// idCol is a page-name column given by vertex id.
type idCol interface {
	Append(v uint32)
	appendIDs(vs []uint32)
	grow(n int)
	dict() *parquet.Dict // the pending rows, to be written, then Reset
}

// pageCol is a page-name column given by vertex id and written plainly:
// each row's name is looked up when the row group is written.
type pageCol struct {
	names []string // by vertex id, cleaned (names.Safe)
	chunk parquet.Dict
}

func (c *pageCol) Append(v uint32) { c.chunk.Index = append(c.chunk.Index, int32(v)) }
func (c *pageCol) appendIDs(vs []uint32) {
	for _, v := range vs {
		c.Append(v)
	}
}
func (c *pageCol) grow(n int) { c.chunk.Grow(n) }

func (c *pageCol) dict() *parquet.Dict {
	c.chunk.Values = c.names // read, never appended to
	return &c.chunk
}

// vertexCol is a page-name column given by vertex id: the row group's
// dictionary is the names of the vertices it holds, in vertex-id order,
// found with no hashing of strings. Appending a row only records the id;
// the dictionary and indices are made when the row group is written, from
// a bitmap of the vertices present (a bit per vertex: 125 KB for a
// million, which stays in cache where a table of indices would not).
type vertexCol struct {
	names []string // by vertex id, cleaned (names.Safe)
	ids   []uint32 // the row group's rows
	bits  []uint64 // by vertex id: present in the row group
	base  []int32  // by word of bits: the dictionary index of its first vertex
	chunk parquet.Dict
}

func newVertexCol(names []string) *vertexCol {
	words := (len(names) + 63) / 64
	return &vertexCol{names: names, bits: make([]uint64, words), base: make([]int32, words)}
}

// Append appends vertex v's name.
func (c *vertexCol) Append(v uint32)       { c.ids = append(c.ids, v) }
func (c *vertexCol) appendIDs(vs []uint32) { c.ids = append(c.ids, vs...) }
func (c *vertexCol) grow(n int) {
	c.ids = slices.Grow(c.ids, n)
	c.chunk.Grow(n)
	c.chunk.Values = slices.Grow(c.chunk.Values, min(n, len(c.names)))
}

// dict returns the pending rows as a dictionary chunk, to be written and
// Reset before the next Append, which starts a new row group.
func (c *vertexCol) dict() *parquet.Dict {
	clear(c.bits)
	for _, v := range c.ids {
		c.bits[v>>6] |= 1 << (v & 63)
	}
	n := int32(0)
	for w, b := range c.bits {
		c.base[w] = n
		n += int32(bits.OnesCount64(b))
		for ; b != 0; b &= b - 1 {
			c.chunk.Values = append(c.chunk.Values, c.names[w*64+bits.TrailingZeros64(b)])
		}
	}
	c.chunk.Index = slices.Grow(c.chunk.Index[:0], len(c.ids))
	for _, v := range c.ids {
		w := v >> 6
		below := c.bits[w] & (1<<(v&63) - 1)
		c.chunk.Index = append(c.chunk.Index, c.base[w]+int32(bits.OnesCount64(below)))
	}
	c.ids = c.ids[:0]
	return &c.chunk
}

package publish

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/topicrank/topicrank/internal/names"
)

// dictCol is a text column of few distinct values (job, run_id): each
// row is an index into the row group's values.
type dictCol struct {
	indices *array.Int32Builder
	values  []string
	index   map[string]int32
	last    string
	lastIdx int32
}

func newDictCol() *dictCol {
	return &dictCol{indices: array.NewInt32Builder(memory.DefaultAllocator), index: map[string]int32{}, lastIdx: -1}
}

func (c *dictCol) append(s string) {
	if c.lastIdx < 0 || s != c.last {
		i, ok := c.index[s]
		if !ok {
			i = int32(len(c.values))
			c.values = append(c.values, names.ValidUTF8(s))
			c.index[s] = i
		}
		c.last, c.lastIdx = s, i
	}
	c.indices.Append(c.lastIdx)
}

// array returns the pending rows as a dictionary array and starts a new
// row group.
func (c *dictCol) array() arrow.Array {
	a := dictArray(c.indices, c.values)
	c.values, c.index, c.lastIdx = c.values[:0], map[string]int32{}, -1
	return a
}

// vertexCol is a page-name column given by vertex id: the row group's
// dictionary is the names of the vertices it holds, in order of first
// appearance, found through an index by id instead of a hash of text.
type vertexCol struct {
	names   []string // by vertex id, cleaned (names.Safe)
	local   []int32  // by vertex id: 1 + index in this row group's dictionary, 0 if none
	used    []uint32 // the vertices of the dictionary, in order
	indices *array.Int32Builder
}

func newVertexCol(names []string) *vertexCol {
	return &vertexCol{names: names, local: make([]int32, len(names)), indices: array.NewInt32Builder(memory.DefaultAllocator)}
}

// Append appends vertex v's name.
func (c *vertexCol) Append(v uint32) {
	i := c.local[v]
	if i == 0 {
		c.used = append(c.used, v)
		i = int32(len(c.used))
		c.local[v] = i
	}
	c.indices.Append(i - 1)
}

func (c *vertexCol) array() arrow.Array {
	values := make([]string, len(c.used))
	for i, v := range c.used {
		values[i] = c.names[v]
		c.local[v] = 0
	}
	c.used = c.used[:0]
	return dictArray(c.indices, values)
}

// dictArray makes a dictionary array of the indices built (emptying the
// builder) over values.
func dictArray(indices *array.Int32Builder, values []string) arrow.Array {
	vb := array.NewStringBuilder(memory.DefaultAllocator)
	defer vb.Release()
	vb.AppendValues(values, nil)
	dict := vb.NewArray()
	defer dict.Release()
	idx := indices.NewArray()
	defer idx.Release()
	return array.NewDictionaryArray(tDict, idx, dict)
}

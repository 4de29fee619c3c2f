package publish

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/topicrank/topicrank/internal/names"
)

// dictCol is a text column of few distinct values (job, run_id), nearly
// always one value in row after row: it keeps runs of equal values, so a
// row costs a comparison, and makes the indices when a row group is
// written.
type dictCol struct {
	values  []string
	index   map[string]int32
	runs    []valueRun
	indices []int32 // reused from row group to row group
}

type valueRun struct {
	value int32 // index in values
	n     int
}

func newDictCol() *dictCol { return &dictCol{index: map[string]int32{}} }

func (c *dictCol) append(s string) {
	if k := len(c.runs) - 1; k >= 0 && c.values[c.runs[k].value] == s {
		c.runs[k].n++
		return
	}
	i, ok := c.index[s]
	if !ok {
		i = int32(len(c.values))
		c.values = append(c.values, names.ValidUTF8(s))
		c.index[s] = i
	}
	c.runs = append(c.runs, valueRun{i, 1})
}

// array returns the pending rows as a dictionary array and starts a new
// row group.
func (c *dictCol) array() arrow.Array {
	c.indices = c.indices[:0]
	for _, r := range c.runs {
		for range r.n {
			c.indices = append(c.indices, r.value)
		}
	}
	a := dictArray(c.indices, c.values)
	c.values, c.index, c.runs = c.values[:0], map[string]int32{}, c.runs[:0]
	return a
}

// vertexCol is a page-name column given by vertex id: the row group's
// dictionary is the names of the vertices it holds, in order of first
// appearance, found by id with no hashing of strings.
type vertexCol struct {
	names   []string // by vertex id, cleaned (names.Safe)
	local   []int32  // by vertex id: 1 + index in this row group's dictionary, 0 if none
	used    []uint32 // the vertices of the dictionary, in order
	indices []int32  // the row group's rows
}

func newVertexCol(names []string) *vertexCol {
	return &vertexCol{names: names, local: make([]int32, len(names))}
}

// Append appends vertex v's name.
func (c *vertexCol) Append(v uint32) {
	i := c.local[v]
	if i == 0 {
		c.used = append(c.used, v)
		i = int32(len(c.used))
		c.local[v] = i
	}
	c.indices = append(c.indices, i-1)
}

// array returns the pending rows and starts a new row group.
func (c *vertexCol) array() arrow.Array {
	values := make([]string, len(c.used))
	for i, v := range c.used {
		values[i] = c.names[v]
		c.local[v] = 0
	}
	c.used = c.used[:0]
	a := dictArray(c.indices, values)
	c.indices = c.indices[:0]
	return a
}

// dictArray makes a dictionary array of indices (copied) over values.
func dictArray(indices []int32, values []string) arrow.Array {
	vb := array.NewStringBuilder(memory.DefaultAllocator)
	defer vb.Release()
	vb.AppendValues(values, nil)
	dict := vb.NewArray()
	defer dict.Release()
	ib := array.NewInt32Builder(memory.DefaultAllocator)
	defer ib.Release()
	ib.AppendValues(indices, nil)
	idx := ib.NewArray()
	defer idx.Release()
	return array.NewDictionaryArray(tDict, idx, dict)
}

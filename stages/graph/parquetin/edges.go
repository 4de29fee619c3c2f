package parquetin

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/topicrank/topicrank/stages/graph"
)

// Reading costs what the edge-list reader's does. Text pairs are decoded
// page by page on every core and each distinct name of a row group is
// interned once (pairs.go); integer ids index a slice when the vertices
// table's ids are dense, as a published degrees table's are. Columns the
// page decoder does not read (other encodings, nesting) go through
// arrow, a dictionary's names interned once per row group. Edges go
// straight into the builder's arrays, sized from the files' row counts
// (see Read).

// readEdges adds the edges of one table to b.
func readEdges(ctx context.Context, path string, b *graph.Builder, names *idMap) error {
	t, err := open(path)
	if err != nil {
		return err
	}
	defer t.close()
	src, dst := t.column("src"), t.column("dst")
	byName := src >= 0 && dst >= 0 && isText(t.schema.Field(src).Type) && isText(t.schema.Field(dst).Type)
	if srcID, dstID := t.column("src_id"), t.column("dst_id"); names != nil && srcID >= 0 && dstID >= 0 {
		byName, src, dst = false, srcID, dstID // a vertices table names the ids: no need to read names
	} else if !byName {
		src, dst = t.column("src_id", "src"), t.column("dst_id", "dst")
	}
	if src < 0 || dst < 0 {
		return fmt.Errorf("%s: no edges: want columns src and dst (text), or src_id and dst_id (integers); it has %s", path, t.columns())
	}
	if byName {
		pf := t.reader.ParquetReader()
		ls, ld := pf.MetaData().Schema.ColumnIndexByName(t.schema.Field(src).Name), pf.MetaData().Schema.ColumnIndexByName(t.schema.Field(dst).Name)
		if ls >= 0 && ld >= 0 && readable(pf, ls, ld) {
			return readPairs(ctx, path, pf, ls, ld, b)
		}
	}
	var s, d vertexColumn
	if byName {
		s, d = &textColumn{b: b}, &textColumn{b: b}
	} else {
		s, d = &idColumn{b: b, names: names}, &idColumn{b: b, names: names}
	}
	row := int64(0)
	return t.rows(ctx, []int{src, dst}, func(rec arrow.RecordBatch) error {
		defer func() { row += rec.NumRows() }()
		for col, c := range []vertexColumn{s, d} {
			if err := c.batch(rec.Column(col)); err != nil {
				return columnError(path, rec.ColumnName(col), row, err)
			}
		}
		for i := range int(rec.NumRows()) { // src then dst, row by row: vertices numbered by first mention, as in an edge list
			u, err := s.vertex(i)
			if err != nil {
				return columnError(path, rec.ColumnName(0), row, rowError{i, err})
			}
			v, err := d.vertex(i)
			if err != nil {
				return columnError(path, rec.ColumnName(1), row, rowError{i, err})
			}
			b.AddEdge(u, v)
		}
		return nil
	})
}

// columnError places err, from a batch starting at row, in the file and
// the column.
func columnError(path, column string, row int64, err error) error {
	re, ok := err.(rowError)
	switch {
	case ok && re.err == errNull:
		return fmt.Errorf("%s: row %d: a null %s", path, row+int64(re.row)+1, column)
	case ok:
		return fmt.Errorf("%s: row %d: %w", path, row+int64(re.row)+1, re.err)
	}
	return fmt.Errorf("%s: column %s: %w", path, column, err)
}

// A vertexColumn gives the vertex of each row of a batch of one endpoint
// column.
type vertexColumn interface {
	batch(a arrow.Array) error
	vertex(i int) (uint32, error)
}

// rowError is an error at a row of the batch.
type rowError struct {
	row int
	err error
}

func (e rowError) Error() string { return fmt.Sprintf("row %d: %v", e.row+1, e.err) }

var errNull = fmt.Errorf("a null")

// textColumn reads names. A dictionary's entries are interned once per
// row group, as rows first use them; plain strings one by one. Each batch
// of a row group carries the row group's whole dictionary in buffers of
// its own, so the entries are looked up again only when the bytes differ
// from the last batch's.
type textColumn struct {
	b       *graph.Builder
	dict    *array.Dictionary // the batch, when a dictionary
	names   func(i int) (string, bool)
	offsets []int32  // the dictionary ids was made for: its offsets from 0
	values  []byte   // and its bytes
	ids     []uint32 // its entries' vertices, +1 (0: not yet used)
}

// seen reports whether d is the dictionary ids was made for, and if not
// keeps a copy of it.
func (c *textColumn) seen(d arrow.Array) bool {
	s, ok := d.(*array.String)
	if !ok {
		c.offsets, c.values = nil, nil
		return false
	}
	offs, vals := s.ValueOffsets(), s.ValueBytes()
	same := len(offs) == len(c.offsets) && bytes.Equal(vals, c.values)
	for i := 0; same && i < len(offs); i++ {
		same = offs[i]-offs[0] == c.offsets[i]
	}
	if !same {
		c.values = append(c.values[:0], vals...)
		c.offsets = c.offsets[:0]
		for _, o := range offs {
			c.offsets = append(c.offsets, o-offs[0])
		}
	}
	return same
}

func (c *textColumn) batch(a arrow.Array) error {
	c.dict = nil
	if d, ok := a.(*array.Dictionary); ok {
		c.dict, a = d, d.Dictionary()
		if !c.seen(a) {
			c.ids = append(c.ids[:0], make([]uint32, a.Len())...)
		}
	}
	var ok bool
	if c.names, ok = texts(a); !ok {
		return fmt.Errorf("%s: want text names or integer ids", a.DataType())
	}
	return nil
}

func (c *textColumn) vertex(i int) (uint32, error) {
	if c.dict == nil {
		n, ok := c.names(i)
		if !ok {
			return 0, errNull
		}
		return c.b.Vertex(n), nil
	}
	if c.dict.IsNull(i) {
		return 0, errNull
	}
	j := c.dict.GetValueIndex(i)
	if c.ids[j] == 0 {
		n, _ := c.names(j)
		c.ids[j] = c.b.Vertex(n) + 1
	}
	return c.ids[j] - 1, nil
}

// texts reads a plain text column; ok is false for another type.
func texts(a arrow.Array) (get func(i int) (string, bool), ok bool) {
	switch a := a.(type) {
	case *array.String:
		return func(i int) (string, bool) { return a.Value(i), a.IsValid(i) }, true
	case *array.LargeString:
		return func(i int) (string, bool) { return a.Value(i), a.IsValid(i) }, true
	case *array.StringView:
		return func(i int) (string, bool) { return a.Value(i), a.IsValid(i) }, true
	}
	return nil, false
}

// nameAt is row i's name in a text column, plain or a dictionary.
func nameAt(a arrow.Array, i int) string {
	if d, ok := a.(*array.Dictionary); ok {
		a, i = d.Dictionary(), d.GetValueIndex(i)
	}
	names, _ := texts(a)
	n, _ := names(i)
	return n
}

func isText(t arrow.DataType) bool {
	switch t := t.(type) {
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return true
	case *arrow.DictionaryType:
		return isText(t.ValueType)
	}
	return false
}

// idColumn reads integer ids: the vertices table's, or vertices named by
// the ids' decimal text.
type idColumn struct {
	b     *graph.Builder
	names *idMap
	ids   func(i int) (int64, bool)
}

func (c *idColumn) batch(a arrow.Array) error {
	var ok bool
	if c.ids, ok = ints(a); !ok {
		return fmt.Errorf("%s: want text names or integer ids", a.DataType())
	}
	return nil
}

func (c *idColumn) vertex(i int) (uint32, error) {
	id, ok := c.ids(i)
	if !ok {
		return 0, errNull
	}
	if c.names == nil {
		return c.b.Vertex(strconv.FormatInt(id, 10)), nil
	}
	v, ok := c.names.get(id)
	if !ok {
		return 0, fmt.Errorf("vertex id %d is not in the vertices table", id)
	}
	return v, nil
}

// ints reads an integer column; ok is false for another type.
func ints(a arrow.Array) (get func(i int) (int64, bool), ok bool) {
	switch a := a.(type) {
	case *array.Int32:
		return func(i int) (int64, bool) { return int64(a.Value(i)), a.IsValid(i) }, true
	case *array.Int64:
		return func(i int) (int64, bool) { return a.Value(i), a.IsValid(i) }, true
	case *array.Uint32:
		return func(i int) (int64, bool) { return int64(a.Value(i)), a.IsValid(i) }, true
	case *array.Int16:
		return func(i int) (int64, bool) { return int64(a.Value(i)), a.IsValid(i) }, true
	}
	return nil, false
}

// idMap maps a vertices table's ids to vertices: a slice while the ids
// are dense (0 to about the number of rows, as a published table's are),
// a map once one is not.
type idMap struct {
	dense  []uint32 // id -> vertex+1 (0: no such id)
	sparse map[int64]uint32
}

func (m *idMap) get(id int64) (uint32, bool) {
	if m.sparse != nil {
		v, ok := m.sparse[id]
		return v, ok
	}
	if id < 0 || id >= int64(len(m.dense)) || m.dense[id] == 0 {
		return 0, false
	}
	return m.dense[id] - 1, true
}

// put records id's vertex, reporting false if id was there already.
func (m *idMap) put(id int64, v uint32, rows int64) bool {
	if m.sparse == nil && id >= 0 && id < 2*max(rows, 1<<10) {
		if id >= int64(len(m.dense)) {
			m.dense = append(m.dense, make([]uint32, int(id)+1-len(m.dense))...)
		}
		if m.dense[id] != 0 {
			return false
		}
		m.dense[id] = v + 1
		return true
	}
	if m.sparse == nil { // an id too large for a slice: every id into a map
		m.sparse = make(map[int64]uint32, len(m.dense))
		for k, w := range m.dense {
			if w != 0 {
				m.sparse[int64(k)] = w - 1
			}
		}
		m.dense = nil
	}
	if _, dup := m.sparse[id]; dup {
		return false
	}
	m.sparse[id] = v
	return true
}

// readVertices adds the vertices table's rows to b, in order, and returns
// their ids.
func readVertices(ctx context.Context, path string, b *graph.Builder) (*idMap, error) {
	t, err := open(path)
	if err != nil {
		return nil, err
	}
	defer t.close()
	id, name := t.column("vertex_id", "id"), t.column("page", "name")
	if id < 0 || name < 0 || !isText(t.schema.Field(name).Type) {
		return nil, fmt.Errorf("%s: not a vertices table: want an integer vertex_id (or id) and a text page (or name); it has %s", path, t.columns())
	}
	out := &idMap{}
	row := int64(0)
	names := &textColumn{b: b}
	err = t.rows(ctx, []int{id, name}, func(rec arrow.RecordBatch) error {
		defer func() { row += rec.NumRows() }()
		ids, ok := ints(rec.Column(0))
		if !ok {
			return fmt.Errorf("%s: column %s is %s: want integers", path, rec.ColumnName(0), rec.Column(0).DataType())
		}
		if err := names.batch(rec.Column(1)); err != nil {
			return columnError(path, rec.ColumnName(1), row, err)
		}
		for i := range int(rec.NumRows()) {
			before := b.NumVertices()
			v, err := names.vertex(i)
			k, ok := ids(i)
			switch {
			case err != nil:
				return columnError(path, rec.ColumnName(1), row, rowError{i, err})
			case !ok:
				return fmt.Errorf("%s: row %d: a null %s", path, row+int64(i)+1, rec.ColumnName(0))
			case int(v) != before:
				return fmt.Errorf("%s: row %d: vertex %q twice", path, row+int64(i)+1, nameAt(rec.Column(1), i))
			case !out.put(k, v, t.rowCount):
				return fmt.Errorf("%s: row %d: vertex id %d twice", path, row+int64(i)+1, k)
			}
		}
		return nil
	})
	return out, err
}

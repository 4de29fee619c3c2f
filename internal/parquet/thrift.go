package parquet

import "encoding/binary"

// compact writes Thrift's compact protocol, the encoding of Parquet's page
// headers and footer: only the types those use. Fields must be written
// in increasing id order within a struct, as the delta encoding of field
// ids expects.
type compact struct {
	buf  []byte
	last []int16 // the id of the last field written, per open struct
}

// Compact protocol type ids.
const (
	ctTrue   = 1
	ctFalse  = 2
	ctI16    = 4
	ctI32    = 5
	ctI64    = 6
	ctBinary = 8
	ctList   = 9
	ctStruct = 12
)

// begin opens a struct: the top-level one, a list element, or (after
// structField) a field.
func (c *compact) begin() { c.last = append(c.last, 0) }

// end closes the open struct with a stop byte.
func (c *compact) end() {
	c.buf = append(c.buf, 0)
	c.last = c.last[:len(c.last)-1]
}

func (c *compact) field(id int16, typ byte) {
	last := &c.last[len(c.last)-1]
	if d := id - *last; d > 0 && d <= 15 {
		c.buf = append(c.buf, byte(d)<<4|typ)
	} else {
		c.buf = append(c.buf, typ)
		c.buf = binary.AppendUvarint(c.buf, zigzag(int64(id)))
	}
	*last = id
}

func zigzag(n int64) uint64 { return uint64(n<<1) ^ uint64(n>>63) }

func (c *compact) i32(id int16, v int32) {
	c.field(id, ctI32)
	c.buf = binary.AppendUvarint(c.buf, zigzag(int64(v)))
}

func (c *compact) i16(id int16, v int16) {
	c.field(id, ctI16)
	c.buf = binary.AppendUvarint(c.buf, zigzag(int64(v)))
}

func (c *compact) i64(id int16, v int64) {
	c.field(id, ctI64)
	c.buf = binary.AppendUvarint(c.buf, zigzag(v))
}

func (c *compact) bool(id int16, v bool) {
	if v {
		c.field(id, ctTrue)
	} else {
		c.field(id, ctFalse)
	}
}

func (c *compact) binary(id int16, b []byte) {
	c.field(id, ctBinary)
	c.bytes(b)
}

func (c *compact) string(id int16, s string) { c.binary(id, []byte(s)) }

// bytes writes a binary value without a field header: a list element.
func (c *compact) bytes(b []byte) {
	c.buf = binary.AppendUvarint(c.buf, uint64(len(b)))
	c.buf = append(c.buf, b...)
}

// structField opens a struct-valued field; end closes it.
func (c *compact) structField(id int16) {
	c.field(id, ctStruct)
	c.begin()
}

// list writes a list field's header; its n elements follow, each written
// with elem (i32Elem, bytes, or begin...end for structs).
func (c *compact) list(id int16, elem byte, n int) {
	c.field(id, ctList)
	if n < 15 {
		c.buf = append(c.buf, byte(n)<<4|elem)
	} else {
		c.buf = append(c.buf, 0xF0|elem)
		c.buf = binary.AppendUvarint(c.buf, uint64(n))
	}
}

// i32Elem writes an i32 list element.
func (c *compact) i32Elem(v int32) { c.buf = binary.AppendUvarint(c.buf, zigzag(int64(v))) }

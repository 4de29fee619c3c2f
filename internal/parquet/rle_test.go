package parquet

import (
	"bytes"
	"testing"
)

// Encodings checked by hand against parquet-format's Encodings.md.
func TestHybridByHand(t *testing.T) {
	for _, tc := range []struct {
		name  string
		vals  []int32
		width int
		want  []byte
	}{
		// The bit-packing example of Encodings.md: 0..7 in 3 bits.
		{"packed", []int32{0, 1, 2, 3, 4, 5, 6, 7}, 3, []byte{0x03, 0x88, 0xC6, 0xFA}},
		// A partial last group is padded with zeros.
		{"padded", []int32{1, 1, 0}, 1, []byte{0x03, 0x03}},
		// Ten 5s: one RLE run, count<<1 = 20, the value in one byte.
		{"run", []int32{5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, 3, []byte{0x14, 0x05}},
		// A run of eight at a group boundary after a packed group; the
		// value takes two bytes at width 9.
		{"packed then run", []int32{1, 2, 3, 4, 5, 6, 7, 8, 300, 300, 300, 300, 300, 300, 300, 300}, 9,
			append(append([]byte{0x03}, pack9(1, 2, 3, 4, 5, 6, 7, 8)...), 0x10, 0x2C, 0x01)},
		// A run that starts mid-group fills the group, then runs on.
		{"run mid-group", []int32{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1,
			[]byte{0x03, 0x01, 0x14, 0x00}},
		{"empty", nil, 4, nil},
	} {
		if got := appendHybrid(nil, tc.vals, tc.width); !bytes.Equal(got, tc.want) {
			t.Errorf("%s: got % x, want % x", tc.name, got, tc.want)
		}
	}
}

// pack9 packs eight values in 9 bits each, least significant bit first.
func pack9(vals ...int) []byte {
	var out []byte
	var acc, n uint
	for _, v := range vals {
		acc |= uint(v) << n
		for n += 9; n >= 8; n -= 8 {
			out = append(out, byte(acc))
			acc >>= 8
		}
	}
	return out
}

// A bit-packed run holds at most 63 groups, so its header is one byte.
func TestHybridLongPackedRun(t *testing.T) {
	vals := make([]int32, 63*8+8)
	for i := range vals {
		vals[i] = int32(i % 2)
	}
	got := appendHybrid(nil, vals, 1)
	want := append([]byte{63<<1 | 1}, bytes.Repeat([]byte{0xAA}, 63)...)
	want = append(want, 0x03, 0xAA)
	if !bytes.Equal(got, want) {
		t.Errorf("got % x, want % x", got, want)
	}
}

func TestBitWidth(t *testing.T) {
	for n, want := range map[int]int{0: 1, 1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 256: 8, 257: 9, 1 << 20: 20, 1<<20 + 1: 21} {
		if got := bitWidth(n); got != want {
			t.Errorf("bitWidth(%d) = %d, want %d", n, got, want)
		}
	}
}

// Thrift compact protocol bytes, checked by hand: short and long field
// deltas, zigzag varints, booleans in the type nibble, lists and nesting.
func TestCompactByHand(t *testing.T) {
	var c compact
	c.begin()
	c.i32(1, -3)          // 0x15, zigzag(-3) = 5
	c.bool(2, true)       // 0x11
	c.i64(20, 300)        // delta 18 > 15: 0x06, zigzag(20) = 40 = 0x28, zigzag(300) = 600 = 0xD8 0x04
	c.list(21, ctI32, 2)  // 0x19, 0x25
	c.i32Elem(1)          // 0x02
	c.i32Elem(-1)         // 0x01
	c.structField(22)     // 0x1C
	c.string(1, "ab")     // 0x18 0x02 'a' 'b'
	c.end()               // 0x00
	c.list(23, ctI32, 15) // long list: 0x19, 0xF5, 0x0F
	c.end()
	want := []byte{0x15, 0x05, 0x11, 0x06, 0x28, 0xD8, 0x04, 0x19, 0x25, 0x02, 0x01, 0x1C, 0x18, 0x02, 'a', 'b', 0x00, 0x19, 0xF5, 0x0F, 0x00}
	if !bytes.Equal(c.buf, want) {
		t.Errorf("got  % x\nwant % x", c.buf, want)
	}
}

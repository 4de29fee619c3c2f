package parquet

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Whatever the encoder writes decodes to the values it was given: runs,
// packed groups and their mixtures, at every width, with the last group
// padded.
func TestDecodeHybridRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for width := 1; width <= 31; width++ {
		for _, n := range []int{0, 1, 7, 8, 9, 63 * 8, 63*8 + 1, 5000} {
			vals := make([]int32, n)
			for i := range vals {
				if r.IntN(3) > 0 { // noise, and runs of repeats
					vals[i] = int32(r.Uint32() & (1<<width - 1))
				} else if i > 0 {
					vals[i] = vals[i-1]
				}
			}
			data := appendHybrid(nil, vals, width)
			out := make([]uint32, n)
			used, err := DecodeHybrid(data, width, out)
			if err != nil || used != len(data) {
				t.Fatalf("width %d, %d values: read %d of %d bytes: %v", width, n, used, len(data), err)
			}
			for i := range vals {
				if out[i] != uint32(vals[i]) {
					t.Fatalf("width %d, %d values: value %d is %d, want %d", width, n, i, out[i], vals[i])
				}
			}
		}
	}
}

// The hand-checked encodings of TestHybridByHand decode back, and width
// 0 (a dictionary of one value, as some writers give it) decodes zeros.
func TestDecodeHybridByHand(t *testing.T) {
	out := make([]uint32, 8)
	if _, err := DecodeHybrid([]byte{0x03, 0x88, 0xC6, 0xFA}, 3, out); err != nil || !slices.Equal(out, []uint32{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("packed 0..7 in 3 bits: %v, %v", out, err)
	}
	out = make([]uint32, 10)
	if _, err := DecodeHybrid([]byte{0x14, 0x05}, 3, out); err != nil || slices.ContainsFunc(out, func(v uint32) bool { return v != 5 }) {
		t.Errorf("a run of ten 5s: %v, %v", out, err)
	}
	out = []uint32{9, 9, 9}
	if _, err := DecodeHybrid([]byte{0x06}, 0, out); err != nil || !slices.Equal(out, []uint32{0, 0, 0}) {
		t.Errorf("width 0: %v, %v", out, err)
	}
}

// Malformed data is an error, never a panic or a read past the end.
func TestDecodeHybridRefuses(t *testing.T) {
	for _, c := range []struct {
		data  []byte
		width int
		want  string
	}{
		{nil, 3, "ends before"},
		{[]byte{0x14}, 9, "ends before"},                         // a run without its value
		{[]byte{0x05, 0xFF}, 3, "ends before"},                   // two groups, one byte
		{[]byte{0x14, 0x09}, 3, "exceeds 3 bits"},                // a run value too wide
		{[]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, 3, "ends before"}, // a header without end
		{[]byte{0x00, 0x00, 0x00}, 3, "ends before"},             // empty runs to the end
		{[]byte{0x02}, 33, "bit width 33"},
	} {
		_, err := DecodeHybrid(c.data, c.width, make([]uint32, 10))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("% x at width %d: %v, want %q", c.data, c.width, err, c.want)
		}
	}
}

func FuzzDecodeHybrid(f *testing.F) {
	f.Add([]byte{0x03, 0x88, 0xC6, 0xFA}, 3, 8)
	f.Add([]byte{0x14, 0x05}, 3, 10)
	f.Fuzz(func(t *testing.T, data []byte, width, n int) {
		if n < 0 || n > 1<<16 {
			return
		}
		out := make([]uint32, n)
		used, err := DecodeHybrid(data, width%40, out)
		if used > len(data) {
			t.Fatalf("read %d of %d bytes", used, len(data))
		}
		if err == nil && width%40 < 32 && width%40 >= 0 {
			for _, v := range out {
				if v >= 1<<(width%40) {
					t.Fatalf("value %d wider than %d bits", v, width%40)
				}
			}
		}
	})
}

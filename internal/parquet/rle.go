package parquet

import (
	"encoding/binary"
	"math"
)

// maxPackedGroups bounds a bit-packed run to 63 groups of eight values, so
// that its header is one byte, as parquet-cpp and arrow-go write them.
const maxPackedGroups = 63

// appendHybrid appends vals, each below 1<<width, in Parquet's RLE /
// bit-packing hybrid encoding. A run of eight or more equal values that
// starts at a group boundary becomes an RLE run; everything else is
// bit-packed in groups of eight, the last group padded with zeros.
func appendHybrid[T ~uint8 | ~int32](dst []byte, vals []T, width int) []byte {
	start := 0 // the first value not yet written, which begins a group
	for i := 0; i < len(vals); {
		if (i-start)%8 != 0 {
			i = min(len(vals), start+(i-start+7)/8*8)
			continue
		}
		j := i + 1
		for j < len(vals) && vals[j] == vals[i] {
			j++
		}
		if j-i < 8 {
			i = j
			continue
		}
		dst = appendPacked(dst, vals[start:i], width)
		dst = appendRun(dst, j-i, uint32(vals[i]), width)
		i, start = j, j
	}
	return appendPacked(dst, vals[start:], width)
}

// appendRun appends n copies of v as RLE runs (none for n = 0).
func appendRun(dst []byte, n int, v uint32, width int) []byte {
	for n > 0 {
		k := min(n, math.MaxInt32) // a run's count fits readers' 32 bits
		dst = binary.AppendUvarint(dst, uint64(k)<<1)
		for b := 0; b < width; b += 8 {
			dst = append(dst, byte(v>>b))
		}
		n -= k
	}
	return dst
}

// appendPacked appends vals as bit-packed runs, least significant bit
// first. len(vals) is a multiple of eight unless vals ends the data.
func appendPacked[T ~uint8 | ~int32](dst []byte, vals []T, width int) []byte {
	for len(vals) > 0 {
		groups := min((len(vals)+7)/8, maxPackedGroups)
		n := min(len(vals), groups*8)
		dst = append(dst, byte(groups<<1|1))
		var acc uint64
		bits := 0
		for _, v := range vals[:n] {
			acc |= uint64(uint32(v)) << bits
			bits += width
			for bits >= 8 {
				dst = append(dst, byte(acc))
				acc >>= 8
				bits -= 8
			}
		}
		// Pad the last group to eight values.
		for bits += (groups*8 - n) * width; bits > 0; bits -= 8 {
			dst = append(dst, byte(acc))
			acc >>= 8
		}
		vals = vals[n:]
	}
	return dst
}

// bitWidth is the width of the indices into a dictionary of n values: at
// least 1, as other writers do for a dictionary of one value.
func bitWidth(n int) int {
	w := 1
	for n-1 >= 1<<w {
		w++
	}
	return w
}

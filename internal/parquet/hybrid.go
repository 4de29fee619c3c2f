package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// DecodeHybrid decodes len(out) values of width bits (0 to 32) from data
// in Parquet's RLE / bit-packing hybrid encoding: the definition levels
// and dictionary indices of a data page. It returns the bytes it read.
// Malformed data is an error, never a read out of bounds; a run that
// holds more values than out needs is cut short (writers pad the last
// bit-packed group).
func DecodeHybrid(data []byte, width int, out []uint32) (int, error) {
	if width < 0 || width > 32 {
		return 0, fmt.Errorf("hybrid encoding: bit width %d (want 0 to 32)", width)
	}
	at, n := 0, 0
	for n < len(out) {
		h, k := binary.Uvarint(data[at:])
		if k <= 0 {
			return at, errShortHybrid
		}
		at += k
		if h&1 == 0 { // an RLE run: a count, then the value in whole bytes
			size := (width + 7) / 8
			if at+size > len(data) {
				return at, errShortHybrid
			}
			var v uint32
			for i := range size {
				v |= uint32(data[at+i]) << (8 * i)
			}
			at += size
			if width < 32 && v >= 1<<width {
				return at, fmt.Errorf("hybrid encoding: run value %d exceeds %d bits", v, width)
			}
			run := out[n : n+int(min(h>>1, uint64(len(out)-n)))]
			for i := range run {
				run[i] = v
			}
			n += len(run)
			continue
		}
		groups := h >> 1 // a bit-packed run: groups of eight values
		if groups > uint64(len(data)) {
			return at, errShortHybrid
		}
		size := int(groups) * width
		if at+size > len(data) {
			return at, errShortHybrid
		}
		n += unpack(data[at:at+size], width, out[n:min(len(out), n+8*int(groups))])
		at += size
	}
	return at, nil
}

var errShortHybrid = errors.New("hybrid encoding: data ends before its values")

// unpack reads len(out) values of width bits from packed, least
// significant bit first, and returns how many.
func unpack(packed []byte, width int, out []uint32) int {
	mask := uint64(1)<<width - 1
	for i := range out {
		bit := i * width
		var word uint64
		if at := bit >> 3; at+8 <= len(packed) {
			word = binary.LittleEndian.Uint64(packed[at:])
		} else {
			var b [8]byte
			copy(b[:], packed[at:])
			word = binary.LittleEndian.Uint64(b[:])
		}
		out[i] = uint32(word >> (bit & 7) & mask)
	}
	return len(out)
}

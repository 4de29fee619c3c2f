package graph

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math/bits"
)

// partBits sets how many partitions the names are hashed into. Each
// partition has an interning table of its own, small enough to stay in
// cache, and the partitions are interned in parallel.
const (
	partBits = 8
	parts    = 1 << partBits
)

// piece is a run of whole lines of a window, parsed by one worker. Its
// endpoints (2k the source of its k'th edge, 2k+1 the target) are grouped
// by partition so that interning reads each partition's names in one
// sweep.
type piece struct {
	data []byte

	// Parsed.
	lines   int      // lines in data, up to and including a bad one
	edges   int      // edges before a bad line
	lineOf  []uint32 // line of each edge, counted from 1 within data
	errLine int      // line of the first bad line, counted from 1 within data; 0 if none
	errMsg  string
	raw     []rawName // each endpoint's name, in line order

	// Grouped.
	part  []uint8 // partition of each endpoint
	start [parts + 1]int32
	ents  []entry  // partition p's endpoints are ents[start[p]:start[p+1]], in line order
	ids   []uint32 // interned ids of ents (see table.intern)

	// Placed in the input, between parsing and interning.
	firstLine int // lines before data
	base      int // edges before data
}

// rawName is an endpoint's name and two hashes of it under independent
// seeds: hash places it (partition, slot, tag) and check tells it apart
// from another name with the same tag, so that interning never reads the
// name again unless it is new (see table).
type rawName struct {
	hash, check uint64
	off, end    uint32 // the name is data[off:end]
}

// entry is an endpoint's name, grouped by partition.
type entry struct {
	rawName
	pos uint32 // the endpoint's index in the piece
}

// parse splits data into edges and hashes their names. It stops at the
// first malformed line.
func (pc *piece) parse(seed, check maphash.Seed) {
	b := pc.data
	pc.lines, pc.edges, pc.errLine, pc.errMsg = 0, 0, 0, ""
	pc.raw, pc.lineOf = pc.raw[:0], pc.lineOf[:0]
	for i := 0; i < len(b); {
		start := i
		pc.lines++
		i = blanks(b, i)
		if i < len(b) && b[i] != '#' && !isEOL(b[i]) {
			u0 := i
			i = sep(b, i)
			u1 := i
			v0 := blanks(b, i)
			v1 := sep(b, v0)
			i = blanks(b, v1)
			if v1 == v0 || i < len(b) && !isEOL(b[i]) || i-start >= MaxLine {
				pc.fail(start)
				return
			}
			pc.raw = append(pc.raw,
				rawName{maphash.Bytes(seed, b[u0:u1]), maphash.Bytes(check, b[u0:u1]), uint32(u0), uint32(u1)},
				rawName{maphash.Bytes(seed, b[v0:v1]), maphash.Bytes(check, b[v0:v1]), uint32(v0), uint32(v1)})
			pc.lineOf = append(pc.lineOf, uint32(pc.lines))
			pc.edges++
		} else if i = eol(b, i); i-start >= MaxLine {
			pc.fail(start)
			return
		}
		i = pastEOL(b, i)
	}
}

// pastEOL returns the index after the line ending at b[i] (CRLF is one
// ending), or len(b) past the end.
func pastEOL(b []byte, i int) int {
	if i < len(b) && b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
		i++
	}
	return min(i+1, len(b))
}

// fail records the line starting at data[start] as the first bad one.
func (pc *piece) fail(start int) {
	end := eol(pc.data, start)
	line := bytes.TrimRight(pc.data[start:end], " \t")
	pc.errLine = pc.lines
	if end-start >= MaxLine {
		pc.errMsg = fmt.Sprintf("longer than %d bytes: not an edge list?", MaxLine)
	} else {
		pc.errMsg = fmt.Sprintf("want \"u v\", got %q", clip(line))
	}
}

// group orders the endpoints by partition (a stable counting sort).
func (pc *piece) group() {
	var count [parts]int32
	for _, r := range pc.raw {
		count[r.hash>>(64-partBits)]++
	}
	var next [parts]int32
	for p := range parts {
		pc.start[p+1] = pc.start[p] + count[p]
		next[p] = pc.start[p]
	}
	n := len(pc.raw)
	pc.part = resize(pc.part, n)
	pc.ents = resize(pc.ents, n)
	pc.ids = resize(pc.ids, n)
	for i, r := range pc.raw {
		p := r.hash >> (64 - partBits)
		pc.ents[next[p]] = entry{r, uint32(i)}
		next[p]++
		pc.part[i] = uint8(p)
	}
}

// emit writes the interned ends of the piece's edges, in line order.
func (pc *piece) emit(src, dst []uint32) {
	var next [parts]int32
	copy(next[:], pc.start[:parts])
	for k := range src {
		p := pc.part[2*k]
		src[k] = pc.ids[next[p]]
		next[p]++
		p = pc.part[2*k+1]
		dst[k] = pc.ids[next[p]]
		next[p]++
	}
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func isEOL(c byte) bool { return c == '\n' || c == '\r' }

// blanks returns the index of the first byte at or after i that is not a
// blank or tab.
func blanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// eol returns the index of the first CR or LF at or after i, or len(b).
func eol(b []byte, i int) int {
	for i = sep(b, i); i < len(b) && !isEOL(b[i]); i = sep(b, i+1) {
	}
	return i
}

// isSep reports whether c ends a name: a blank, tab, CR or LF.
func isSep(c byte) bool {
	const separators = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\r'
	return c <= ' ' && separators>>c&1 != 0
}

// sep returns the index of the first blank, tab, CR or LF at or after i,
// or len(b). It tests eight bytes at a time for one below 0x21, then
// checks the candidates: names are short, and this is the parser's inner
// loop.
func sep(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// The lowest flagged byte is exactly the first byte below 0x21;
		// a borrow may flag others above it, which the check skips.
		for m := (x - 0x21*ones) &^ x & highs; m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)>>3
			if isSep(b[j]) {
				return j
			}
		}
	}
	for ; i < len(b); i++ {
		if isSep(b[i]) {
			return i
		}
	}
	return len(b)
}

package graph

import (
	"fmt"
	"hash/maphash"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/topicrank/topicrank/internal/hugepages"
	"github.com/topicrank/topicrank/internal/parallel"
)

// Sizes of the parallel reader's work. A window is read, then its pieces
// are parsed on all cores, then its partitions are interned on all cores,
// then its edges are written out; the next window follows.
const (
	windowSize = 32 << 20
	pieceSize  = 256 << 10
)

// edgeReader turns windows of edge lines into edges between vertex ids
// assigned in order of first mention, using every core: each piece of a
// window is parsed by one worker, each hash partition of the names is
// interned by one worker, and the local ids of the partitions are mapped
// to first-mention ids once the whole input is read.
type edgeReader struct {
	seed      maphash.Seed // of the names' hashes
	check     maphash.Seed // of their check hashes: independent of seed
	header    int          // -1 without one
	lenient   bool
	pieceSize int

	tables   [parts]table
	pieces   []*piece               // reused from window to window
	src, dst []uint32               // interned ids (see table.intern) until finish
	lines    int                    // lines before the current window (the header's included)
	named    int                    // distinct names so far
	size     func(read int64) int64 // the input's likely size once read bytes are read (0: unknown)
	read     int64                  // bytes of windows so far
	reserved bool                   // the edge arrays are sized for the whole input
}

// newEdgeReader returns a reader for a list of likely size (see
// inputSize) whose header (-1 if none) and first lines are read.
func newEdgeReader(header int, lenient bool, lines int, size func(int64) int64) *edgeReader {
	er := &edgeReader{seed: maphash.MakeSeed(), check: maphash.MakeSeed(), header: header, lenient: lenient, pieceSize: pieceSize, lines: lines, size: size}
	for p := range er.tables {
		er.tables[p] = newTable() // they grow as needed: a guess too big would cost cache misses
	}
	return er
}

// grow makes room for edges edges in all. As soon as the input's size is
// known (a plain file's on the first window, a compressed file's once
// enough of it is read) it reserves room for as many as the whole input
// holds at the density so far, and 5% more, so that the edge arrays are
// not copied as they grow: a copy would hold them twice.
func (er *edgeReader) grow(edges int) {
	if size := er.size(er.read); !er.reserved && er.read > 0 && size > er.read {
		guess := max(edges, int(float64(edges)*float64(size)/float64(er.read)*1.05))
		from := len(er.src)
		src, dst := make([]uint32, from, guess), make([]uint32, from, guess)
		copy(src, er.src)
		copy(dst, er.dst)
		er.src, er.dst, er.reserved = src, dst, true
		hugepages.Advise(er.src[:guess])
		hugepages.Advise(er.dst[:guess])
	}
	from := len(er.src)
	er.src, er.dst = slices.Grow(er.src, edges-from)[:edges], slices.Grow(er.dst, edges-from)[:edges]
}

// window reads the edges of one window of whole lines. It returns the
// first error in line order: a malformed line, or a vertex beyond the
// header's count.
func (er *edgeReader) window(data []byte) error {
	pieces := er.split(data)
	parallel.For(len(pieces), func(i int) {
		pieces[i].parse(er.seed, er.check)
		pieces[i].group()
	})
	var bad *piece
	edges := len(er.src)
	for i, pc := range pieces {
		pc.firstLine, pc.base = er.lines, edges
		er.lines += pc.lines
		edges += pc.edges
		if pc.errLine > 0 {
			pieces, bad = pieces[:i+1], pc
			break
		}
	}
	var before [parts]int
	for p := range er.tables {
		before[p] = len(er.tables[p].names)
	}
	parallel.For(parts, func(p int) { er.tables[p].intern(p, pieces) })
	named := er.named
	for p := range er.tables {
		if err := er.tables[p].err; err != nil {
			return err
		}
		er.named += len(er.tables[p].names) - before[p]
	}
	if er.header >= 0 && er.named > er.header && !er.lenient {
		return &SyntaxError{er.lineNamingVertex(er.header-named, before, pieces), fmt.Sprintf("a name here is the %s distinct vertex, beyond the header's count of %d (fix the header, or use -lenient to accept)", ordinal(er.header+1), er.header)}
	}
	er.read += int64(len(data))
	er.grow(edges)
	parallel.For(len(pieces), func(i int) {
		pc := pieces[i]
		pc.emit(er.src[pc.base:pc.base+pc.edges], er.dst[pc.base:pc.base+pc.edges])
	})
	if bad != nil {
		return &SyntaxError{bad.firstLine + bad.errLine, bad.errMsg}
	}
	return nil
}

// split cuts a window into pieces of about pieceSize bytes of whole lines.
func (er *edgeReader) split(data []byte) []*piece {
	n := 0
	for len(data) > 0 {
		end := len(data)
		if end > er.pieceSize {
			end = pastEOL(data, eol(data, er.pieceSize-1))
		}
		if n == len(er.pieces) {
			er.pieces = append(er.pieces, new(piece))
		}
		er.pieces[n].data = data[:end]
		data = data[end:]
		n++
	}
	return er.pieces[:n]
}

// lineNamingVertex returns the line of the k'th name (from 0) first named
// in this window.
func (er *edgeReader) lineNamingVertex(k int, before [parts]int, pieces []*piece) int {
	var firsts []uint64
	for p := range er.tables {
		firsts = append(firsts, er.tables[p].first[before[p]:]...)
	}
	slices.Sort(firsts)
	edge := int(firsts[k] / 2)
	for _, pc := range pieces {
		if edge < pc.base+pc.edges {
			return pc.firstLine + int(pc.lineOf[edge-pc.base])
		}
	}
	panic("graph: a first mention outside the window")
}

// finish maps the interned ids of the edges to ids in order of first
// mention, and returns the names by those ids, with room for the unnamed
// vertices a header's count of vertices adds (as many as it may add).
// The names share one arena (one allocation instead of one per name: 6.5
// M names took 0.2 GB more and half a second of allocations). The reader
// must not be used afterwards.
func (er *edgeReader) finish(vertices int) (names []string, src, dst []uint32) {
	// Mark the endpoints that first named a vertex; a vertex's id is the
	// number of marks before its own.
	endpoints := 2 * uint64(len(er.src))
	marks := make([]uint64, (endpoints+63)/64)
	for p := range er.tables {
		for _, e := range er.tables[p].first {
			marks[e/64] |= 1 << (e % 64)
		}
	}
	ranks := make([]uint32, len(marks)) // marks before each word
	n := uint32(0)
	for i, m := range marks {
		ranks[i] = n
		n += uint32(bits.OnesCount64(m))
	}
	var base [parts]uint32 // partition p's local ids index ids[base[p]:]
	for p := 1; p < parts; p++ {
		base[p] = base[p-1] + uint32(len(er.tables[p-1].names))
	}
	ids := make([]uint32, n)
	off := make([]int, n+1) // name lengths by id, then their offsets in the arena
	parallel.For(parts, func(p int) {
		t := &er.tables[p]
		for local, e := range t.first {
			id := ranks[e/64] + uint32(bits.OnesCount64(marks[e/64]&(1<<(e%64)-1)))
			ids[base[p]+uint32(local)] = id
			off[id+1] = int(t.names[local].n)
		}
	})
	marks, ranks = nil, nil
	for i := range n {
		off[i+1] += off[i]
	}
	arena := make([]byte, off[n])
	names = make([]string, n, max(int(n), min(vertices, int(n)+MaxIsolated(int(n)))))
	parallel.For(parts, func(p int) {
		t := &er.tables[p]
		for local, s := range t.names {
			id := ids[base[p]+uint32(local)]
			name := arena[off[id]:off[id+1]]
			copy(name, t.arena[s.off:s.off+s.n])
			// The bytes are never written again: the string may share them.
			names[id] = unsafe.String(unsafe.SliceData(name), len(name))
		}
		*t = table{}
	})
	const chunk = 1 << 16
	parallel.For((len(er.src)+chunk-1)/chunk, func(c int) {
		lo, hi := c*chunk, min(len(er.src), (c+1)*chunk)
		for _, s := range [2][]uint32{er.src[lo:hi], er.dst[lo:hi]} {
			for i, x := range s {
				s[i] = ids[base[x%parts]+x>>partBits]
			}
		}
	})
	src, dst = er.src, er.dst
	er.src, er.dst = nil, nil
	return names, src, dst
}

// ordinal writes n as "3rd", "21st".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

package rank

import "github.com/topicrank/topicrank/stages/graph"

// The pull along in-edges reads one contribution per edge at a random
// source. On a graph whose contributions do not fit in a core's L2 cache
// (2 MiB holds 256 Ki vertices) nearly every read misses, and the kernel
// runs at the machine's random-read rate. The tiling below regroups the
// in-edges so that each read hits L2 instead (2D cache blocking, as in
// Zhang et al., "Making caches work for graph analytics", 2017):
//
//   - Destinations are cut into blocks of consecutive vertices, at most
//     1<<dstBits wide (their sums, 512 KiB, stay in L2) and about
//     blockEdges in-edges each, so blocks are equal work for the workers.
//   - Sources are cut into segments of 1<<srcBits vertices (256 KiB of
//     contributions: random reads over 64 pages of 4 KiB, which the L1
//     TLB holds; 512 KiB segments measured 20% slower).
//   - A tile is the edges from one segment into one block, sorted by
//     destination, then source. A block's tiles are processed in segment
//     order, so each destination still sums its sources in increasing
//     order, whatever the blocks and the number of cores.
//
// An edge packs into 32 bits: the source's offset in its segment above
// the destination's offset in its half of the block, 16 bits each (a
// tile's edges into the upper half follow those into the lower, as they
// are sorted by destination, and are summed into sums[1<<16:]). Both
// offsets index arrays of 1<<16 (the contributions are padded for it), so
// an edge costs six instructions and no bounds check: load, zero-extend,
// load, shift, add, store (with the halves the other way round, the
// compiler spends a seventh on a register copy). Loading the halves as two
// uint16 saves one more but measured 7-10% slower; blocks of 1<<16 destinations
// instead of halves, 10% slower (more blocks read every segment of
// contributions again). The tiling costs 4 bytes per edge.
const (
	srcBits    = 15
	dstBits    = 17
	halfBits   = 16
	blockEdges = 1 << 20
)

// segmentSize is the number of sources in a segment.
const segmentSize = 1 << srcBits

// A tiling is the in-edges of a graph regrouped into tiles.
type tiling struct {
	blocks   []int    // block b holds destinations blocks[b] to blocks[b+1]-1
	segments int      // number of source segments
	tiles    []int    // tile (b, s) is edges i in tiles[b*segments+s] <= i < tiles[b*segments+s+1]
	halves   []int    // and its edges into the block's upper half start at halves[b*segments+s]
	edges    []uint32 // source offset << 16 | destination offset (in its half)
}

// newTiling builds the tiling of g's in-edges. A block's tiles hold the
// same edges as its destinations' in-adjacency, so they are written over
// it, block by block: the tiling costs no memory beyond the in-adjacency
// InEdges builds and one block's copy.
func newTiling(g *graph.Graph) *tiling {
	n := g.NumVertices()
	in := g.InEdges()
	start := in.Start
	t := &tiling{
		blocks:   cutBlocks(start),
		segments: (n + segmentSize - 1) / segmentSize,
		edges:    in.Adj,
	}
	nb := len(t.blocks) - 1
	t.tiles = make([]int, nb*t.segments+1)
	t.halves = make([]int, nb*t.segments)
	next := make([]int, t.segments) // where each tile of the block fills next
	var adj []uint32                // the block's in-adjacency, before its tiles overwrite it
	for b := range nb {
		lo, hi := t.blocks[b], t.blocks[b+1]
		base := start[lo]
		adj = append(adj[:0], in.Adj[base:start[hi]]...)
		tiles := t.tiles[b*t.segments : (b+1)*t.segments+1]
		clear(next)
		for _, u := range adj {
			next[u>>srcBits]++
		}
		pos := tiles[0]
		for s, c := range next {
			tiles[s] = pos
			next[s] = pos
			pos += c
		}
		tiles[t.segments] = pos
		halves := t.halves[b*t.segments : (b+1)*t.segments]
		for v := lo; v < hi; v++ {
			if v-lo == 1<<halfBits {
				copy(halves, next)
			}
			for _, u := range adj[start[v]-base : start[v+1]-base] {
				s := u >> srcBits
				t.edges[next[s]] = (u&(segmentSize-1))<<16 | uint32(uint16(v-lo))
				next[s]++
			}
		}
		if hi-lo <= 1<<halfBits {
			copy(halves, next)
		}
	}
	return t
}

// cutBlocks returns the block boundaries over vertices 0..len(start)-2.
func cutBlocks(start []uint64) []int {
	n := len(start) - 1
	blocks := []int{0}
	for lo := 0; lo < n; {
		hi := lo + 1 // a block holds at least one vertex
		for hi < n && hi-lo < 1<<dstBits && start[hi+1]-start[lo] <= blockEdges {
			hi++
		}
		blocks = append(blocks, hi)
		lo = hi
	}
	return blocks
}

// accumulate adds each edge's source contribution to its destination's
// sum, in the order of edges. Unrolled by sixteen through an array
// pointer, the loop checks bounds once per sixteen edges.
func accumulate(sums *[1 << halfBits]float64, contrib *[1 << 16]float64, edges []uint32) {
	for len(edges) >= 16 {
		e := (*[16]uint32)(edges)
		sums[uint16(e[0])] += contrib[e[0]>>16]
		sums[uint16(e[1])] += contrib[e[1]>>16]
		sums[uint16(e[2])] += contrib[e[2]>>16]
		sums[uint16(e[3])] += contrib[e[3]>>16]
		sums[uint16(e[4])] += contrib[e[4]>>16]
		sums[uint16(e[5])] += contrib[e[5]>>16]
		sums[uint16(e[6])] += contrib[e[6]>>16]
		sums[uint16(e[7])] += contrib[e[7]>>16]
		sums[uint16(e[8])] += contrib[e[8]>>16]
		sums[uint16(e[9])] += contrib[e[9]>>16]
		sums[uint16(e[10])] += contrib[e[10]>>16]
		sums[uint16(e[11])] += contrib[e[11]>>16]
		sums[uint16(e[12])] += contrib[e[12]>>16]
		sums[uint16(e[13])] += contrib[e[13]>>16]
		sums[uint16(e[14])] += contrib[e[14]>>16]
		sums[uint16(e[15])] += contrib[e[15]>>16]
		edges = edges[16:]
	}
	for _, e := range edges {
		sums[uint16(e)] += contrib[e>>16]
	}
}

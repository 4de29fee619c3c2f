package rank

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCutBlocks(t *testing.T) {
	// start from in-degrees.
	starts := func(degrees ...uint64) []uint64 {
		s := []uint64{0}
		for _, d := range degrees {
			s = append(s, s[len(s)-1]+d)
		}
		return s
	}
	cases := []struct {
		name  string
		start []uint64
		want  []int
	}{
		{"empty", starts(), []int{0}},
		{"one small block", starts(1, 2, 3), []int{0, 3}},
		// A block closes before it passes blockEdges; a vertex with more
		// in-edges than that gets a block of its own.
		{"edge limit", starts(blockEdges/2, blockEdges/2, 1, blockEdges+5, 0), []int{0, 2, 3, 4, 5}},
		{"width limit", make([]uint64, 1<<dstBits+3), []int{0, 1 << dstBits, 1<<dstBits + 2}},
	}
	for _, c := range cases {
		if got := cutBlocks(c.start); !slices.Equal(got, c.want) {
			t.Errorf("%s: blocks %v, want %v", c.name, got, c.want)
		}
	}
}

// Decoding every tile gives back the in-adjacency, edge for edge: each
// destination's sources in increasing order, split over segments in order.
func TestTilingHoldsEveryEdge(t *testing.T) {
	const n = 3<<dstBits/2 + 7 // two blocks by width, several segments
	rng := rand.New(rand.NewPCG(7, 8))
	g := build(t, n, randomGraph(rng, n, 4*n))
	tl := newTiling(g)
	if len(tl.blocks) != 3 || tl.segments != (n+segmentSize-1)/segmentSize {
		t.Fatalf("blocks %v, %d segments", tl.blocks, tl.segments)
	}
	in := make([][]uint32, n)
	for b := range len(tl.blocks) - 1 {
		for s := range tl.segments {
			tile := b*tl.segments + s
			for i := tl.tiles[tile]; i < tl.tiles[tile+1]; i++ {
				v := tl.blocks[b] + int(tl.edges[i]&0xffff)
				if i >= tl.halves[tile] {
					v += 1 << halfBits
				}
				u := uint32(s*segmentSize) + tl.edges[i]>>16
				in[v] = append(in[v], u)
			}
		}
	}
	want := g.InEdges()
	for v := range n {
		if !slices.Equal(in[v], want.In(uint32(v))) {
			t.Fatalf("vertex %d: tiles hold sources %v, graph %v", v, in[v], want.In(uint32(v)))
		}
	}
}

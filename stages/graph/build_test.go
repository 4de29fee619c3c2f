package graph

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// Build split over the cores gives the graph one worker builds: the same
// adjacency in the same order, the same duplicates and self-loops dropped.
func TestBuildParallelMatchesSequential(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two cores to build in parallel")
	}
	const n, m = 20_000, 1<<20 + 4321 // enough edges for workers(m) > 1
	rng := rand.New(rand.NewPCG(3, 4))
	src, dst := make([]uint32, m), make([]uint32, m)
	for i := range m {
		src[i], dst[i] = uint32(rng.IntN(n)), uint32(rng.IntN(n)/8) // many duplicates
		if i%1000 == 0 {
			dst[i] = src[i]
		}
	}
	build := func() (*Graph, *Builder) {
		b := &Builder{names: make([]string, n), src: slices.Clone(src), dst: slices.Clone(dst)}
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return g, b
	}
	par, pb := build()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	seq, sb := build()
	if pb.Duplicates != sb.Duplicates || pb.SelfLoops != sb.SelfLoops || pb.Duplicates == 0 || pb.SelfLoops == 0 {
		t.Errorf("dropped %d duplicates and %d self-loops in parallel, %d and %d alone", pb.Duplicates, pb.SelfLoops, sb.Duplicates, sb.SelfLoops)
	}
	parIn, seqIn := par.InEdges(), seq.InEdges()
	for v := range uint32(n) {
		if !slices.Equal(par.Out(v), seq.Out(v)) || !slices.Equal(parIn.In(v), seqIn.In(v)) {
			t.Fatalf("vertex %d: out %v in %v in parallel, out %v in %v alone", v, par.Out(v), parIn.In(v), seq.Out(v), seqIn.In(v))
		}
	}
}

package graph

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/topicrank/topicrank/internal/memcheck"
)

// TestMemoryAt10MEdges builds a graph of 1 M vertices and 10 M edges and
// checks the memory it keeps against the figures docs/performance.md gives users:
// 16 bytes per vertex plus its name, 4 bytes per edge (the in-adjacency is
// PageRank's, built when it needs it).
func TestMemoryAt10MEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10 M-edge graph")
	}
	const n, m = 1_000_000, 10_000_000
	before := memcheck.HeapInUse()
	b := NewBuilder()
	nameBytes := 0
	for v := range n {
		name := "/wiki/P" + strconv.Itoa(v)
		nameBytes += len(name)
		b.Vertex(name)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range m {
		b.AddEdge(uint32(rng.IntN(n)), uint32(rng.IntN(n)))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	used := memcheck.HeapInUse() - before
	perVertex := 16.0 + 16 + float64(nameBytes)/n // offsets, string header, name bytes
	want := perVertex*n + 4*float64(g.NumEdges())
	memcheck.Within(t, fmt.Sprintf("the graph on %d vertices, %d edges", g.NumVertices(), g.NumEdges()), used, want, 0.15)
	runtime.KeepAlive(g)
}

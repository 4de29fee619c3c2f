package rank

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/topicrank/topicrank/internal/memcheck"
)

// TestPageRankMemoryAt10MEdges checks the working set PageRank keeps on
// 1 M vertices and 10 M edges against docs/performance.md's figure: 32 bytes per
// vertex, 4 per edge and 1 MiB per core in use, before the results.
func TestPageRankMemoryAt10MEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10 M-edge graph")
	}
	g := benchGraph(t, 1_000_000, 10_000_000)
	before := memcheck.HeapInUse()
	it := newIteration(g, 0.85)
	used := memcheck.HeapInUse() - before
	want := 32*float64(g.NumVertices()) + 4*float64(g.NumEdges()) + float64(min(runtime.GOMAXPROCS(0), len(it.tiles.blocks)-1))*(1<<20)
	memcheck.Within(t, fmt.Sprintf("PageRank on %d vertices, %d edges", g.NumVertices(), g.NumEdges()), used, want, 0.10)
	runtime.KeepAlive(it)
}

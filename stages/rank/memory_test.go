package rank

import (
	"runtime"
	"testing"
)

// TestPageRankMemoryAt10MEdges checks the working set PageRank keeps on
// 1 M vertices and 10 M edges against README.md's figure: 32 bytes per
// vertex, 4 per edge and 1 MiB per core, before the results.
func TestPageRankMemoryAt10MEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10 M-edge graph")
	}
	g := benchGraph(t, 1_000_000, 10_000_000)
	before := heapInUse()
	it := newIteration(g, 0.85)
	used := heapInUse() - before
	want := 32*float64(g.NumVertices()) + 4*float64(g.NumEdges()) + float64(runtime.GOMAXPROCS(0))*(1<<20)
	t.Logf("%d vertices, %d edges: %.0f MB kept, %.0f MB by the formula", g.NumVertices(), g.NumEdges(), float64(used)/1e6, want/1e6)
	if float64(used) > 1.1*want {
		t.Errorf("PageRank keeps %d bytes, more than 10%% over the documented %.0f", used, want)
	}
	runtime.KeepAlive(it)
}

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

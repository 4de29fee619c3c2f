package rank

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
)

// benchGraph builds a graph of n vertices and about m edges with targets
// skewed toward low ids, like cmd/gengraph's files.
func benchGraph(b testing.TB, n, m int) *graph.Graph {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 0))
	gb := graph.NewBuilder()
	for v := range n {
		gb.Vertex("/wiki/P" + itoa(v))
	}
	for range m {
		x := rng.Float64()
		gb.AddEdge(uint32(rng.IntN(n)), uint32(float64(n)*x*x*x))
	}
	g, err := gb.Build()
	if err != nil {
		b.Fatal(err)
	}
	return g
}

func itoa(v int) string {
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(buf[i:])
		}
	}
}

// BenchmarkPageRankStep measures one power-iteration update on 1 M
// vertices and 10 M edges; edge-updates/s counts edges pulled per second
// over all cores, and per core.
func BenchmarkPageRankStep(b *testing.B) { benchmarkStep(b, 1_000_000, 10_000_000) }

// BenchmarkPageRankStep8M is the same on 8 M vertices and 40 M edges, whose
// contributions (64 MB) overflow every cache level but L3.
func BenchmarkPageRankStep8M(b *testing.B) { benchmarkStep(b, 8_000_000, 40_000_000) }

func benchmarkStep(b *testing.B, n, m int) {
	g := benchGraph(b, n, m)
	it := newIteration(g, 0.85)
	b.ResetTimer()
	for range b.N {
		it.step()
	}
	rate := float64(g.NumEdges()) * float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "edge-updates/s")
	b.ReportMetric(rate/float64(runtime.GOMAXPROCS(0)), "edge-updates/s/core")
}

// BenchmarkRandomReadCeiling measures this machine's rate of random 8-byte
// reads from an array the size of a 1 M-vertex graph's contributions
// (8 MB), stored so the compiler cannot drop them: the ceiling for a plain
// CSR pull on a graph without locality, which the tiling of tiles.go
// exists to break.
func BenchmarkRandomReadCeiling(b *testing.B) {
	const n, m = 1_000_000, 10_000_000
	rng := rand.New(rand.NewPCG(5, 6))
	idx := make([]uint32, m)
	for i := range idx {
		idx[i] = uint32(rng.IntN(n))
	}
	src := make([]float64, n)
	dst := make([]float64, m)
	for i := range src {
		src[i] = float64(i)
	}
	b.ResetTimer()
	for range b.N {
		for i, u := range idx {
			dst[i] = src[u]
		}
	}
	b.ReportMetric(float64(m)*float64(b.N)/b.Elapsed().Seconds(), "reads/s")
}

// BenchmarkOrder sorts a million ranks, as a ranks table does.
func BenchmarkOrder(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	score := make([]float64, 1<<20)
	for v := range score {
		score[v] = r.ExpFloat64() / float64(len(score))
	}
	for b.Loop() {
		Order(score)
	}
}

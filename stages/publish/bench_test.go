package publish

import (
	"io"
	"os"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/rank"
)

// BenchmarkWrite publishes the graph in $TOPICRANK_BENCH_GRAPH (e.g. go
// run ./cmd/gengraph > /tmp/g1m.txt) as runner rank -out does; it skips
// without one.
func BenchmarkWrite(b *testing.B) {
	in := benchInput(b)
	b.ResetTimer()
	for range b.N {
		if _, err := Write(b.TempDir(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteEdges writes edges.parquet alone, on one goroutine: its
// time is the table's CPU time (compare DuckDB's one-thread COPY).
func BenchmarkWriteEdges(b *testing.B) {
	in := benchInput(b)
	b.ResetTimer()
	for range b.N {
		if _, err := writeTable(io.Discard, in, edgesTable(in)); err != nil {
			b.Fatal(err)
		}
	}
}

func benchInput(b *testing.B) *Input {
	path := os.Getenv("TOPICRANK_BENCH_GRAPH")
	if path == "" {
		b.Skip("set TOPICRANK_BENCH_GRAPH to an edge-list file")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	g, _, err := graph.ReadEdgeList(f, graph.ReadOptions{})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	return &Input{Job: "rank", RunID: "bench", Graph: g, Ranks: rank.PageRank(g, 0.85, []float64{0.01, 0.005})}
}

// BenchmarkWriteRanks writes one ranks table, on one goroutine.
func BenchmarkWriteRanks(b *testing.B) {
	in := benchInput(b)
	b.ResetTimer()
	for range b.N {
		if _, err := writeTable(io.Discard, in, ranksTable(in, in.Ranks[0])); err != nil {
			b.Fatal(err)
		}
	}
}

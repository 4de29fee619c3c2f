package graph

import (
	"os"
	"testing"
)

// BenchmarkReadEdgeList reads the file named by $TOPICRANK_BENCH_GRAPH
// (e.g. go run ./cmd/gengraph > /tmp/g1m.txt); it skips without one.
func BenchmarkReadEdgeList(b *testing.B) {
	path := os.Getenv("TOPICRANK_BENCH_GRAPH")
	if path == "" {
		b.Skip("set TOPICRANK_BENCH_GRAPH to an edge-list file")
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	for range b.N {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		_, _, err = ReadEdgeList(f, ReadOptions{})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}

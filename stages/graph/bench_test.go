package graph

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// benchFile returns the edge-list file named by $TOPICRANK_BENCH_GRAPH
// (e.g. go run ./cmd/gengraph > /tmp/g1m.txt), and skips without one.
func benchFile(b *testing.B) string {
	path := os.Getenv("TOPICRANK_BENCH_GRAPH")
	if path == "" {
		b.Skip("set TOPICRANK_BENCH_GRAPH to an edge-list file")
	}
	return path
}

// BenchmarkReadEdgeList reads the benchFile.
func BenchmarkReadEdgeList(b *testing.B) {
	path := benchFile(b)
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

// BenchmarkReadLineEndings reads 200 k edges with each kind of line
// ending. CR alone, as the student crawls in ../shared have it, must run at
// the rate of LF (it once rescanned the rest of the input for every line).
func BenchmarkReadLineEndings(b *testing.B) {
	lf := "200001\n" + chain(200000)
	for _, ending := range []string{"\n", "\r\n", "\r"} {
		in := strings.ReplaceAll(lf, "\n", ending)
		b.Run(fmt.Sprintf("%q", ending), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for range b.N {
				if _, _, err := ReadEdgeList(strings.NewReader(in), ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuild measures Build on 1 M vertices and 10 M edges with targets
// skewed toward low ids, like cmd/gengraph's files.
func BenchmarkBuild(b *testing.B) {
	const n, m = 1_000_000, 10_000_000
	rng := rand.New(rand.NewPCG(1, 2))
	src, dst := make([]uint32, m), make([]uint32, m)
	for i := range m {
		x := rng.Float64()
		src[i], dst[i] = uint32(rng.IntN(n)), uint32(float64(n)*x*x*x)
	}
	names := make([]string, n)
	for range b.N {
		gb := &Builder{names: names, src: src, dst: dst}
		if _, err := gb.Build(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteEdgeList writes the graph of the benchFile back as an
// edge list (graph.txt of a published run).
func BenchmarkWriteEdgeList(b *testing.B) {
	f, err := os.Open(benchFile(b))
	if err != nil {
		b.Fatal(err)
	}
	g, _, err := ReadEdgeList(f, ReadOptions{})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if err := WriteEdgeList(io.Discard, g); err != nil {
			b.Fatal(err)
		}
	}
}

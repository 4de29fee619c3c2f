package graph

import (
	"fmt"
	"os"
	"strings"
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

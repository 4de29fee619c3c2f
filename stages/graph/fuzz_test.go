package graph

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadEdgeList: any input gives a graph or an error, never a panic;
// it is the graph, or the error's line, of the plain reading at window
// and piece sizes down to a byte; a graph has no duplicate edges or
// self-loops, and the edge list it writes is valid UTF-8 and reads back to
// the same graph size.
func FuzzReadEdgeList(f *testing.F) {
	for _, s := range []string{"3\na b\nb c\nc a\n", "2\r\na b\r\n", "2\ra b\rb a\r", "\xef\xbb\xbf1\n# c\n", "4\na a\na b\na b\n",
		"5\n\xff \xfe\n", "x\n", "1\na b\n", "3\na\tb  \n\n"} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, lenient bool) {
		if n, err := header(newLineReader(bytes.NewReader(in), 64)); err == nil && n > 1<<16 {
			t.Skip("a header of many isolated vertices takes seconds under the fuzzer; TestHostileInputs covers it")
		}
		checkAgainstPlain(t, string(in), lenient, 1+len(in)%61, 1+len(in)%13)
		g, _, err := ReadEdgeList(bytes.NewReader(in), ReadOptions{Lenient: lenient})
		if err != nil {
			return
		}
		seen := map[[2]uint32]bool{}
		for u := range g.NumVertices() {
			for _, v := range g.Out(uint32(u)) {
				e := [2]uint32{uint32(u), v}
				if v == uint32(u) || seen[e] {
					t.Fatalf("edge %v repeated or a self-loop", e)
				}
				seen[e] = true
			}
		}
		var out bytes.Buffer
		if err := WriteEdgeList(&out, g); err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(out.Bytes()) {
			t.Fatalf("written edge list is not UTF-8: %q", out.String())
		}
		back, _, err := ReadEdgeList(strings.NewReader(out.String()), ReadOptions{})
		if err != nil || back.NumVertices() < g.NumVertices()-countIsolated(g) || back.NumEdges() != g.NumEdges() {
			t.Fatalf("read back: %v (%d edges, want %d)", err, back.NumEdges(), g.NumEdges())
		}
	})
}

// countIsolated counts vertices without edges (named "#id" from the
// header, or named by a '#' that reads as a comment when written back).
func countIsolated(g *Graph) int {
	n := 0
	for v := range g.NumVertices() {
		if g.OutDegree(uint32(v)) == 0 && g.InDegree(uint32(v)) == 0 {
			n++
		}
	}
	return n
}

package publish

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/rank"
)

// graph.txt can be written gzip-compressed (the same bytes, compressed,
// and read back by the edge-list reader as they are) or left out.
func TestEdgeListModes(t *testing.T) {
	b := graph.NewBuilder()
	for i := range 50 {
		b.AddEdge(b.Vertex("/wiki/A"), b.Vertex("/wiki/P"+string(rune('a'+i%26))+string(rune('a'+i/26))))
	}
	g, _ := b.Build()
	in := func(m EdgeListMode) *Input {
		return &Input{Job: "rank", RunID: "r", Graph: g, Ranks: rank.PageRank(g, 0.85, []float64{0.01}), EdgeList: m}
	}
	plain, gz, none := t.TempDir(), t.TempDir(), t.TempDir()
	for dir, m := range map[string]EdgeListMode{plain: EdgeListPlain, gz: EdgeListGzip, none: EdgeListNone} {
		if _, err := Write(dir, in(m)); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := os.ReadFile(filepath.Join(plain, "graph.txt"))
	f, err := os.Open(filepath.Join(gz, "graph.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(zr)
	if !bytes.Equal(got, want) || len(want) == 0 {
		t.Error("graph.txt.gz is not graph.txt compressed")
	}
	r, done, err := graph.OpenInput(t.Context(), filepath.Join(gz, "graph.txt.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	back, _, err := graph.ReadEdgeList(r, graph.ReadOptions{})
	if err != nil || back.NumEdges() != g.NumEdges() {
		t.Errorf("reading graph.txt.gz back: %v", err)
	}
	for _, name := range []string{"graph.txt", "graph.txt.gz"} {
		if _, err := os.Stat(filepath.Join(none, name)); err == nil {
			t.Errorf("%s written with EdgeListNone", name)
		}
	}
}

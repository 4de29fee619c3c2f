package publish

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/rank"
)

// graph.txt can be written gzip- or zstd-compressed (the same bytes,
// compressed, and read back by the edge-list reader as they are) or left
// out.
func TestEdgeListModes(t *testing.T) {
	b := graph.NewBuilder()
	for i := range 50 {
		b.AddEdge(b.Vertex("/wiki/A"), b.Vertex("/wiki/P"+string(rune('a'+i%26))+string(rune('a'+i/26))))
	}
	g, _ := b.Build()
	in := func(m EdgeListMode) *Input {
		return &Input{Job: "rank", RunID: "r", Graph: g, Ranks: rank.PageRank(g, 0.85, []float64{0.01}), EdgeList: m}
	}
	plain, gz, zst, none := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	for dir, m := range map[string]EdgeListMode{plain: EdgeListPlain, gz: EdgeListGzip, zst: EdgeListZstd, none: EdgeListNone} {
		if _, err := Write(dir, in(m)); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := os.ReadFile(filepath.Join(plain, "graph.txt"))
	for _, c := range []struct {
		path   string
		reader func(io.Reader) (io.Reader, error)
	}{
		{filepath.Join(gz, "graph.txt.gz"), func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{filepath.Join(zst, "graph.txt.zst"), func(r io.Reader) (io.Reader, error) { return zstd.NewReader(r) }},
	} {
		b, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := c.reader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := io.ReadAll(zr); !bytes.Equal(got, want) || len(want) == 0 {
			t.Errorf("%s is not graph.txt compressed", c.path)
		}
		r, done, err := graph.OpenInput(t.Context(), c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := graph.ReadEdgeList(r, graph.ReadOptions{})
		done()
		if err != nil || back.NumEdges() != g.NumEdges() {
			t.Errorf("reading %s back: %v", c.path, err)
		}
	}
	for _, name := range []string{"graph.txt", "graph.txt.gz", "graph.txt.zst"} {
		if _, err := os.Stat(filepath.Join(none, name)); err == nil {
			t.Errorf("%s written with EdgeListNone", name)
		}
	}
}

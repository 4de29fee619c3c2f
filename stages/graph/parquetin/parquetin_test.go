package parquetin

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
)

// sample is a small graph with a self-loop-free, duplicate-free edge set
// and an isolated vertex (Z), published as rank -out publishes one.
func sample(t *testing.T) (*graph.Graph, string) {
	t.Helper()
	b := graph.NewBuilder()
	for _, e := range [][2]string{{"/wiki/A", "/wiki/B"}, {"/wiki/B", "/wiki/C"}, {"/wiki/C", "/wiki/A"}, {"/wiki/A", "/wiki/C"}, {"/wiki/D", "/wiki/A"}} {
		b.AddEdge(b.Vertex(e[0]), b.Vertex(e[1]))
	}
	b.Vertex("/wiki/Z")
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := publish.Write(dir, &publish.Input{Job: "rank", RunID: "r", Graph: g, Ranks: rank.PageRank(g, 0.85, []float64{1e-9})}); err != nil {
		t.Fatal(err)
	}
	return g, dir
}

func sameGraph(t *testing.T, got, want *graph.Graph) {
	t.Helper()
	if !slices.Equal(got.Names(), want.Names()) || got.NumEdges() != want.NumEdges() {
		t.Fatalf("vertices %v (%d edges), want %v (%d)", got.Names(), got.NumEdges(), want.Names(), want.NumEdges())
	}
	for v := range uint32(want.NumVertices()) {
		if !slices.Equal(got.Out(v), want.Out(v)) {
			t.Errorf("%s: out %v, want %v", want.Name(v), got.Out(v), want.Out(v))
		}
	}
	r1, r2 := rank.PageRank(got, 0.85, []float64{1e-9}), rank.PageRank(want, 0.85, []float64{1e-9})
	if !slices.Equal(r1[0].Ranks, r2[0].Ranks) {
		t.Errorf("ranks differ: %v, want %v", r1[0].Ranks, r2[0].Ranks)
	}
}

// Our own tables: edges.parquet with degrees.parquet as the vertices table
// is the published graph, ranks bit for bit; edges alone lose the isolated
// vertex.
func TestReadOwnTables(t *testing.T) {
	g, dir := sample(t)
	got, _, err := Read(context.Background(), filepath.Join(dir, "edges.parquet"), filepath.Join(dir, "degrees.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, got, g)
	alone, _, err := Read(context.Background(), filepath.Join(dir, "e*.parquet"), "")
	if err != nil {
		t.Fatal(err)
	}
	if alone.NumVertices() != g.NumVertices()-1 || alone.NumEdges() != g.NumEdges() {
		t.Errorf("edges alone: %d vertices, %d edges", alone.NumVertices(), alone.NumEdges())
	}
}

func TestReadRefuses(t *testing.T) {
	_, dir := sample(t)
	junk := filepath.Join(dir, "junk.parquet")
	os.WriteFile(junk, []byte("not parquet at all"), 0o644)
	for _, c := range []struct{ edges, vertices, want string }{
		{filepath.Join(dir, "degrees.parquet"), "", "no edges: want columns src and dst"},
		{filepath.Join(dir, "nothing*.parquet"), "", "no such file"},
		{junk, "", "not a Parquet file"},
		{filepath.Join(dir, "edges.parquet"), filepath.Join(dir, "edges.parquet"), "not a vertices table"},
	} {
		_, _, err := Read(context.Background(), c.edges, c.vertices)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s (vertices %q): %v, want %q", filepath.Base(c.edges), c.vertices, err, c.want)
		}
	}
}

package rank

import (
	"math"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
)

// A hand-checked graph with a dangling vertex and teleport: A -> B, A -> C,
// B -> C, C -> A, C -> D, and D a sink. Every vertex's shares sum to its
// published rank, plain and topic-sensitive, and C's shares are the
// formula's, by hand.
func TestExplainSharesSumToRank(t *testing.T) {
	b := graph.NewBuilder()
	for _, e := range [][2]string{{"A", "B"}, {"A", "C"}, {"B", "C"}, {"C", "A"}, {"C", "D"}} {
		b.AddEdge(b.Vertex(e[0]), b.Vertex(e[1]))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, weight := range [][]float64{nil, {1, 0, 0.5, 0}} {
		w := Explain(g, 0.85, 1e-6, weight)
		var published []float64
		if weight == nil {
			published = PageRank(g, 0.85, []float64{1e-6})[0].Ranks
		} else {
			published = TopicPageRank(g, 0.85, []float64{1e-6}, weight)[0].Ranks
		}
		for v := range g.NumVertices() {
			p := w.Of(uint32(v))
			if p.Rank != published[v] {
				t.Errorf("%s: rank %v, published %v", g.Name(uint32(v)), p.Rank, published[v])
			}
			if d := math.Abs(p.Sum() - p.Rank); d > 1e-12 {
				t.Errorf("%s (teleport %v): shares sum to %v, rank %v", g.Name(uint32(v)), weight, p.Sum(), p.Rank)
			}
		}
		// C's in-links: A (out 2) and B (out 1). By hand from P_t:
		// β·P(A)/2 and β·P(B)/1; D is the sink, its mass spread by teleport.
		c := w.Of(2)
		before := w.before
		wantA, wantB := 0.85*before[0]/2, 0.85*before[1]
		got := map[uint32]float64{}
		for _, l := range c.Links {
			got[l.From] = l.Value
		}
		if len(c.Links) != 2 || c.Links[0].Value < c.Links[1].Value || math.Abs(got[0]-wantA) > 1e-15 || math.Abs(got[1]-wantB) > 1e-15 {
			t.Errorf("C's shares %+v, want A %v and B %v, largest first", c.Links, wantA, wantB)
		}
		tele := 0.15 / 4
		dang := 0.85 * before[3] / 4
		if weight != nil {
			tele, dang = 0.15*0.5/1.5, 0.85*before[3]*0.5/1.5
		}
		if math.Abs(c.Teleport-tele) > 1e-15 || math.Abs(c.Dangling-dang) > 1e-15 {
			t.Errorf("C's teleport %v dangling %v, want %v %v", c.Teleport, c.Dangling, tele, dang)
		}
	}
}

func TestWithout(t *testing.T) {
	b := graph.NewBuilder()
	for _, e := range [][2]string{{"A", "B"}, {"A", "C"}, {"B", "C"}} {
		b.AddEdge(b.Vertex(e[0]), b.Vertex(e[1]))
	}
	g, _ := b.Build()
	h, err := Without(g, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if h.NumEdges() != 2 || h.OutDegree(0) != 1 || h.Name(2) != "C" {
		t.Errorf("without A -> C: %d edges, A's out-degree %d", h.NumEdges(), h.OutDegree(0))
	}
}

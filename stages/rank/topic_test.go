package rank

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
)

func topicGraph(t *testing.T, n, m int, seed uint64) (*graph.Graph, [][2]int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := graph.NewBuilder()
	for v := range n {
		b.Vertex(vname(v))
	}
	seen := map[[2]int]bool{}
	var edges [][2]int
	for range m {
		u, v := rng.IntN(n), rng.IntN(n)
		if u == v || seen[[2]int{u, v}] || u%7 == 0 { // every 7th vertex a sink
			continue
		}
		seen[[2]int{u, v}] = true
		edges = append(edges, [2]int{u, v})
		b.AddEdge(uint32(u), uint32(v))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g, edges
}

func vname(v int) string {
	return "/wiki/V" + string(rune('A'+v%26)) + string(rune('a'+v/26%26)) + string(rune('a'+v/676))
}

// Topic-sensitive PageRank equals the plain reference within 1e-12, with
// the same iteration count; mass moves towards the relevant pages.
func TestTopicPageRankMatchesReference(t *testing.T) {
	for seed := range uint64(5) {
		n := 300
		g, edges := topicGraph(t, n, 1500, seed)
		rng := rand.New(rand.NewPCG(seed, 2))
		w := make([]float64, n)
		for v := range w {
			if rng.IntN(3) == 0 {
				w[v] = rng.Float64()
			}
		}
		for _, eps := range []float64{1e-3, 1e-9} {
			got := TopicPageRank(g, 0.85, []float64{eps}, w)[0]
			want, iters, _ := referenceTo(n, edges, 0.85, eps, w)
			if got.Iterations != iters {
				t.Errorf("seed %d eps %g: %d iterations, reference %d", seed, eps, got.Iterations, iters)
			}
			sum := 0.0
			for v := range n {
				sum += got.Ranks[v]
				if math.Abs(got.Ranks[v]-want[v]) > 1e-12 {
					t.Fatalf("seed %d eps %g vertex %d: %g, reference %g", seed, eps, v, got.Ranks[v], want[v])
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("ranks sum to %v", sum)
			}
		}
		plain := PageRank(g, 0.85, []float64{1e-9})[0]
		topic := TopicPageRank(g, 0.85, []float64{1e-9}, w)[0]
		relevant, other := 0.0, 0.0
		for v := range n {
			if w[v] > 0 {
				relevant += topic.Ranks[v] - plain.Ranks[v]
			} else {
				other += topic.Ranks[v] - plain.Ranks[v]
			}
		}
		if !(relevant > 0 && other < 0) {
			t.Errorf("seed %d: rank moved %+g to relevant pages, %+g to others", seed, relevant, other)
		}
	}
}

// With every relevance equal (or none positive) it is PageRank, bit for bit.
func TestTopicPageRankUniformIsPageRank(t *testing.T) {
	g, _ := topicGraph(t, 200, 900, 9)
	plain := PageRank(g, 0.85, []float64{1e-6, 1e-10})
	for _, w := range [][]float64{make([]float64, 200), fill(200, 0.37)} {
		topic := TopicPageRank(g, 0.85, []float64{1e-6, 1e-10}, w)
		for i := range plain {
			for v := range plain[i].Ranks {
				if plain[i].Ranks[v] != topic[i].Ranks[v] {
					t.Fatalf("weights %v...: vertex %d differs", w[:2], v)
				}
			}
		}
	}
}

func fill(n int, x float64) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = x
	}
	return w
}

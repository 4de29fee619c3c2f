package rank

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
)

func build(t testing.TB, n int, edges [][2]int) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder()
	for i := range n {
		b.Vertex(strconv.Itoa(i))
	}
	for _, e := range edges {
		b.AddEdge(uint32(e[0]), uint32(e[1]))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// a -> b, b a sink; worked by hand from DESIGN.md's formula with beta 0.85:
// P1 = (.2875, .7125), residual .425; P2 = (.3778125, .6221875), residual .180625.
func TestPageRankHandChecked(t *testing.T) {
	g := build(t, 2, [][2]int{{0, 1}})
	res := PageRank(g, 0.85, []float64{0.5, 0.2})
	check := func(r Result, iters int, residual float64, ranks ...float64) {
		t.Helper()
		if r.Iterations != iters || math.Abs(r.Residual-residual) > 1e-15 || !r.Converged {
			t.Errorf("eps %v: %d iterations, residual %v; want %d, %v", r.Epsilon, r.Iterations, r.Residual, iters, residual)
		}
		for v, want := range ranks {
			if math.Abs(r.Ranks[v]-want) > 1e-15 {
				t.Errorf("eps %v: rank[%d] = %v, want %v", r.Epsilon, v, r.Ranks[v], want)
			}
		}
	}
	check(res[0], 1, 0.425, 0.2875, 0.7125)
	check(res[1], 2, 0.180625, 0.3778125, 0.6221875)

	// The fixed point solves a = .075 + .425 b, a + b = 1: a = .5/1.425.
	fixed := PageRank(g, 0.85, []float64{1e-14})[0]
	if math.Abs(fixed.Ranks[0]-0.5/1.425) > 1e-13 {
		t.Errorf("fixed point a = %v, want %v", fixed.Ranks[0], 0.5/1.425)
	}
}

func TestPageRankSymmetricGraphs(t *testing.T) {
	// A cycle keeps the uniform start: one update, residual 0.
	r := PageRank(build(t, 3, [][2]int{{0, 1}, {1, 2}, {2, 0}}), 0.85, []float64{0.01})[0]
	if r.Iterations != 1 || r.Residual > 1e-16 || math.Abs(r.Ranks[1]-1.0/3) > 1e-16 {
		t.Errorf("cycle: %+v", r)
	}
	// No edges at all: every vertex is a sink, ranks stay uniform.
	r = PageRank(build(t, 4, nil), 0.85, []float64{0.01})[0]
	if r.Iterations != 1 || math.Abs(r.Ranks[3]-0.25) > 1e-16 {
		t.Errorf("no edges: %+v", r)
	}
	// An empty graph gives empty ranks.
	if r := PageRank(build(t, 0, nil), 0.85, []float64{0.01})[0]; len(r.Ranks) != 0 {
		t.Errorf("empty graph: %+v", r)
	}
}

// reference is DESIGN.md's iteration written as plainly as possible: a
// push along every edge, sinks spread uniformly.
func reference(n int, edges [][2]int, beta, eps float64) ([]float64, int, float64) {
	return referenceTo(n, edges, beta, eps, nil)
}

// referenceTo is reference with the teleport and sink mass spread in
// proportion to weight (nil: uniformly): topic-sensitive PageRank.
func referenceTo(n int, edges [][2]int, beta, eps float64, weight []float64) ([]float64, int, float64) {
	share := func(v int) float64 { return 1 / float64(n) }
	if weight != nil {
		sum := 0.0
		for _, w := range weight {
			sum += w
		}
		share = func(v int) float64 { return weight[v] / sum }
	}
	out := make([]int, n)
	for _, e := range edges {
		out[e[0]]++
	}
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	for t := 1; ; t++ {
		sink := 0.0
		for v := range n {
			if out[v] == 0 {
				sink += p[v]
			}
		}
		next := make([]float64, n)
		for v := range next {
			if weight == nil {
				next[v] = (1-beta)/float64(n) + beta*sink/float64(n)
			} else {
				next[v] = ((1 - beta) + beta*sink) * share(v)
			}
		}
		for _, e := range edges {
			next[e[1]] += beta * p[e[0]] / float64(out[e[0]])
		}
		diff := 0.0
		for v := range n {
			diff += math.Abs(next[v] - p[v])
		}
		p = next
		if diff <= eps || t == MaxIterations {
			return p, t, diff
		}
	}
}

func randomGraph(rng *rand.Rand, n, m int) [][2]int {
	seen := map[[2]int]bool{}
	var edges [][2]int
	for len(edges) < m {
		u, v := rng.IntN(n), rng.IntN(n)
		// Vertices divisible by 7 stay sinks.
		if u == v || u%7 == 0 || seen[[2]int{u, v}] {
			continue
		}
		seen[[2]int{u, v}] = true
		edges = append(edges, [2]int{u, v})
	}
	return edges
}

func compare(t *testing.T, name string, g *graph.Graph, edges [][2]int, eps []float64) {
	t.Helper()
	results := PageRank(g, 0.85, eps)
	for _, r := range results {
		want, iters, residual := reference(g.NumVertices(), edges, 0.85, r.Epsilon)
		if r.Iterations != iters || math.Abs(r.Residual-residual) > 1e-12 {
			t.Errorf("%s eps %v: %d iterations residual %v; reference %d, %v", name, r.Epsilon, r.Iterations, r.Residual, iters, residual)
		}
		for v := range want {
			if math.Abs(r.Ranks[v]-want[v]) > 1e-12 {
				t.Fatalf("%s eps %v: rank[%d] = %v, reference %v", name, r.Epsilon, v, r.Ranks[v], want[v])
			}
		}
		if math.Abs(sum(r.Ranks)-1) > 1e-9 {
			t.Errorf("%s eps %v: ranks sum to %v", name, r.Epsilon, sum(r.Ranks))
		}
	}
}

func TestPageRankMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range [][2]int{{10, 20}, {500, 3000}, {40000, 200000}} {
		edges := randomGraph(rng, size[0], size[1])
		compare(t, "random "+strconv.Itoa(size[0]), build(t, size[0], edges), edges, []float64{0.01, 0.005, 1e-6, 1e-10})
	}
	// Several destination blocks and source segments.
	n := 3 << dstBits / 2
	edges := randomGraph(rng, n, 4*n)
	compare(t, "random "+strconv.Itoa(n), build(t, n, edges), edges, []float64{0.01, 1e-6})
}

// The real graphs of ../shared/data/graphs.
func TestPageRankRealGraphs(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "graphs")
	for _, name := range []string{"wikiTennis-2017.txt", "PavanWikiTennis-2015.txt", "student-crawl-duplicates-selfloops.txt"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Skipf("%s absent", dir)
		}
		g, _, err := graph.ReadEdgeList(f, graph.ReadOptions{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var edges [][2]int
		for u := range g.NumVertices() {
			for _, v := range g.Out(uint32(u)) {
				edges = append(edges, [2]int{u, int(v)})
			}
		}
		compare(t, name, g, edges, []float64{0.01, 0.005, 1e-8})
	}
}

// Several epsilons in one pass give the numbers of separate runs, bit for
// bit, and so does any core count.
func TestPageRankDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 3 << dstBits / 2 // several chunks, blocks and segments
	g := build(t, n, randomGraph(rng, n, 2*n))
	together := PageRank(g, 0.85, []float64{0.001, 0.01, 1e-7})
	for _, r := range together {
		alone := PageRank(g, 0.85, []float64{r.Epsilon})[0]
		if alone.Iterations != r.Iterations || !slices.Equal(alone.Ranks, r.Ranks) {
			t.Errorf("eps %v: one pass differs from a separate run", r.Epsilon)
		}
	}
	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	for _, procs := range []int{1, 3, 8} {
		runtime.GOMAXPROCS(procs)
		if r := PageRank(g, 0.85, []float64{1e-7})[0]; !slices.Equal(r.Ranks, together[2].Ranks) {
			t.Errorf("ranks on %d cores differ from those on %d", procs, prev)
		}
	}
}

func TestTopKTiesAndJaccard(t *testing.T) {
	score := []float64{0.1, 0.3, 0.3, 0.05, 0.3}
	if got := TopK(score, 3); !slices.Equal(got, []uint32{1, 2, 4}) {
		t.Errorf("TopK = %v, want [1 2 4]: ties to the earlier vertex", got)
	}
	if got := Order(score); !slices.Equal(got, []uint32{1, 2, 4, 0, 3}) {
		t.Errorf("Order = %v", got)
	}
	if got := TopK([]int{2, 5, 5, 1}, 10); !slices.Equal(got, []uint32{1, 2, 0, 3}) {
		t.Errorf("TopK ints = %v", got)
	}
	if j := Jaccard([]uint32{1, 2, 3}, []uint32{2, 3, 4, 5}); math.Abs(j-2.0/5) > 1e-15 {
		t.Errorf("Jaccard = %v, want 2/5", j)
	}
}

func TestSummaryOnTennis2017(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "data", "graphs", "wikiTennis-2017.txt"))
	if err != nil {
		t.Skip("../shared absent")
	}
	defer f.Close()
	g, _, err := graph.ReadEdgeList(f, graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(g, PageRank(g, 0.85, []float64{0.01, 0.005}), 10)
	// Main_Page is linked from the sidebar of all but one page.
	if s.Vertices != 1000 || s.Edges != 46794 || s.TopInDegree[0] != "/wiki/Main_Page" || g.InDegree(mustID(g, "/wiki/Main_Page")) != 999 {
		t.Errorf("summary: %d vertices %d edges, top in-degree %v", s.Vertices, s.Edges, s.TopInDegree[:3])
	}
	if !strings.HasPrefix(s.Results[0].TopPageRank[0], "/wiki/Main_Page") || len(s.Results) != 2 || s.Results[1].Iterations <= s.Results[0].Iterations {
		t.Errorf("results: %+v", s.Results)
	}
}

func mustID(g *graph.Graph, name string) uint32 {
	for v, n := range g.Names() {
		if n == name {
			return uint32(v)
		}
	}
	panic(name)
}

package rank

import (
	"cmp"
	"slices"

	"github.com/topicrank/topicrank/stages/graph"
)

// Why explains PageRank at one epsilon: a vertex's rank is the sum of
// the shares of its in-links, β·P_t(u)/out(u), the teleport share and the
// dangling share (the rank mass on sinks, spread as teleport is), where
// P_t is the iterate the last update read (DESIGN.md's iteration). The
// shares sum to the published rank, P_{t+1}, up to rounding.
type Why struct {
	Result
	g        *graph.Graph
	beta     float64
	in       graph.InEdges
	teleport []float64 // nil: uniform
	sink     float64   // Σ P_t over sinks
}

// Share is one in-link's part of a rank.
type Share struct {
	From  uint32
	Value float64
}

// Parts is a vertex's rank taken apart.
type Parts struct {
	Rank     float64
	Links    []Share // by value, largest first (ties: the earlier vertex)
	Teleport float64
	Dangling float64
}

// Explain runs PageRank (topic-sensitive with weight, plain with nil) at
// epsilon and keeps what is needed to take any vertex's rank apart.
func Explain(g *graph.Graph, beta, epsilon float64, weight []float64) *Why {
	var tp []float64
	if weight != nil {
		tp = teleport(weight)
	}
	r := run(g, beta, []float64{epsilon}, tp, true)[0]
	w := &Why{Result: r, g: g, beta: beta, in: g.InEdges(), teleport: tp}
	for v := range g.NumVertices() {
		if g.OutDegree(uint32(v)) == 0 {
			w.sink += r.before[v]
		}
	}
	return w
}

// Of takes vertex v's rank apart.
func (w *Why) Of(v uint32) Parts {
	p := Parts{Rank: w.Ranks[v]}
	if len(w.before) == 0 {
		return p
	}
	n := float64(w.g.NumVertices())
	if w.teleport == nil {
		p.Teleport, p.Dangling = (1-w.beta)/n, w.beta*w.sink/n
	} else {
		p.Teleport, p.Dangling = (1-w.beta)*w.teleport[v], w.beta*w.sink*w.teleport[v]
	}
	for _, u := range w.in.In(v) {
		p.Links = append(p.Links, Share{u, w.beta * w.before[u] / float64(w.g.OutDegree(u))})
	}
	slices.SortStableFunc(p.Links, func(a, b Share) int { return cmp.Or(cmp.Compare(b.Value, a.Value), cmp.Compare(a.From, b.From)) })
	return p
}

// Sum is the sum of the parts: the rank, up to rounding.
func (p Parts) Sum() float64 {
	s := p.Teleport + p.Dangling
	for _, l := range p.Links {
		s += l.Value
	}
	return s
}

// Without returns the graph without the edge u -> v, vertex ids kept.
func Without(g *graph.Graph, u, v uint32) (*graph.Graph, error) {
	b := graph.NewBuilder()
	for x := range g.NumVertices() {
		b.Vertex(g.Name(uint32(x)))
	}
	for x := range g.NumVertices() {
		for _, y := range g.Out(uint32(x)) {
			if uint32(x) != u || y != v {
				b.AddEdge(uint32(x), y)
			}
		}
	}
	return b.Build()
}

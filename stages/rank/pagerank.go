// Package rank computes PageRank, degrees, top-k lists and Jaccard overlaps
// on a graph.Graph, exactly as DESIGN.md defines them.
package rank

import (
	"math"
	"runtime"
	"slices"

	"github.com/topicrank/topicrank/internal/parallel"
	"github.com/topicrank/topicrank/stages/graph"
)

// MaxIterations bounds the power iteration. With beta < 1 the L1 residual
// shrinks by about beta per step, so any epsilon above rounding noise is
// reached long before; a run that hits the bound reports Converged false.
const MaxIterations = 10000

// Result is PageRank for one epsilon.
type Result struct {
	Epsilon    float64
	Iterations int       // number of updates computed (t+1)
	Residual   float64   // ||P_{t+1} - P_t||_1 of the last update
	Converged  bool      // Residual <= Epsilon
	Ranks      []float64 // indexed by vertex id; sums to 1
	before     []float64 // P_t, for Explain; nil unless asked for
}

// PageRank runs the power iteration of DESIGN.md once for all epsilons:
// a smaller epsilon continues from where a larger one stopped, so each
// result equals a separate run with that epsilon alone. Results come back in
// the order of epsilons. The computation is parallel over vertex ranges
// fixed by the graph alone (see tiles.go), and every sum runs in a fixed
// order, so ranks are bit-identical from run to run whatever the number of
// cores.
func PageRank(g *graph.Graph, beta float64, epsilons []float64) []Result {
	return run(g, beta, epsilons, nil, false)
}

// TopicPageRank is topic-sensitive PageRank (Haveliwala): DESIGN.md's
// iteration with the teleport and sink mass spread in proportion to
// weight (a page's relevance) instead of uniformly:
//
//	P_{t+1}(v) = ((1-beta) + beta * sink_t) * w(v)/sum(w) + beta * sum over u->v of P_t(u)/out(u).
//
// When every weight is equal, or none is positive, it is PageRank itself,
// bit for bit. Negative weights count as 0.
func TopicPageRank(g *graph.Graph, beta float64, epsilons []float64, weight []float64) []Result {
	return run(g, beta, epsilons, teleport(weight), false)
}

// teleport returns the normalised teleport vector of weight, or nil for
// the uniform one.
func teleport(weight []float64) []float64 {
	sum, equal := 0.0, true
	for _, w := range weight {
		sum += max(w, 0)
		equal = equal && w == weight[0]
	}
	if equal || !(sum > 0) {
		return nil
	}
	t := make([]float64, len(weight))
	for v, w := range weight {
		t[v] = max(w, 0) / sum
	}
	return t
}

func run(g *graph.Graph, beta float64, epsilons []float64, teleport []float64, keepBefore bool) []Result {
	n := g.NumVertices()
	results := make([]Result, len(epsilons))
	if n == 0 {
		for i, e := range epsilons {
			results[i] = Result{Epsilon: e, Converged: true}
		}
		return results
	}
	// Serve epsilons from largest to smallest.
	order := make([]int, len(epsilons))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return -cmpFloat(epsilons[a], epsilons[b]) })

	it := newIteration(g, beta)
	it.teleport = teleport
	next := 0
	for t := 1; next < len(order); t++ {
		residual := it.step()
		for next < len(order) && (residual <= epsilons[order[next]] || t == MaxIterations) {
			i := order[next]
			results[i] = Result{
				Epsilon:    epsilons[i],
				Iterations: t,
				Residual:   residual,
				Converged:  residual <= epsilons[i],
				Ranks:      slices.Clone(it.cur),
			}
			if keepBefore {
				results[i].before = slices.Clone(it.nxt) // P_t, which the last step read
			}
			next++
		}
	}
	graph.Release(g.NumEdges()) // the tiling, no longer used
	return results
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// chunkSize is the number of vertices one task of the contribution pass
// handles. It is a constant so that the order of floating-point sums never
// depends on the core count.
const chunkSize = 1 << 14

// iteration holds the state of the power iteration.
type iteration struct {
	beta    float64
	n       int
	tiles   *tiling
	cur     []float64                // P_t
	nxt     []float64                // P_{t+1}
	contrib []float64                // P_t(u)/out(u), 0 for sinks; padded to whole segments, and 1<<16 beyond (see accumulate)
	invOut  []float64                // 1/out(u), 0 for sinks
	sinks   []float64                // rank mass on sinks, per chunk
	sinkIDs [][]uint32               // the sinks, per chunk
	resid   []float64                // |P_{t+1} - P_t|, per block
	sums    []*[1 << dstBits]float64 // per worker, zero between blocks
	// teleport, if set, is where the teleport and sink mass go (topic-
	// sensitive PageRank); nil spreads it uniformly.
	teleport []float64
}

func newIteration(g *graph.Graph, beta float64) *iteration {
	n := g.NumVertices()
	tiles := newTiling(g)
	workers := min(runtime.GOMAXPROCS(0), len(tiles.blocks)-1) // more would idle
	it := &iteration{
		beta: beta, n: n, tiles: tiles,
		cur:     make([]float64, n),
		nxt:     make([]float64, n),
		contrib: make([]float64, tiles.segments*segmentSize+1<<16),
		invOut:  make([]float64, n),
		sinks:   make([]float64, (n+chunkSize-1)/chunkSize),
		sinkIDs: make([][]uint32, (n+chunkSize-1)/chunkSize),
		resid:   make([]float64, len(tiles.blocks)-1),
		sums:    make([]*[1 << dstBits]float64, workers),
	}
	for w := range it.sums {
		it.sums[w] = new([1 << dstBits]float64)
	}
	for v := range n {
		it.cur[v] = 1 / float64(n)
		if d := g.OutDegree(uint32(v)); d > 0 {
			it.invOut[v] = 1 / float64(d)
		} else {
			it.sinkIDs[v/chunkSize] = append(it.sinkIDs[v/chunkSize], uint32(v))
		}
	}
	return it
}

// step computes P_{t+1} from P_t, swaps them and returns the L1 residual.
func (it *iteration) step() float64 {
	// Pass 1: contributions and the rank mass sitting on sinks.
	parallel.Do(len(it.sinks), len(it.sums), func(_, c int) {
		lo, hi := c*chunkSize, min((c+1)*chunkSize, it.n)
		cur := it.cur[lo:hi]
		invOut, contrib := it.invOut[lo:hi:hi][:len(cur)], it.contrib[lo:hi:hi][:len(cur)]
		for v, p := range cur {
			contrib[v] = p * invOut[v]
		}
		sink := 0.0
		for _, v := range it.sinkIDs[c] {
			sink += it.cur[v]
		}
		it.sinks[c] = sink
	})
	sink := sumInOrder(it.sinks)
	base := (1-it.beta)/float64(it.n) + it.beta*sink/float64(it.n)

	// Pass 2: pull along in-edges, one block of destinations per task. This
	// is the cost of PageRank: one read of a contribution per edge.
	t := it.tiles
	parallel.Do(len(it.resid), len(it.sums), func(w, b int) {
		sums := it.sums[w]
		lower, upper := (*[1 << halfBits]float64)(sums[:]), (*[1 << halfBits]float64)(sums[1<<halfBits:])
		for s := range t.segments {
			tile := b*t.segments + s
			contrib := (*[1 << 16]float64)(it.contrib[s*segmentSize:])
			lo, half, hi := t.tiles[tile], t.halves[tile], t.tiles[tile+1]
			accumulate(lower, contrib, t.edges[lo:half])
			accumulate(upper, contrib, t.edges[half:hi])
		}
		lo, hi := t.blocks[b], t.blocks[b+1]
		cur := it.cur[lo:hi]
		nxt, sum := it.nxt[lo:hi:hi][:len(cur)], sums[:len(cur)]
		beta, res := it.beta, 0.0
		if it.teleport == nil {
			for v, p := range sum {
				p = base + beta*p
				nxt[v] = p
				res += math.Abs(p - cur[v])
			}
		} else {
			mass := (1 - it.beta) + it.beta*sink
			teleport := it.teleport[lo:hi:hi][:len(cur)]
			for v, p := range sum {
				p = mass*teleport[v] + beta*p
				nxt[v] = p
				res += math.Abs(p - cur[v])
			}
		}
		clear(sum)
		it.resid[b] = res
	})
	it.cur, it.nxt = it.nxt, it.cur
	return sumInOrder(it.resid)
}

func sumInOrder(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

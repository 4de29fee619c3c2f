// Package rank computes PageRank, degrees, top-k lists and Jaccard overlaps
// on a graph.Graph, exactly as DESIGN.md defines them.
package rank

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

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
}

// PageRank runs the power iteration of DESIGN.md once for all epsilons:
// a smaller epsilon continues from where a larger one stopped, so each
// result equals a separate run with that epsilon alone. Results come back in
// the order of epsilons. The computation is parallel over fixed vertex
// chunks and sums partial results in chunk order, so ranks are
// bit-identical from run to run whatever the number of cores.
func PageRank(g *graph.Graph, beta float64, epsilons []float64) []Result {
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
			next++
		}
	}
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

// chunkSize is the number of vertices one task updates. It is a constant so
// that the order of floating-point sums never depends on the core count.
const chunkSize = 1 << 14

// iteration holds the state of the power iteration.
type iteration struct {
	g       *graph.Graph
	beta    float64
	n       int
	cur     []float64 // P_t
	nxt     []float64 // P_{t+1}
	contrib []float64 // P_t(u)/out(u), 0 for sinks
	invOut  []float64 // 1/out(u), 0 for sinks
	partial []float64 // per-chunk sums (sink mass, then residual)
	workers int
}

func newIteration(g *graph.Graph, beta float64) *iteration {
	n := g.NumVertices()
	it := &iteration{
		g: g, beta: beta, n: n,
		cur:     make([]float64, n),
		nxt:     make([]float64, n),
		contrib: make([]float64, n),
		invOut:  make([]float64, n),
		partial: make([]float64, (n+chunkSize-1)/chunkSize),
		workers: runtime.GOMAXPROCS(0),
	}
	for v := range n {
		it.cur[v] = 1 / float64(n)
		if d := g.OutDegree(uint32(v)); d > 0 {
			it.invOut[v] = 1 / float64(d)
		}
	}
	return it
}

// step computes P_{t+1} from P_t, swaps them and returns the L1 residual.
func (it *iteration) step() float64 {
	// Pass 1: contributions and the rank mass sitting on sinks.
	it.parallel(func(c, lo, hi int) {
		sink := 0.0
		for v := lo; v < hi; v++ {
			if it.invOut[v] == 0 {
				sink += it.cur[v]
			}
			it.contrib[v] = it.cur[v] * it.invOut[v]
		}
		it.partial[c] = sink
	})
	sink := sumInOrder(it.partial)
	base := (1-it.beta)/float64(it.n) + it.beta*sink/float64(it.n)

	// Pass 2: pull along in-edges. This loop is the cost of PageRank: one
	// random read of contrib per edge.
	start, adj := it.g.InCSR()
	contrib, cur, nxt, beta := it.contrib, it.cur, it.nxt, it.beta
	it.parallel(func(c, lo, hi int) {
		res := 0.0
		for v := lo; v < hi; v++ {
			p := base + beta*pull(contrib, adj[start[v]:start[v+1]])
			nxt[v] = p
			res += math.Abs(p - cur[v])
		}
		it.partial[c] = res
	})
	it.cur, it.nxt = it.nxt, it.cur
	return sumInOrder(it.partial)
}

// pull sums contrib over the sources of one vertex. Four independent sums
// let the CPU overlap the random reads; the order of additions is fixed.
func pull(contrib []float64, sources []uint32) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(sources); i += 4 {
		s0 += contrib[sources[i]]
		s1 += contrib[sources[i+1]]
		s2 += contrib[sources[i+2]]
		s3 += contrib[sources[i+3]]
	}
	for ; i < len(sources); i++ {
		s0 += contrib[sources[i]]
	}
	return (s0 + s1) + (s2 + s3)
}

// parallel calls f on every chunk of vertices, spread over the workers.
func (it *iteration) parallel(f func(chunk, lo, hi int)) {
	chunks := len(it.partial)
	workers := min(it.workers, chunks)
	if workers <= 1 {
		for c := range chunks {
			f(c, c*chunkSize, min((c+1)*chunkSize, it.n))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				f(c, c*chunkSize, min((c+1)*chunkSize, it.n))
			}
		})
	}
	wg.Wait()
}

func sumInOrder(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

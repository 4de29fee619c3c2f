package graph

import (
	"math"
	"runtime"
	"sort"

	"github.com/topicrank/topicrank/internal/hugepages"
	"github.com/topicrank/topicrank/internal/parallel"
)

// The CSR is built with counting sorts, split over the cores by ranges
// of edges: each worker counts its range into degrees of its own, and the
// offsets are laid out vertex by vertex, worker after worker, so that
// each vertex's edges keep their order (stable) however many workers
// there are.

// workers returns how many goroutines share a sort of m edges: small
// graphs (every crawl) are not worth the goroutines and per-worker
// counts.
func workers(m int) int {
	if m < 1<<20 {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), 8)
}

// offset is the type of per-worker counts and offsets. Grouping by
// source is a build's peak of memory, and 32-bit counts, enough while
// the edges number under 2^32, save 4 bytes per vertex and core there.
type offset interface{ uint32 | uint64 }

// layout turns per-worker counts into per-worker offsets (in place),
// vertex by vertex and worker after worker, and returns the CSR offsets.
func layout[T offset](n int, counts [][]T) []uint64 {
	start := make([]uint64, n+1)
	at := uint64(0)
	for v := range n {
		start[v] = at
		for _, c := range counts {
			k := c[v]
			c[v] = T(at)
			at += uint64(k)
		}
	}
	start[n] = at
	return start
}

// outCSR groups edges by source with a stable counting sort, dropping
// self-loops and duplicates as it goes. It drops the Builder's edges as
// soon as they are grouped.
func (b *Builder) outCSR(n int) ([]uint64, []uint32) {
	var count []uint64
	var adj []uint32
	if len(b.src) <= math.MaxUint32 {
		count, adj = groupBySource[uint32](n, b.src, b.dst)
	} else {
		count, adj = groupBySource[uint64](n, b.src, b.dst)
	}
	b.SelfLoops = len(b.src) - int(count[n])
	b.src, b.dst = nil, nil
	Release(len(adj))
	start, adj, dups := dedup(n, count, adj)
	b.Duplicates = dups
	return start, adj
}

// groupBySource returns the targets of the edges src[i] -> dst[i] grouped
// by source, in input order, without self-loops, and the offsets of the
// groups.
func groupBySource[T offset](n int, src, dst []uint32) ([]uint64, []uint32) {
	w := workers(len(src))
	bound := func(i int) int { return len(src) * i / w }
	next := make([][]T, w)
	parallel.For(w, func(i int) {
		c := make([]T, n)
		hugepages.Advise(c)
		for j := bound(i); j < bound(i+1); j++ {
			if u := src[j]; u != dst[j] {
				c[u]++
			}
		}
		next[i] = c
	})
	count := layout(n, next)
	adj := make([]uint32, count[n])
	hugepages.Advise(adj)
	parallel.For(w, func(i int) {
		next := next[i]
		for j := bound(i); j < bound(i+1); j++ {
			if u, v := src[j], dst[j]; u != v {
				adj[next[u]] = v
				next[u]++
			}
		}
	})
	return count, adj
}

// dedup drops repeated targets inside each source's run of adj (runs at
// offsets count) and returns the offsets of the shortened runs. Workers
// take ranges of sources, compact them in place, and the compacted blocks
// are then moved together.
func dedup(n int, count []uint64, adj []uint32) ([]uint64, []uint32, int) {
	from := shares(n, count, workers(len(adj)))
	w := len(from) - 1
	start := make([]uint64, n+1)
	end := make([]uint64, w) // of worker i's compacted block
	dups := make([]int, w)
	parallel.For(w, func(i int) {
		// lastSrc[v] remembers the latest source (plus one) that had an
		// edge to v.
		lastSrc := make([]uint32, n)
		hugepages.Advise(lastSrc)
		at := count[from[i]]
		for u := from[i]; u < from[i+1]; u++ {
			start[u] = at
			mark := uint32(u) + 1
			for _, v := range adj[count[u]:count[u+1]] {
				if lastSrc[v] == mark {
					dups[i]++
					continue
				}
				lastSrc[v] = mark
				adj[at] = v
				at++
			}
		}
		end[i] = at
	})
	at, total := uint64(0), 0
	for i := range w {
		lo := count[from[i]]
		copy(adj[at:], adj[lo:end[i]])
		if shift := lo - at; shift > 0 {
			for u := from[i]; u < from[i+1]; u++ {
				start[u] -= shift
			}
		}
		at += end[i] - lo
		total += dups[i]
	}
	start[n] = at
	return start, adj[:at:at], total
}

// shares splits the vertices 0..n-1 into w ranges of about equal numbers
// of edges, by their CSR offsets: range i is from[i] to from[i+1].
func shares(n int, offsets []uint64, w int) (from []int) {
	from = make([]int, w+1)
	edges := offsets[n]
	for i := 1; i < w; i++ {
		share := edges * uint64(i) / uint64(w)
		from[i] = sort.Search(n, func(u int) bool { return offsets[u] >= share })
	}
	from[w] = n
	return from
}

// inStart returns the offsets of the in-adjacency of an out-adjacency
// CSR: the in-degrees, summed.
func inStart(n int, outStart []uint64, outAdj []uint32) []uint64 {
	_, _, start := inCounts(n, outStart, outAdj)
	return start
}

// inCounts splits the sources into ranges, one per worker, and counts
// each range's edges into every vertex: it returns the ranges, each
// worker's offsets into the in-adjacency, and the in-adjacency's offsets.
func inCounts(n int, outStart []uint64, outAdj []uint32) (from []int, next [][]uint64, start []uint64) {
	from = shares(n, outStart, workers(len(outAdj)))
	w := len(from) - 1
	next = make([][]uint64, w)
	parallel.For(w, func(i int) {
		c := make([]uint64, n)
		hugepages.Advise(c)
		for _, v := range outAdj[outStart[from[i]]:outStart[from[i+1]]] {
			c[v]++
		}
		next[i] = c
	})
	return from, next, layout(n, next)
}

// transpose returns the in-adjacency of an out-adjacency CSR, at the
// offsets inStart gives; each vertex's sources come out in increasing
// order.
func transpose(n int, outStart []uint64, outAdj []uint32) []uint32 {
	from, next, _ := inCounts(n, outStart, outAdj)
	adj := make([]uint32, len(outAdj))
	hugepages.Advise(adj)
	parallel.For(len(next), func(i int) {
		next := next[i]
		for u := from[i]; u < from[i+1]; u++ {
			for _, v := range outAdj[outStart[u]:outStart[u+1]] {
				adj[next[v]] = uint32(u)
				next[v]++
			}
		}
	})
	return adj
}

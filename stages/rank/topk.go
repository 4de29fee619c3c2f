package rank

import (
	"container/heap"
	"slices"

	"github.com/topicrank/topicrank/stages/graph"
)

// Degrees returns the in- and out-degree of every vertex.
func Degrees(g *graph.Graph) (in, out []int) {
	n := g.NumVertices()
	in, out = make([]int, n), make([]int, n)
	for v := range n {
		in[v] = g.InDegree(uint32(v))
		out[v] = g.OutDegree(uint32(v))
	}
	return in, out
}

// TopK returns the ids of the k highest scores, highest first; equal scores
// go to the lower id (the vertex that appeared first).
func TopK[T int | float64](score []T, k int) []uint32 {
	return topK(score, k, nil)
}

// TopKNamed is TopK with ties broken by name (then id): what every input
// of one graph shares, where vertex ids follow each input's order. runner
// rank's top lists and Jaccard figures are cut by it, so an edge list and
// a Parquet table of the same graph give the same figures.
func TopKNamed[T int | float64](score []T, k int, name func(uint32) string) []uint32 {
	return topK(score, k, name)
}

func topK[T int | float64](score []T, k int, name func(uint32) string) []uint32 {
	k = min(k, len(score))
	if k <= 0 {
		return nil
	}
	h := &minHeap[T]{score: score, name: name}
	for v := range score {
		id := uint32(v)
		if h.Len() < k {
			heap.Push(h, id)
		} else if h.better(id, h.ids[0]) {
			h.ids[0] = id
			heap.Fix(h, 0)
		}
	}
	slices.SortFunc(h.ids, func(a, b uint32) int {
		if h.better(a, b) {
			return -1
		}
		return 1
	})
	return h.ids
}

// Order returns every vertex id sorted as TopK sorts: position i of the
// result holds the vertex ranked i+1.
func Order(score []float64) []uint32 {
	if len(score) >= radixMin {
		return radixOrder(score)
	}
	ids := make([]uint32, len(score))
	for i := range ids {
		ids[i] = uint32(i)
	}
	sortRanked(score, ids)
	return ids
}

// sortRanked sorts ids highest score first, ties to the lower id.
func sortRanked[T int | float64](score []T, ids []uint32) {
	h := minHeap[T]{score: score}
	slices.SortFunc(ids, func(a, b uint32) int {
		if h.better(a, b) {
			return -1
		}
		return 1
	})
}

// minHeap keeps the worst of the current top k at its root.
type minHeap[T int | float64] struct {
	score []T
	ids   []uint32
	name  func(uint32) string // breaks ties before ids, if set
}

// better reports whether a ranks above b.
func (h *minHeap[T]) better(a, b uint32) bool {
	if h.score[a] != h.score[b] {
		return h.score[a] > h.score[b]
	}
	if h.name != nil {
		if na, nb := h.name(a), h.name(b); na != nb {
			return na < nb
		}
	}
	return a < b
}

func (h *minHeap[T]) Len() int           { return len(h.ids) }
func (h *minHeap[T]) Less(i, j int) bool { return h.better(h.ids[j], h.ids[i]) }
func (h *minHeap[T]) Swap(i, j int)      { h.ids[i], h.ids[j] = h.ids[j], h.ids[i] }
func (h *minHeap[T]) Push(x any)         { h.ids = append(h.ids, x.(uint32)) }
func (h *minHeap[T]) Pop() any {
	x := h.ids[len(h.ids)-1]
	h.ids = h.ids[:len(h.ids)-1]
	return x
}

// Jaccard returns |A∩B| / |A∪B| of two id sets (1 when both are empty).
func Jaccard(a, b []uint32) float64 {
	set := make(map[uint32]bool, len(a))
	for _, x := range a {
		set[x] = true
	}
	inter := 0
	union := len(set)
	seen := make(map[uint32]bool, len(b))
	for _, x := range b {
		if seen[x] {
			continue
		}
		seen[x] = true
		if set[x] {
			inter++
		} else {
			union++
		}
	}
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

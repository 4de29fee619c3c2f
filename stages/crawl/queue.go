package crawl

import "container/heap"

// Queue is the weighted queue of DESIGN.md: Add inserts a key only if it is
// absent (a key keeps its first weight), Extract removes the highest weight
// and breaks ties by insertion order, so equal weights make it a FIFO queue.
type Queue struct {
	items itemHeap
	keys  map[string]bool
	seq   uint64
}

type item struct {
	key    string
	weight float64
	seq    uint64 // insertion order, the tie-breaker
}

// NewQueue returns an empty queue.
func NewQueue() *Queue { return &Queue{keys: make(map[string]bool)} }

// Len returns the number of queued keys.
func (q *Queue) Len() int { return len(q.items) }

// Add queues key with weight unless key is already queued, and reports
// whether it did.
func (q *Queue) Add(key string, weight float64) bool {
	if q.keys[key] {
		return false
	}
	q.keys[key] = true
	heap.Push(&q.items, item{key, weight, q.seq})
	q.seq++
	return true
}

// Extract removes and returns the key with the highest weight, the earliest
// added among equals. It panics on an empty queue.
func (q *Queue) Extract() (key string, weight float64) {
	it := heap.Pop(&q.items).(item)
	delete(q.keys, it.key)
	return it.key, it.weight
}

// Next returns up to k keys in the order Extract would return them, without
// removing them.
func (q *Queue) Next(k int) []string {
	k = min(k, len(q.items))
	popped := make([]item, 0, k)
	for range k {
		popped = append(popped, heap.Pop(&q.items).(item))
	}
	keys := make([]string, k)
	for i, it := range popped {
		keys[i] = it.key
		heap.Push(&q.items, it)
	}
	return keys
}

type itemHeap []item

func (h itemHeap) Len() int { return len(h) }
func (h itemHeap) Less(i, j int) bool {
	if h[i].weight != h[j].weight {
		return h[i].weight > h[j].weight
	}
	return h[i].seq < h[j].seq
}
func (h itemHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *itemHeap) Push(x any)   { *h = append(*h, x.(item)) }
func (h *itemHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

package crawl

import "container/heap"

// Queue is the weighted queue of DESIGN.md: Add inserts a key only if it is
// absent (a key keeps its first weight), Extract removes the highest weight
// and breaks ties by insertion order, so equal weights make it a FIFO queue.
//
// Bound drops from the other end (the lowest weight, the latest added among
// equals), for best-first admission's bounded frontier. Each item sits in
// two heaps, one per end; an item taken out through one end is marked gone
// and skipped when the other end reaches it.
type Queue struct {
	best  itemHeap // highest weight first
	worst itemHeap // lowest weight, latest added first
	keys  map[string]*item
	seq   uint64
}

type item struct {
	key    string
	weight float64
	seq    uint64 // insertion order, the tie-breaker
	gone   bool
}

// NewQueue returns an empty queue.
func NewQueue() *Queue {
	return &Queue{best: itemHeap{less: better}, worst: itemHeap{less: worse}, keys: make(map[string]*item)}
}

func better(a, b *item) bool {
	if a.weight != b.weight {
		return a.weight > b.weight
	}
	return a.seq < b.seq
}

func worse(a, b *item) bool { return better(b, a) }

// Len returns the number of queued keys.
func (q *Queue) Len() int { return len(q.keys) }

// Add queues key with weight unless key is already queued, and reports
// whether it did.
func (q *Queue) Add(key string, weight float64) bool {
	if q.keys[key] != nil {
		return false
	}
	it := &item{key: key, weight: weight, seq: q.seq}
	q.seq++
	q.keys[key] = it
	heap.Push(&q.best, it)
	heap.Push(&q.worst, it)
	return true
}

// Reweigh gives a queued key a new weight, keeping its place among equals
// (its insertion order); it reports whether key was queued.
func (q *Queue) Reweigh(key string, weight float64) bool {
	old := q.keys[key]
	if old == nil {
		return false
	}
	if old.weight == weight {
		return true
	}
	old.gone = true
	it := &item{key: key, weight: weight, seq: old.seq}
	q.keys[key] = it
	heap.Push(&q.best, it)
	heap.Push(&q.worst, it)
	q.compact()
	return true
}

// Extract removes and returns the key with the highest weight, the earliest
// added among equals. It panics on an empty queue.
func (q *Queue) Extract() (key string, weight float64) {
	it := q.take(&q.best)
	return it.key, it.weight
}

// Bound drops the lowest-weight keys, the latest added among equals, until
// at most n are queued, and returns how many it dropped.
func (q *Queue) Bound(n int) (dropped int) {
	for q.Len() > n {
		q.take(&q.worst)
		dropped++
	}
	return dropped
}

// take removes the first live item of h from the queue.
func (q *Queue) take(h *itemHeap) *item {
	for {
		it := heap.Pop(h).(*item)
		if !it.gone {
			it.gone = true
			delete(q.keys, it.key)
			q.compact()
			return it
		}
	}
}

// compact rebuilds the heaps from the live items once gone ones make up
// most of either, so memory stays proportional to the queue's length.
func (q *Queue) compact() {
	if max(q.best.Len(), q.worst.Len()) <= 2*q.Len()+1024 {
		return
	}
	live := make([]*item, 0, q.Len())
	for _, it := range q.best.items {
		if !it.gone {
			live = append(live, it)
		}
	}
	q.best.items = live
	q.worst.items = append([]*item(nil), live...)
	heap.Init(&q.best)
	heap.Init(&q.worst)
}

// Next returns up to k keys in the order Extract would return them, without
// removing them.
func (q *Queue) Next(k int) []string {
	k = min(k, q.Len())
	popped := make([]*item, 0, k)
	keys := make([]string, 0, k)
	for len(keys) < k {
		it := heap.Pop(&q.best).(*item)
		if it.gone {
			continue // dropped through the other end: forget it here too
		}
		popped = append(popped, it)
		keys = append(keys, it.key)
	}
	for _, it := range popped {
		heap.Push(&q.best, it)
	}
	return keys
}

type itemHeap struct {
	items []*item
	less  func(a, b *item) bool
}

func (h itemHeap) Len() int           { return len(h.items) }
func (h itemHeap) Less(i, j int) bool { return h.less(h.items[i], h.items[j]) }
func (h itemHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *itemHeap) Push(x any)        { h.items = append(h.items, x.(*item)) }
func (h *itemHeap) Pop() any {
	old := h.items
	it := old[len(old)-1]
	h.items = old[:len(old)-1]
	return it
}

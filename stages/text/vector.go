package text

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/kljensen/snowball/english"
)

// Vector is a term vector: stemmed, non-stop words and their counts.
type Vector map[string]float64

// Term returns the term a lower-case word stands for, or "" for an English
// stop word (Snowball's list), which carries no topic.
func Term(word string) string {
	if t, ok := remembered(word); ok {
		return t
	}
	return learn(word)
}

// termBytes is Term of a word given as bytes; a remembered word costs no
// allocation.
func termBytes(w []byte) string {
	if t, ok := remembered(w); ok {
		return t
	}
	return learn(string(w))
}

// remembered returns the term the cache holds for w. A word too long to
// be cached is not looked up.
func remembered[S string | []byte](w S) (string, bool) {
	if len(w) > maxCachedWord {
		return "", false
	}
	sh := &terms[shard(w)]
	sh.mu.RLock()
	t, ok := sh.m[string(w)]
	sh.mu.RUnlock()
	return t, ok
}

// learn stems word and remembers its term while the cache has room.
func learn(word string) string {
	t := ""
	if !english.IsStopWord(word) {
		t = english.Stem(word, false)
	}
	if len(word) <= maxCachedWord && termsCached.Load() < maxCachedTerms {
		sh := &terms[shard(word)]
		sh.mu.Lock()
		if _, ok := sh.m[word]; !ok {
			sh.m[word] = t
			termsCached.Add(1)
		}
		sh.mu.Unlock()
	}
	return t
}

// Stemming is most of the cost of reading text, and a language has far
// fewer distinct words than a crawl reads: terms remembers each word's
// term, up to maxCachedTerms words of at most maxCachedWord bytes, in
// shards, so that crawl workers reading at once seldom wait on one lock.
var (
	terms       = newTermShards()
	termsCached atomic.Int64
)

type termShard struct {
	mu sync.RWMutex
	m  map[string]string // word -> term
}

func newTermShards() *[64]termShard {
	var t [64]termShard
	for i := range t {
		t[i].m = map[string]string{}
	}
	return &t
}

// shard picks a word's shard by FNV-1a.
func shard[S string | []byte](w S) int {
	h := uint32(2166136261)
	for i := range len(w) {
		h = (h ^ uint32(w[i])) * 16777619
	}
	return int(h % 64)
}

const (
	maxCachedTerms = 1 << 18
	maxCachedWord  = 32
)

// Terms returns the term vector of the words of s.
func Terms(s string) Vector {
	v := Vector{}
	v.AddText(s)
	return v
}

// AddText counts the terms of s into v.
func (v Vector) AddText(s string) {
	stems := map[string]string{} // a page repeats its words: stem each once
	ForEachWord([]byte(s), func(w []byte) {
		t, ok := stems[string(w)]
		if !ok {
			t = termBytes(w)
			stems[string(w)] = t
		}
		if t != "" {
			v[t]++
		}
	})
}

// TermList returns the terms of the words of s in order, stop words left
// out.
func TermList(s string) []string {
	var terms []string
	ForEachWord([]byte(s), func(w []byte) {
		if t := termBytes(w); t != "" {
			terms = append(terms, t)
		}
	})
	return terms
}

// Count returns the vector of the given lists of terms.
func Count(lists ...[]string) Vector {
	v := Vector{}
	for _, l := range lists {
		for _, t := range l {
			v[t]++
		}
	}
	return v
}

// Norm returns the Euclidean length of v.
func (v Vector) Norm() float64 {
	var s float64
	for _, t := range v.sorted() {
		s += v[t] * v[t]
	}
	return math.Sqrt(s)
}

// sorted returns v's terms in order. Sums run in this order, so that a
// result never depends on map iteration order: a relevance must be the
// same to the last bit in every run, or weights and crawls would differ.
func (v Vector) sorted() []string {
	terms := make([]string, 0, len(v))
	for t := range v {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	return terms
}

// Cosine returns the cosine similarity of two vectors, in [0,1] since
// counts are never negative; 0 when either is empty.
func Cosine(a, b Vector) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	var dot float64
	for _, t := range a.sorted() {
		dot += a[t] * b[t]
	}
	if dot == 0 {
		return 0
	}
	return min(dot/(a.Norm()*b.Norm()), 1)
}

// Top returns the most frequent fraction of v's terms (at least one if v
// has any), most frequent first; ties go to the term that sorts first, so
// the answer does not depend on map order.
func (v Vector) Top(fraction float64) []string {
	terms := v.sorted()
	slices.SortStableFunc(terms, func(a, b string) int {
		return cmp.Compare(v[b], v[a])
	})
	n := int(math.Ceil(fraction * float64(len(terms))))
	return terms[:n]
}

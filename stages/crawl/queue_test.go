package crawl

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func drain(q *Queue) []string {
	var out []string
	for q.Len() > 0 {
		k, _ := q.Extract()
		out = append(out, k)
	}
	return out
}

// A hand-checked sequence: highest weight first, ties by insertion order,
// a re-added key keeps its first weight.
func TestQueueWeightedOrder(t *testing.T) {
	q := NewQueue()
	q.Add("a", 0.25)
	q.Add("b", 1)
	q.Add("c", 0.5)
	q.Add("d", 0.5)
	if q.Add("a", 1) {
		t.Error("Add of a queued key returned true")
	}
	q.Add("e", 1)
	if k, w := q.Extract(); k != "b" || w != 1 {
		t.Fatalf("first Extract = %s %v, want b 1", k, w)
	}
	q.Add("f", 0.5) // after c and d among the 0.5s
	got := drain(q)
	want := []string{"e", "c", "d", "f", "a"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestQueueEqualWeightsAreFIFO(t *testing.T) {
	q := NewQueue()
	var want []string
	for i := range 1000 {
		k := string(rune('A'+i%26)) + string(rune('0'+i/26%10)) + string(rune('a'+i/260))
		if q.Add(k, 0) {
			want = append(want, k)
		}
	}
	if got := drain(q); !slices.Equal(got, want) {
		t.Errorf("equal weights not FIFO: first %v, want %v", got[:5], want[:5])
	}
}

func TestQueueExtractedKeyCanReturn(t *testing.T) {
	q := NewQueue()
	q.Add("x", 0.5)
	q.Extract()
	if !q.Add("x", 0.1) {
		t.Fatal("a key no longer queued must be addable")
	}
	if _, w := q.Extract(); w != 0.1 {
		t.Errorf("weight = %v, want the new 0.1", w)
	}
}

func TestQueueNextDoesNotRemove(t *testing.T) {
	q := NewQueue()
	for i, k := range []string{"a", "b", "c", "d"} {
		q.Add(k, float64(i%2))
	}
	if got := q.Next(3); !slices.Equal(got, []string{"b", "d", "a"}) {
		t.Errorf("Next(3) = %v, want [b d a]", got)
	}
	if got := drain(q); !slices.Equal(got, []string{"b", "d", "a", "c"}) {
		t.Errorf("after Next, order = %v", got)
	}
}

// Bound drops the lowest weight first and, among equal weights, the key
// added last; hand-checked.
func TestQueueBound(t *testing.T) {
	q := NewQueue()
	for _, kw := range []struct {
		k string
		w float64
	}{{"a", 0.5}, {"b", 0}, {"c", 1}, {"d", 0}, {"e", 0.5}, {"f", 0}} {
		q.Add(kw.k, kw.w)
	}
	if n := q.Bound(3); n != 3 {
		t.Errorf("Bound(3) dropped %d, want 3", n)
	}
	if got := drain(q); !slices.Equal(got, []string{"c", "a", "e"}) {
		t.Errorf("after Bound(3): %v, want [c a e]", got)
	}
	q.Add("a", 0.5)
	q.Add("b", 0.5)
	q.Bound(1)
	if !q.Add("b", 1) {
		t.Error("a dropped key must be addable again")
	}
	if got := drain(q); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("re-added dropped key: %v, want [b a]", got)
	}
}

// The two-ended queue agrees with a plain sorted list under a random mix
// of adds, extractions and bounds, through many compactions.
func TestQueueMatchesSortedModel(t *testing.T) {
	type kw struct {
		k   string
		w   float64
		seq int
	}
	rng := rand.New(rand.NewPCG(1, 2))
	q := NewQueue()
	var model []kw
	seq := 0
	sortModel := func() {
		slices.SortFunc(model, func(a, b kw) int {
			if a.w != b.w {
				return cmp.Compare(b.w, a.w)
			}
			return cmp.Compare(a.seq, b.seq)
		})
	}
	for step := range 200000 {
		switch r := rng.IntN(10); {
		case r < 6:
			k := fmt.Sprint(rng.IntN(5000))
			w := float64(rng.IntN(4)) / 4
			added := q.Add(k, w)
			inModel := slices.ContainsFunc(model, func(x kw) bool { return x.k == k })
			if added == inModel {
				t.Fatalf("step %d: Add(%s) = %v with key queued = %v", step, k, added, inModel)
			}
			if added {
				model = append(model, kw{k, w, seq})
				seq++
			}
		case r < 9 && len(model) > 0:
			sortModel()
			k, w := q.Extract()
			if k != model[0].k || w != model[0].w {
				t.Fatalf("step %d: Extract = %s %v, want %s %v", step, k, w, model[0].k, model[0].w)
			}
			model = model[1:]
		default:
			n := rng.IntN(len(model) + 1)
			sortModel()
			q.Bound(n)
			model = model[:min(n, len(model))]
		}
		if q.Len() != len(model) {
			t.Fatalf("step %d: Len = %d, want %d", step, q.Len(), len(model))
		}
	}
}

func TestQueueReweigh(t *testing.T) {
	q := NewQueue()
	for i, k := range []string{"a", "b", "c", "d"} {
		q.Add(k, float64(i%2)) // a 0, b 1, c 0, d 1
	}
	if !q.Reweigh("c", 2) || q.Reweigh("x", 1) {
		t.Fatal("Reweigh of a queued key failed, or of an absent one succeeded")
	}
	q.Reweigh("d", 0) // now equal to a: a was added first
	var got []string
	for q.Len() > 0 {
		k, _ := q.Extract()
		got = append(got, k)
	}
	if want := []string{"c", "b", "a", "d"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

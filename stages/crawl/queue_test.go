package crawl

import (
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

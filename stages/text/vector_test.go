package text

import (
	"math"
	"reflect"
	"testing"
)

// Stop words go, the rest is stemmed (Snowball English), case folded.
func TestTerms(t *testing.T) {
	got := Terms("The Runners were running quickly; the runner's generous generosity")
	// "runner's" is "runner" and the stop word "s"; Porter2 keeps
	// "generous" and makes "generosity" "generos".
	want := Vector{"runner": 2, "run": 1, "quick": 1, "generous": 1, "generos": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Terms = %v, want %v", got, want)
	}
	if got := TermList("Grand Slam of the tennis"); !reflect.DeepEqual(got, []string{"grand", "slam", "tenni"}) {
		t.Errorf("TermList = %q", got)
	}
}

// Hand-checked: (1,1,0)·(1,0,2) = 1 over sqrt(2)·sqrt(5).
func TestCosine(t *testing.T) {
	a := Vector{"x": 1, "y": 1}
	b := Vector{"x": 1, "z": 2}
	if got, want := Cosine(a, b), 1/math.Sqrt(10); math.Abs(got-want) > 1e-15 {
		t.Errorf("Cosine = %v, want %v", got, want)
	}
	if got := Cosine(a, a); math.Abs(got-1) > 1e-15 {
		t.Errorf("Cosine(a, a) = %v, want 1", got)
	}
	if got := Cosine(a, Vector{}); got != 0 {
		t.Errorf("Cosine with an empty vector = %v, want 0", got)
	}
}

func TestTopic(t *testing.T) {
	topic := NewTopic([]string{"grand slam", "tennis"}, nil)
	page := Terms("Tennis players chase the Grand Slam titles of tennis")
	// page: tenni 2, player 1, chase 1, grand 1, slam 1, titl 1; topic: grand, slam, tenni.
	want := 4 / (math.Sqrt(9) * math.Sqrt(3))
	if got := topic.Similarity(page); math.Abs(got-want) > 1e-15 {
		t.Errorf("Similarity = %v, want %v", got, want)
	}
	if !NewTopic([]string{"the", "of"}, nil).Empty() {
		t.Error("a topic of stop words must be empty")
	}
	withPage := NewTopic([]string{"tennis"}, []string{"racket racket"})
	if got := withPage.Similarity(Terms("racket")); math.Abs(got-2/math.Sqrt(5)) > 1e-15 {
		t.Errorf("topic page text: Similarity = %v, want 2/sqrt(5)", got)
	}
}

// Top takes the most frequent share of terms, ties in term order.
func TestTop(t *testing.T) {
	v := Vector{"a": 1, "b": 5, "c": 2, "d": 2, "e": 1, "f": 1, "g": 1, "h": 1, "i": 1, "j": 1, "k": 1}
	if got := v.Top(0.1); !reflect.DeepEqual(got, []string{"b", "c"}) { // ceil(1.1) = 2
		t.Errorf("Top(0.1) = %v", got)
	}
	if got := (Vector{}).Top(0.1); len(got) != 0 {
		t.Errorf("Top of empty = %v", got)
	}
}

// A word the cache remembers is looked up from its bytes without
// allocating (the crawl reads every word of every page this way), and
// gives Term's answer.
func TestTermBytesRemembered(t *testing.T) {
	w := []byte("running")
	if got, want := termBytes(w), Term("running"); got != want || got != "run" {
		t.Fatalf("termBytes = %q, Term = %q, want run", got, want)
	}
	if n := testing.AllocsPerRun(100, func() { termBytes(w) }); n != 0 {
		t.Errorf("termBytes of a remembered word: %v allocations", n)
	}
}

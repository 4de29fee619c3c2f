package learn

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

// TestModelLearns: before minLabels labels, minRelevant of them
// relevant, the score is the similarity weight; after training, links
// sharing a relevant page's features score above those sharing an
// irrelevant one's, whatever their similarity, and the learner asks for
// the frontier pages found by them to be scored again.
func TestModelLearns(t *testing.T) {
	l := New(nil, nil)
	good := Example{Terms: []uint32{1, 2, 3}, Sim: 0.2}
	bad := Example{Terms: []uint32{7, 8, 9}, Sim: 0.4}
	if s := l.Score(bad); s != 0.4 {
		t.Errorf("untrained score %v, want the similarity weight 0.4", s)
	}
	for range minLabels {
		l.m.learn(bad, 0, false)
	}
	if s := l.Score(bad); s != 0.4 || l.Trained() {
		t.Errorf("score after %d irrelevant labels %v, want the similarity weight 0.4", minLabels, s)
	}
	for i := range 60 {
		key := string(rune('A' + i))
		if i%2 == 0 {
			l.Found(key, good)
			l.Judged(key, 1, true)
		} else {
			l.Found(key, bad)
			l.Judged(key, 0, false)
		}
	}
	if g, b := l.Score(good), l.Score(bad); !(g > 0.5 && b < 0.5) {
		t.Errorf("trained scores: good %v, bad %v", g, b)
	}
	l.Found("good", good)
	l.Found("bad", bad)
	due := l.Judged("other", 1, true)
	if !slices.Contains(due, "good") || !slices.Contains(due, "bad") {
		t.Errorf("after a label the learner re-scores %v, want good and bad among them", due)
	}
	if l.Links("other") != nil || len(l.Links("good")) != 1 {
		t.Errorf("links kept: judged page %v, frontier page %v", l.Links("other"), l.Links("good"))
	}
}

// TestModelAdaGrad checks two AdaGrad steps by hand: a weight's step is
// learnRate·g/(1+√Σg²), so a second equal gradient moves it less than the
// first, while a weight seen for the first time takes a full first step.
func TestModelAdaGrad(t *testing.T) {
	m := newModel(nil)
	e := Example{Terms: []uint32{5}, Sim: 0} // one feature: norm 1
	p := 1 / (1 + math.Exp(-priorBias))      // the untrained model's probability
	m.learn(e, 1, true)
	g := 1 - p
	want := learnRate * g / (1 + g)
	if math.Abs(m.w[5]-want) > 1e-12 || math.Abs(m.d[dBias]-(priorBias+want)) > 1e-12 {
		t.Fatalf("after one label: w %v bias %v, want %v and %v", m.w[5], m.d[dBias], want, priorBias+want)
	}
	first := m.w[5]
	m.learn(Example{Terms: []uint32{5, 6}, Sim: 0}, 1, true)
	z := priorBias + want + first/math.Sqrt(2) // before the second step: two features, norm 1/√2
	g2 := (1 - 1/(1+math.Exp(-z))) / math.Sqrt(2)
	if got, want := m.w[5]-first, learnRate*g2/(1+math.Sqrt(g*g+g2*g2)); math.Abs(got-want) > 1e-12 {
		t.Errorf("second step of a seen weight %v, want %v", got, want)
	}
	if got, want := m.w[6], learnRate*g2/(1+g2); math.Abs(got-want) > 1e-12 {
		t.Errorf("first step of a new weight %v, want %v", got, want)
	}
}

// TestTarget checks the soft label by hand: the logistic of the distance
// from the threshold over softWidth·threshold.
func TestTarget(t *testing.T) {
	for _, c := range []struct{ rel, thr, want float64 }{
		{0.1, 0.1, 0.5},
		{0.15, 0.1, 1 / (1 + math.Exp(-1))}, // half the threshold above it: one unit
		{0, 0.1, 1 / (1 + math.Exp(2))},     // no relevance: two units below
		{0.4, 0.2, 1 / (1 + math.Exp(-2))},
		{0, 0, 1}, // no threshold: every page is relevant
	} {
		if got := Target(c.rel, c.thr); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Target(%v, %v) = %v, want %v", c.rel, c.thr, got, c.want)
		}
	}
}

// TestSiblings checks the sibling shares by hand: of the judged links
// within siblingWindow places of a link on its parent (the link itself
// left out), the shares relevant and irrelevant, over their count plus
// one.
func TestSiblings(t *testing.T) {
	keys := make([]string, 2*siblingWindow+5)
	for i := range keys {
		keys[i] = fmt.Sprintf("/wiki/K%d", i)
	}
	idx := siblingWindow + 2
	s := siblings{links: func(p uint32) []string {
		if p == 7 {
			return keys
		}
		return nil
	}, judged: map[string]bool{
		keys[idx-siblingWindow]:   true,  // the window's first
		keys[idx-siblingWindow+1]: false, // inside
		keys[idx+1]:               false, // inside
		keys[idx+siblingWindow+1]: true,  // just past the window
		keys[idx]:                 true,  // the link itself
	}}
	rel, irr := s.shares(7, idx)
	if rel != 1.0/4 || irr != 2.0/4 {
		t.Errorf("shares %v, %v; want 1/4 and 2/4", rel, irr)
	}
	if n := len(s.around(7, idx)); n != 2*siblingWindow {
		t.Errorf("%d neighbours, want %d", n, 2*siblingWindow)
	}
	if n := len(s.around(7, 0)); n != siblingWindow {
		t.Errorf("%d neighbours of the first link, want %d", n, siblingWindow)
	}
	for _, p := range []struct {
		parent uint32
		idx    int
	}{{8, 0}, {7, len(keys)}, {7, -1}} {
		if rel, irr := s.shares(p.parent, p.idx); rel != 0 || irr != 0 {
			t.Errorf("shares of unknown link %v: %v, %v", p, rel, irr)
		}
	}
}

// TestSiblingRescore: once the model is trained, judging a page re-scores
// its neighbours still in the frontier (their sibling features changed),
// and the scores read the shares as they are now.
func TestSiblingRescore(t *testing.T) {
	keys := []string{"a", "b", "c"}
	l := New(nil, func(uint32) []string { return keys })
	l.m.labels, l.m.relevant = minLabels, minRelevant
	l.m.d[dSibRel], l.m.d[dSibIrr] = 3, -3
	l.Found("a", Example{Idx: 0})
	l.Found("c", Example{Idx: 2})
	before := l.Score(Example{Idx: 2})
	due := l.Judged("a", 1, true)
	if !slices.Contains(due, "c") {
		t.Errorf("re-scored %v, want c (a's neighbour) among them", due)
	}
	if after := l.Score(Example{Idx: 2}); !(after > before) {
		t.Errorf("c's score %v after its neighbour was judged relevant, %v before: want higher", after, before)
	}
}

// TestFeedback: after FeedbackAfter relevant pages, the terms they share
// most are added, never the topic's own, at most the cap; a link holding
// them gains priority, one without keeps (1-weight) of its own.
func TestFeedback(t *testing.T) {
	f := NewFeedback([]string{"tennis"}, 2, 0.5)
	terms := []page.TermShare{{Term: "tenni", Share: 0.5}, {Term: "court", Share: 0.3}, {Term: "ball", Share: 0.15}, {Term: "rain", Share: 0.05}}
	for range FeedbackAfter - 1 {
		f.Judged(terms)
	}
	if f.weights != nil || f.Blend(0.4, []uint32{page.HashFeature("a|", "court")}) != 0.4 {
		t.Fatal("feedback before enough relevant pages")
	}
	f.Judged(terms)
	if !slices.Equal(f.Added, []string{"court", "ball"}) {
		t.Errorf("added %v, want [court ball]: the topic's own term never, at most 2", f.Added)
	}
	with := f.Blend(0.4, []uint32{page.HashFeature("c|", "court")})
	without := f.Blend(0.4, []uint32{page.HashFeature("c|", "opera")})
	if !(with > 0.4 && without == 0.2) {
		t.Errorf("blended priorities: %v with a feedback term, %v without (want 0.2)", with, without)
	}
}

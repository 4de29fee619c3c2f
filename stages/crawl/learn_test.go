package crawl

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

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

// TestModelLearns: before minLabels labels, minRelevant of them
// relevant, the score is the similarity weight; after training, links
// sharing a relevant page's features score above those sharing an
// irrelevant one's, whatever their similarity.
func TestModelLearns(t *testing.T) {
	l := newLearner(nil)
	good := example{linkHashes: linkHashes{terms: []uint32{1, 2, 3}}, sim: 0.2}
	bad := example{linkHashes: linkHashes{terms: []uint32{7, 8, 9}}, sim: 0.4}
	if s := l.m.score(bad); s != 0.4 {
		t.Errorf("untrained score %v, want the similarity weight 0.4", s)
	}
	for range minLabels {
		l.m.learn(bad, 0, false)
	}
	if s := l.m.score(bad); s != 0.4 {
		t.Errorf("score after %d irrelevant labels %v, want the similarity weight 0.4", minLabels, s)
	}
	q := NewQueue()
	c := &crawler{learn: l, queue: q}
	for i := range 60 {
		key := string(rune('A' + i))
		if i%2 == 0 {
			l.found(key, good)
		} else {
			l.found(key, bad)
		}
		q.Add(key, 0)
		c.judgedBy(key, i%2 == 0)
	}
	if g, b := l.m.score(good), l.m.score(bad); !(g > 0.5 && b < 0.5) {
		t.Errorf("trained scores: good %v, bad %v", g, b)
	}
	// The frontier follows the model: a queued page found by a good link
	// is re-scored above one found by a bad link.
	q.Add("good", 0)
	q.Add("bad", 0)
	l.found("bad", bad)
	l.found("good", good)
	c.judgedBy("other", true)
	if k, _ := q.Extract(); k != "good" {
		t.Errorf("first out %s, want good", k)
	}
}

// TestModelAdaGrad checks two AdaGrad steps by hand: a weight's step is
// learnRate·g/(1+√Σg²), so a second equal gradient moves it less than the
// first, while a weight seen for the first time takes a full first step.
func TestModelAdaGrad(t *testing.T) {
	m := newModel()
	e := example{linkHashes: linkHashes{terms: []uint32{5}}, sim: 0} // one feature: norm 1
	p := 1 / (1 + math.Exp(-priorBias))                              // the untrained model's probability
	m.learn(e, 1, true)
	g := 1 - p
	want := learnRate * g / (1 + g)
	if math.Abs(m.w[5]-want) > 1e-12 || math.Abs(m.bias-(priorBias+want)) > 1e-12 {
		t.Fatalf("after one label: w %v bias %v, want %v and %v", m.w[5], m.bias, want, priorBias+want)
	}
	first := m.w[5]
	m.learn(example{linkHashes: linkHashes{terms: []uint32{5, 6}}, sim: 0}, 1, true)
	z := priorBias + want + first/math.Sqrt(2) // before the second step: two features, norm 1/√2
	g2 := (1 - 1/(1+math.Exp(-z))) / math.Sqrt(2)
	if got, want := m.w[5]-first, learnRate*g2/(1+math.Sqrt(g*g+g2*g2)); math.Abs(got-want) > 1e-12 {
		t.Errorf("second step of a seen weight %v, want %v", got, want)
	}
	if got, want := m.w[6], learnRate*g2/(1+g2); math.Abs(got-want) > 1e-12 {
		t.Errorf("first step of a new weight %v, want %v", got, want)
	}
}

// TestTunnel: links found past max_tunnel irrelevant pages in a row lose
// priority, ×TunnelPenalty per page beyond; a relevant page ends the run.
func TestTunnel(t *testing.T) {
	k := 1
	c := &crawler{cfg: Config{MaxTunnel: &k}, run: map[uint32]int{}, parentRun: map[string]int{}, queue: NewQueue()}
	c.res = &Result{Pages: []Page{{Key: "/wiki/S"}, {Key: "/wiki/A"}, {Key: "/wiki/B"}, {Key: "/wiki/C", Relevant: true}}}
	l := page.Link{Weight: 0.5}
	c.judged("/wiki/S", 0, true, page.Document{}) // the seed, irrelevant: a run of 1
	l.Key = "/wiki/A"
	if w := c.priority(0, 0, l, linkHashes{}); w != 0.5 {
		t.Errorf("after one irrelevant page: %v, want 0.5", w)
	}
	c.judged("/wiki/A", 1, true, page.Document{}) // a run of 2
	l.Key = "/wiki/B"
	if w := c.priority(1, 0, l, linkHashes{}); w != 0.5*TunnelPenalty {
		t.Errorf("after two: %v, want %v", w, 0.5*TunnelPenalty)
	}
	c.judged("/wiki/B", 2, true, page.Document{}) // 3
	l.Key = "/wiki/C"
	if w := c.priority(2, 0, l, linkHashes{}); math.Abs(w-0.5*TunnelPenalty*TunnelPenalty) > 1e-15 {
		t.Errorf("after three: %v", w)
	}
	c.judged("/wiki/C", 3, true, page.Document{}) // relevant: 0
	l.Key = "/wiki/D"
	if w := c.priority(3, 0, l, linkHashes{}); w != 0.5 {
		t.Errorf("after a relevant page: %v, want 0.5", w)
	}
}

// TestFeedback: after FeedbackAfter relevant pages, the terms they share
// most are added, never the topic's own, at most the cap; a link holding
// them gains priority, one without keeps (1-weight) of its own.
func TestFeedback(t *testing.T) {
	f := newFeedback([]string{"tennis"}, 2, 0.5)
	terms := []page.TermShare{{Term: "tenni", Share: 0.5}, {Term: "court", Share: 0.3}, {Term: "ball", Share: 0.15}, {Term: "rain", Share: 0.05}}
	for range FeedbackAfter - 1 {
		f.judged(terms)
	}
	if f.weights != nil || f.blend(0.4, []uint32{page.HashFeature("a|", "court")}) != 0.4 {
		t.Fatal("feedback before enough relevant pages")
	}
	f.judged(terms)
	if !slices.Equal(f.Added, []string{"court", "ball"}) {
		t.Errorf("added %v, want [court ball]: the topic's own term never, at most 2", f.Added)
	}
	with := f.blend(0.4, []uint32{page.HashFeature("c|", "court")})
	without := f.blend(0.4, []uint32{page.HashFeature("c|", "opera")})
	if !(with > 0.4 && without == 0.2) {
		t.Errorf("blended priorities: %v with a feedback term, %v without (want 0.2)", with, without)
	}
}

// judgedBy trains c's learner on a label and re-scores what it returns,
// as the crawl loop does.
func (c *crawler) judgedBy(key string, relevant bool) {
	y := 0.0
	if relevant {
		y = 1
	}
	for _, k := range c.learn.judged(key, y, relevant) {
		c.rescore(k)
	}
}

// TestLaterLinkRaisesFrontierPage: once the model is trained, a queued
// page takes the priority of a better link found to it later, at once,
// and a link past max_tunnel keeps its penalty when re-scored; an
// untrained model leaves the first link's weight (the similarity weight)
// in place.
func TestLaterLinkRaisesFrontierPage(t *testing.T) {
	for _, trained := range []bool{false, true} {
		c := &crawler{learn: newLearner(nil), queue: NewQueue()}
		if trained {
			c.learn.m.labels, c.learn.m.relevant = minLabels, minRelevant
		}
		weak, strong, tunnelled := example{sim: 0.1}, example{sim: 0.9}, example{sim: 0.95, over: 1}
		c.learn.found("k", weak)
		c.queue.Add("k", c.adjust(c.learn.m.score(weak), weak))
		c.queue.Add("other", 0.5)
		c.learn.found("t", tunnelled)
		c.queue.Add("t", 0)
		c.learn.found("k", strong)
		c.learn.found("k", tunnelled)
		c.rescore("k")
		c.rescore("t")
		got := map[string]float64{}
		var order []string
		for c.queue.Len() > 0 {
			k, w := c.queue.Extract()
			got[k] = w
			order = append(order, k)
		}
		if !trained {
			if !slices.Equal(order, []string{"other", "k", "t"}) || got["k"] != 0.1 {
				t.Errorf("untrained: %v %v, want k to keep its first weight 0.1", order, got)
			}
			continue
		}
		m := c.learn.m
		if got["k"] != m.score(strong) || order[0] != "k" {
			t.Errorf("trained: %v %v, want k first at %v", order, got, m.score(strong))
		}
		if want := m.score(tunnelled) * TunnelPenalty; got["t"] != want {
			t.Errorf("trained: t at %v, want %v (its tunnel penalty kept)", got["t"], want)
		}
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
		if got := target(c.rel, c.thr); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("target(%v, %v) = %v, want %v", c.rel, c.thr, got, c.want)
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
	l := newLearner(func(uint32) []string { return keys })
	l.m.labels, l.m.relevant = minLabels, minRelevant
	l.m.wSibs = [2]float64{3, -3}
	l.found("a", example{idx: 0})
	l.found("c", example{idx: 2})
	before := l.score(example{idx: 2})
	due := l.judged("a", 1, true)
	if !slices.Contains(due, "c") {
		t.Errorf("re-scored %v, want c (a's neighbour) among them", due)
	}
	if after := l.score(example{idx: 2}); !(after > before) {
		t.Errorf("c's score %v after its neighbour was judged relevant, %v before: want higher", after, before)
	}
}

package crawl

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/learn"
	"github.com/topicrank/topicrank/stages/crawl/page"
)

// train gives l labels, half of them relevant, on links with features
// of their own, until it takes over from the similarity weight.
func train(l *learn.Learner) {
	for i := 0; !l.Trained(); i++ {
		key := fmt.Sprintf("/wiki/T%d", i)
		l.Found(key, learn.Example{Terms: []uint32{uint32(1000 + i)}, Sim: 0.5})
		l.Judged(key, float64(i%2), i%2 == 1)
	}
}

// TestFrontierFollowsModel: after a label, the frontier pages the learner
// names are re-weighed under the model as it is now: a queued page found
// by a link like the relevant pages' goes out before one found by a link
// like the irrelevant pages', though both were queued at 0.
func TestFrontierFollowsModel(t *testing.T) {
	c := &crawler{learner: learn.New(nil, nil), queue: NewQueue()}
	good := learn.Example{Terms: []uint32{1, 2, 3}, Sim: 0.2}
	bad := learn.Example{Terms: []uint32{7, 8, 9}, Sim: 0.4}
	for i := range 60 {
		key := fmt.Sprintf("/wiki/L%d", i)
		e := bad
		if i%2 == 0 {
			e = good
		}
		c.learner.Found(key, e)
		c.judgedBy(key, i%2 == 0)
	}
	c.queue.Add("bad", 0)
	c.queue.Add("good", 0)
	c.learner.Found("bad", bad)
	c.learner.Found("good", good)
	c.judgedBy("other", true)
	if k, _ := c.queue.Extract(); k != "good" {
		t.Errorf("first out %s, want good", k)
	}
}

// judgedBy trains c's learner on a label and re-scores what it names,
// as the crawl loop does.
func (c *crawler) judgedBy(key string, relevant bool) {
	y := 0.0
	if relevant {
		y = 1
	}
	for _, k := range c.learner.Judged(key, y, relevant) {
		c.rescore(k)
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
	if w := c.priority(0, l, learn.Example{}); w != 0.5 {
		t.Errorf("after one irrelevant page: %v, want 0.5", w)
	}
	c.judged("/wiki/A", 1, true, page.Document{}) // a run of 2
	l.Key = "/wiki/B"
	if w := c.priority(1, l, learn.Example{}); w != 0.5*TunnelPenalty {
		t.Errorf("after two: %v, want %v", w, 0.5*TunnelPenalty)
	}
	c.judged("/wiki/B", 2, true, page.Document{}) // 3
	l.Key = "/wiki/C"
	if w := c.priority(2, l, learn.Example{}); math.Abs(w-0.5*TunnelPenalty*TunnelPenalty) > 1e-15 {
		t.Errorf("after three: %v", w)
	}
	c.judged("/wiki/C", 3, true, page.Document{}) // relevant: 0
	l.Key = "/wiki/D"
	if w := c.priority(3, l, learn.Example{}); w != 0.5 {
		t.Errorf("after a relevant page: %v, want 0.5", w)
	}
}

// TestLaterLinkRaisesFrontierPage: once the model is trained, a queued
// page takes the priority of a better link found to it later, at once,
// and a link past max_tunnel keeps its penalty when re-scored; an
// untrained model leaves the first link's weight (the similarity weight)
// in place.
func TestLaterLinkRaisesFrontierPage(t *testing.T) {
	for _, trained := range []bool{false, true} {
		c := &crawler{learner: learn.New(nil, nil), queue: NewQueue()}
		if trained {
			train(c.learner)
		}
		weak, strong, tunnelled := learn.Example{Sim: 0.1}, learn.Example{Sim: 0.9}, learn.Example{Sim: 0.95, Over: 1}
		c.learner.Found("k", weak)
		c.queue.Add("k", c.adjust(c.learner.Score(weak), weak))
		c.queue.Add("other", 0.5)
		c.learner.Found("t", tunnelled)
		c.queue.Add("t", 0)
		c.learner.Found("k", strong)
		c.learner.Found("k", tunnelled)
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
		l := c.learner
		if got["k"] != l.Score(strong) || order[0] != "k" {
			t.Errorf("trained: %v %v, want k first at %v", order, got, l.Score(strong))
		}
		if want := l.Score(tunnelled) * TunnelPenalty; got["t"] != want {
			t.Errorf("trained: t at %v, want %v (its tunnel penalty kept)", got["t"], want)
		}
	}
}

// TestKnownPagesTeach: on a night that holds the graph still, links to
// pages memory judged and the plan leaves out train the learned model,
// though none of them is fetched: after sixty of them, a new page found
// by a link like the known relevant ones' outranks one found by a link
// like the known irrelevant ones', at the same similarity weight. A
// planned page teaches nothing until it is fetched.
func TestKnownPagesTeach(t *testing.T) {
	good := learn.Example{Terms: []uint32{1, 2, 3}, Sim: 0.3}
	bad := learn.Example{Terms: []uint32{7, 8, 9}, Sim: 0.3}
	known := map[string]Known{"/wiki/Planned": {Relevance: 0.9, Vertex: true}}
	for i := range 60 {
		r := 0.01
		if i%2 == 0 {
			r = 0.9
		}
		known[fmt.Sprintf("/wiki/K%d", i)] = Known{Relevance: r, Explored: true}
	}
	c := &crawler{learner: learn.New(nil, nil), queue: NewQueue(), visited: map[string]uint32{}, cfg: Config{RelevanceThreshold: 0.25},
		mem: &memory{known: known, threshold: 0.25, queued: map[string]float64{}, plan: &plan{keep: map[string]float64{"/wiki/Planned": 2.9}}}}
	c.res = &Result{Pages: []Page{{Key: "/wiki/P", Relevance: 1, Relevant: true}}}
	c.priority(0, page.Link{Key: "/wiki/Planned", Weight: 0.3}, good)
	if c.learner.Links("/wiki/Planned") == nil {
		t.Error("a planned page taught the model before it was fetched")
	}
	for i := range 60 {
		e := bad
		if i%2 == 0 {
			e = good
		}
		c.priority(0, page.Link{Key: fmt.Sprintf("/wiki/K%d", i), Weight: 0.3}, e)
	}
	if !c.learner.Trained() {
		t.Fatal("sixty known pages left the model untrained")
	}
	g := c.priority(0, page.Link{Key: "/wiki/NewGood", Weight: 0.3}, good)
	b := c.priority(0, page.Link{Key: "/wiki/NewBad", Weight: 0.3}, bad)
	if g <= b {
		t.Errorf("a link like the known relevant pages' at %v, like the irrelevant ones' at %v", g, b)
	}
}

// With best-first admission, how many fetches may start ahead depends on
// the fetches started and not consumed, never on how many are still in
// flight: a fetch whose answer the loop has consumed may not yet have
// counted itself out, and a night that fetched ahead less for it would
// leave the next night's memory short of a page (TestPlanLeavesAliases
// failed so, about once in a hundred runs), nor on the concurrency. With
// discovery admission the window, twice the concurrency, bounds the
// fetches in flight.
func TestRoomIgnoresFetchesInFlight(t *testing.T) {
	for _, tc := range []struct {
		admission   Admission
		concurrency int
		want        int
	}{
		{AdmitBestFirst, 1, bestFirstAhead - 1}, {AdmitBestFirst, 8, bestFirstAhead - 1}, {AdmitBestFirst, 64, bestFirstAhead - 1},
		{AdmitDiscovery, 1, 0}, {AdmitDiscovery, 8, 14},
	} {
		c := &crawler{cfg: Config{Admission: tc.admission, Concurrency: tc.concurrency}, started: map[string]chan fetched{"/wiki/A": nil}}
		c.inflight.Store(2) // A, and one consumed that has not counted itself out
		if got := c.room(); got != tc.want {
			t.Errorf("%v at concurrency %d: room %d, want %d", tc.admission, tc.concurrency, got, tc.want)
		}
	}
}

package crawl

import (
	"fmt"
	"testing"
)

// Memory's priorities, hand-checked: a known relevant page first, a
// bridge next, a dead end at a quarter of its weight, an unknown page at
// its weight; once memory's share is spent, relevant pages and bridges
// fall back to their weight, and a dead end stays discounted: the rest of
// the night explores pages never judged.
func TestMemoryPriority(t *testing.T) {
	m := &memory{threshold: 0.1, budget: 2, queued: map[string]float64{}, known: map[string]Known{
		"/wiki/Rel":    {Relevance: 0.6},
		"/wiki/Rel2":   {Relevance: 0.3},
		"/wiki/Bridge": {Relevance: 0.02, Relevant: []string{"/wiki/Rel", "/wiki/Rel2"}},
		"/wiki/Dead":   {Relevance: 0.05},
	}}
	visited := map[string]uint32{"/wiki/Rel": 0} // Rel is a vertex already: the bridge leads on to Rel2
	checkPriorities(t, m, visited, map[string]string{
		"/wiki/Rel": "2.60 true", "/wiki/Bridge": "1.15 true", "/wiki/Dead": "0.10 false", "/wiki/New": "0.40 false"}, map[string]string{
		"/wiki/Rel": "0.40 false", "/wiki/Bridge": "0.40 false", "/wiki/Dead": "0.10 false", "/wiki/New": "0.40 false"})
	var none *memory
	if p, ok := none.priority("/wiki/Rel", 0.4, visited); p != 0.4 || ok {
		t.Errorf("no memory: %v %v", p, ok)
	}
}

// Priorities under a plan, hand-checked: a planned page at planBoost plus
// a third of its value; a known page judged not relevant, or a known
// redirect title, at a quarter of its weight; an unknown page at its
// weight. Once memory's share is spent the planned page has its weight.
func TestPlannedPriority(t *testing.T) {
	m := &memory{threshold: 0.1, budget: 1, queued: map[string]float64{}, plan: &plan{keep: map[string]float64{"/wiki/Kept": 2.4}},
		known: map[string]Known{
			"/wiki/Kept":  {Relevance: 0.4, Vertex: true},
			"/wiki/Alias": {Relevance: 0.9, Alias: true},
			"/wiki/Dead":  {Relevance: 0.05},
		}}
	checkPriorities(t, m, nil, map[string]string{
		"/wiki/Kept": "3.80 true", "/wiki/Alias": "0.10 false", "/wiki/Dead": "0.10 false", "/wiki/New": "0.40 false"}, map[string]string{
		"/wiki/Kept": "0.40 false", "/wiki/Alias": "0.10 false", "/wiki/Dead": "0.10 false", "/wiki/New": "0.40 false"})
}

// checkPriorities checks m's priority of each key, for a link of weight
// 0.4, written as "priority ok": as left while memory's share lasts, then
// as spent once it is spent.
func checkPriorities(t *testing.T, m *memory, visited map[string]uint32, left, spent map[string]string) {
	t.Helper()
	for _, c := range []struct {
		when string
		want map[string]string
	}{{"memory's share left", left}, {"memory's share spent", spent}} {
		for key, w := range c.want {
			p, ok := m.priority(key, 0.4, visited)
			if got := fmt.Sprintf("%.2f %v", p, ok); got != w {
				t.Errorf("%s, %s: %s, want %s", c.when, key, got, w)
			}
		}
		m.admitted = m.budget
	}
}

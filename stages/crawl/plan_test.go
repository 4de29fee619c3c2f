package crawl

import (
	"maps"
	"slices"
	"testing"
)

// A hand-checked plan. The last night's graph, from seed S:
//
//	S -> A (relevant), B (irrelevant, links to C), D, E (irrelevant leaves), G (gone)
//	B -> C (relevant)
//	A -> R (relevant, known but not a vertex last night)
//
// With room for 5 pages (max 6, 1 explored): S as a seed, then by value
// A, C and R (relevant: 2 + relevance), C brings its path B; the leaves
// D and E (value: their relevance) are displaced. R enters as a known
// relevant page better than the leaves.
func TestPlanHandChecked(t *testing.T) {
	known := map[string]Known{
		"S": {Relevance: 0.1, Vertex: true, Out: []string{"A", "B", "D", "E", "G"}},
		"A": {Relevance: 0.9, Vertex: true, Out: []string{"R"}},
		"B": {Relevance: 0.05, Vertex: true, Out: []string{"C"}},
		"C": {Relevance: 0.6, Vertex: true},
		"D": {Relevance: 0.2, Vertex: true},
		"E": {Relevance: 0.1, Vertex: true, Explored: true},
		"R": {Relevance: 0.7},
		"G": {Gone: true, Vertex: true},
	}
	// share 1/6 of 6 = 1 page at most; minExploreShare of 6 rounds to 0, so
	// at least 1; the last exploration (E) found nothing: 1 page.
	p := makePlan(known, []string{"S"}, 6, 1.0/6, 0.25, false)
	if p == nil {
		t.Fatal("no plan")
	}
	if p.explore != 1 {
		t.Errorf("explore = %d, want 1", p.explore)
	}
	got := slices.Sorted(maps.Keys(p.keep))
	if want := []string{"A", "B", "C", "R", "S"}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	if v := p.keep["B"]; v != 1+1.0/5 { // a bridge to one relevant page
		t.Errorf("B's value = %v, want 1.2", v)
	}
	if v := p.keep["A"]; v != 2.9 {
		t.Errorf("A's value = %v, want 2.9", v)
	}
}

// Without a last night's graph there is no plan; with a generous room
// every reachable page stays, the gone page and the redirect title never.
func TestPlanKeepsEverythingThatFits(t *testing.T) {
	if p := makePlan(map[string]Known{"S": {Relevance: 1}}, []string{"S"}, 10, 0.1, 0.25, false); p != nil {
		t.Errorf("a plan without a last night: %v", p.keep)
	}
	known := map[string]Known{
		"S": {Vertex: true, Out: []string{"A", "G"}},
		"A": {Vertex: true, Out: []string{"B", "Y"}},
		"B": {Vertex: true},
		"G": {Gone: true, Vertex: true},
		"U": {Vertex: true},                // no longer reachable through the last graph
		"Y": {Relevance: 0.9, Alias: true}, // a redirect title folded into its article
	}
	p := makePlan(known, []string{"S"}, 100, 0.1, 0.25, false)
	got := slices.Sorted(maps.Keys(p.keep))
	if want := []string{"A", "B", "S"}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}

// Only a better page displaces a last night's vertex: at equal value the
// vertex stays, whatever the titles' order. Z1 (as relevant as Z2, known
// from a page fetched but not admitted) sorts before Z2 by title.
func TestPlanTieKeepsVertex(t *testing.T) {
	known := map[string]Known{
		"S":  {Relevance: 0.5, Vertex: true, Out: []string{"Z1", "Z2"}},
		"Z1": {Relevance: 0.5},
		"Z2": {Relevance: 0.5, Vertex: true},
	}
	p := makePlan(known, []string{"S"}, 2, 0, 0.25, false)
	got := slices.Sorted(maps.Keys(p.keep))
	if want := []string{"S", "Z2"}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}

// Exploring earns its share: the minimum when the last exploration found
// nothing, more with its hit rate, never more than share nor than the
// pages there are to displace beyond the minimum.
func TestExploreShare(t *testing.T) {
	low := map[string]float64{}
	for i := range 100 {
		low[string(rune('a'+i%26))+string(rune('a'+i/26))] = 0.1
	}
	cases := []struct {
		value           map[string]float64
		explored, found int
		want            int
	}{
		{low, 10, 0, 5},    // 2% of 250
		{low, 10, 5, 25},   // 5 + round(2 · 0.5 · 25) = 30, capped at 10% of 250
		{low, 100, 10, 10}, // 5 + round(2 · 0.1 · 25)
		{map[string]float64{"a": 2.5, "b": 0.1}, 10, 10, 6}, // one page to displace beyond the 5
	}
	for _, c := range cases {
		if got := explore(c.value, 250, 0.1, c.explored, c.found); got != c.want {
			t.Errorf("explore(%d displaceable, %d of %d found) = %d, want %d", len(c.value), c.found, c.explored, got, c.want)
		}
	}
}

// A night that judged pages beyond its graph. The last night's graph,
// from seed S, 10 pages: S, relevant A1-A3 (0.3 each), irrelevant leaves
// L1-L6; beyond it, judged relevant: N1-N4 (0.9, more relevant than
// A1-A3), linked from S. With max_pages 10 and share 0.2 (2 pages), the
// night explores the least (minExploreShare of 10 rounds to 0: 1 page),
// and takes at most 2 - 1 = 1 page that was not a vertex: N1 (by title
// among equals), in place of a leaf (L5, L6: by title among equals).
func TestPlanBeyond(t *testing.T) {
	known := map[string]Known{"S": {Relevance: 0.5, Vertex: true}}
	add := func(k string, r float64, vertex bool) {
		known[k] = Known{Relevance: r, Vertex: vertex}
		s := known["S"]
		s.Out = append(s.Out, k)
		known["S"] = s
	}
	for _, k := range []string{"A1", "A2", "A3"} {
		add(k, 0.3, true)
	}
	for _, k := range []string{"L1", "L2", "L3", "L4", "L5", "L6"} {
		add(k, 0.1, true)
	}
	for _, k := range []string{"N1", "N2", "N3", "N4"} {
		add(k, 0.9, false)
	}
	p := makePlan(known, []string{"S"}, 10, 0.2, 0.25, true)
	if p.explore != 1 {
		t.Errorf("explore = %d, want 1", p.explore)
	}
	got := slices.Sorted(maps.Keys(p.keep))
	if want := []string{"A1", "A2", "A3", "L1", "L2", "L3", "L4", "N1", "S"}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}

	// Without judging beyond, exploring earns its share as before (the
	// last night explored nothing: the least, 1) and known relevant pages
	// enter without a bound: every N, in place of leaves.
	p = makePlan(known, []string{"S"}, 10, 0.2, 0.25, false)
	got = slices.Sorted(maps.Keys(p.keep))
	if want := []string{"A1", "A2", "A3", "L1", "N1", "N2", "N3", "N4", "S"}; p.explore != 1 || !slices.Equal(got, want) {
		t.Errorf("without judging beyond: explore %d, kept %v; want 1, %v", p.explore, got, want)
	}

	// A graph short of max_pages takes what fits beyond the bound: with
	// 20 pages, 10 free, every N enters.
	p = makePlan(known, []string{"S"}, 20, 0.1, 0.25, true)
	for _, k := range []string{"N1", "N2", "N3", "N4"} {
		if _, ok := p.keep[k]; !ok {
			t.Errorf("with room to spare, %s is not kept: %v", k, slices.Sorted(maps.Keys(p.keep)))
		}
	}

	// Room for fewer pages than the relevant candidates: the relevant
	// vertices stay, the more relevant newcomers wait.
	p = makePlan(known, []string{"S"}, 6, 0.2, 0.25, false)
	got = slices.Sorted(maps.Keys(p.keep))
	if want := []string{"A1", "A2", "A3", "N1", "S"}; !slices.Equal(got, want) {
		t.Errorf("with room for 5: kept %v, want %v", got, want)
	}
}

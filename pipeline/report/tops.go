package report

import (
	"cmp"
	"context"
	"maps"
	"math"
	"slices"

	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
)

// Top is a measure's top pages.
type Top struct {
	Measure  string    // "Topic-sensitive PageRank" or "PageRank"
	Topic    bool      // topic-sensitive
	Epsilons []float64 // a rank column each, in the manifest's order
	Pages    []Page    // by position at the last (smallest) epsilon
}

// Page is a ranked page with its degrees, and its position in the whole
// wiki (0: no global ranks).
type Page struct {
	Name             string
	Position         int32
	Rank             float64
	InDegree, OutDeg int32
	GlobalPosition   int32
	Relevance        float64 // -1: not judged
	// Ranks and Positions are the page's rank and position at each of the
	// table's epsilons (Rank and Position are the last's).
	Ranks     []float64
	Positions []int32
	// Why is where the rank comes from: its in-links' shares, largest
	// first (runner explain says the same); nil when not computed.
	Why *Explanation
}

// FailedPage is a vertex whose fetch failed, with its HTTP status (0:
// none) and its position at the smallest epsilon.
type FailedPage struct {
	Name     string
	Status   int32
	Position int32
}

// WhyTop is how many of each top list's pages the report takes apart.
const WhyTop = 5

// whyHere explains the first WhyTop pages of each top list at its
// smallest epsilon. A run whose graph cannot be read again (published
// before edges.parquet had what is needed) gets no explanations.
func whyHere(root, job, runID string, tops []Top) {
	r, err := ReadRun(context.Background(), root, job, runID)
	if err != nil {
		return
	}
	for i := range tops {
		t := &tops[i]
		if len(t.Epsilons) == 0 || (t.Topic && r.Relevance == nil) {
			continue
		}
		var weight []float64
		if t.Topic {
			weight = r.Relevance
		}
		w := rank.Explain(r.Graph, r.Beta, t.Epsilons[len(t.Epsilons)-1], weight)
		ids := map[string]uint32{}
		for v, n := range r.Graph.Names() {
			ids[n] = uint32(v)
		}
		for j := range t.Pages[:min(WhyTop, len(t.Pages))] {
			if v, ok := ids[t.Pages[j].Name]; ok {
				t.Pages[j].Why = r.parts(w, v, t.Epsilons[len(t.Epsilons)-1], t.Topic)
			}
		}
	}
}

// failedPages are run's failed vertices, by position at the smallest epsilon.
func failedPages(run *publish.Previous) []FailedPage {
	var eps float64 = math.Inf(1)
	for e := range run.Ranks {
		eps = min(eps, e)
	}
	var out []FailedPage
	for name, st := range run.Unsound {
		out = append(out, FailedPage{name, st, run.Ranks[eps][name].Position})
	}
	slices.SortFunc(out, func(a, b FailedPage) int { return cmp.Compare(a.Position, b.Position) })
	return out
}

// top is the run's first TopPages sound pages by ranks at the smallest
// of eps: a page whose fetch failed has no article, and is listed apart
// (failedPages).
func top(run *publish.Previous, ranks map[float64]map[string]publish.Ranked, eps []float64, measure string, topic bool) Top {
	t := Top{Measure: measure, Topic: topic, Epsilons: eps}
	if len(eps) == 0 {
		return t
	}
	last := eps[len(eps)-1]
	sound := maps.Clone(ranks[last])
	for name := range run.Unsound {
		delete(sound, name)
	}
	for _, name := range byPosition(sound, TopPages) {
		r := ranks[last][name]
		rel, ok := run.Relevance[name]
		if !ok {
			rel = -1
		}
		p := Page{Name: name, Position: r.Position, Rank: r.Rank, InDegree: run.InDegree[name], OutDeg: run.OutDegree[name],
			GlobalPosition: r.GlobalPosition, Relevance: rel}
		for _, e := range eps {
			p.Ranks = append(p.Ranks, ranks[e][name].Rank)
			p.Positions = append(p.Positions, ranks[e][name].Position)
		}
		t.Pages = append(t.Pages, p)
	}
	return t
}

// byPosition returns the first n pages by position.
func byPosition(ranks map[string]publish.Ranked, n int) []string {
	names := make([]string, 0, len(ranks))
	for name := range ranks {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(ranks[a].Position, ranks[b].Position) })
	return names[:min(n, len(names))]
}

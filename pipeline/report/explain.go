package report

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/graph/parquetin"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
)

// Explanation says why a page ranks where it does in a run: the in-links
// that give it its rank, each with its share β·rank(u)/outdeg(u), and the
// teleport and dangling shares; they sum to the rank.
type Explanation struct {
	Job      string  `json:"job"`
	RunID    string  `json:"run_id"`
	Epsilon  float64 `json:"epsilon"`
	Topic    bool    `json:"topic"` // topic-sensitive PageRank
	Page     string  `json:"page"`
	Rank     float64 `json:"rank"`
	Position int     `json:"position"`
	Vertices int     `json:"vertices"`
	Links    []Part  `json:"links"` // largest share first
	Teleport float64 `json:"teleport"`
	Dangling float64 `json:"dangling"`
	Sum      float64 `json:"sum"` // of all shares: the rank, up to rounding
	// Without is the page's rank with its best in-link removed and
	// PageRank run again (nil without in-links).
	Without   *Loss    `json:"without_best_link,omitempty"`
	Relevance *float64 `json:"relevance,omitempty"`
	// TopicWords are the topic words the page holds: the words behind
	// its relevance.
	TopicWords string `json:"topic_words,omitempty"`
}

// Lead returns the first n in-links (those giving the most).
func (e *Explanation) Lead(n int) []Part { return e.Links[:min(n, len(e.Links))] }

// Part is one in-link's share of a rank.
type Part struct {
	From  string  `json:"from"`
	Share float64 `json:"share"`
}

// Loss is a page's rank and position without one of its in-links.
type Loss struct {
	Link     string  `json:"link"`
	Rank     float64 `json:"rank"`
	Position int     `json:"position"`
}

// Run is a published run's graph with what explains its ranks.
type Run struct {
	Job, RunID string
	Beta       float64
	Graph      *graph.Graph
	Relevance  []float64 // by vertex; nil without a topic
	pages      *publish.Previous
}

// ReadRun reads the graph of a published run (runID "" for the newest
// complete one) from its edges.parquet, with the vertex ids of its
// pages.parquet, so PageRank computed again is the published one.
func ReadRun(ctx context.Context, root, job, runID string) (*Run, error) {
	dir, m, err := pipeline.FindRun(root, job, runID)
	if err != nil {
		return nil, err
	}
	g, _, err := parquetin.Read(ctx, filepath.Join(dir, "edges.parquet"), filepath.Join(dir, "pages.parquet"))
	if err != nil {
		return nil, err
	}
	cur, err := publish.ReadPrevious(dir)
	if err != nil {
		return nil, err
	}
	r := &Run{Job: job, RunID: m.RunID, Beta: m.Config.Beta, Graph: g, pages: cur}
	if len(cur.Relevance) > 0 {
		r.Relevance = make([]float64, g.NumVertices())
		for v, name := range g.Names() {
			r.Relevance[v] = cur.Relevance[name]
		}
	}
	return r, nil
}

// Explain explains page's rank at epsilon, topic-sensitive if topic.
func (r *Run) Explain(page string, epsilon float64, topic bool) (*Explanation, error) {
	v := slices.Index(r.Graph.Names(), page)
	if v < 0 {
		return nil, fmt.Errorf("%s is not a vertex of run %s of %s (%d vertices)", page, r.RunID, r.Job, r.Graph.NumVertices())
	}
	if topic && r.Relevance == nil {
		return nil, fmt.Errorf("run %s of %s has no relevance: no topic-sensitive PageRank to explain", r.RunID, r.Job)
	}
	var weight []float64
	if topic {
		weight = r.Relevance
	}
	w := rank.Explain(r.Graph, r.Beta, epsilon, weight)
	return r.explain(w, uint32(v), epsilon, topic)
}

// parts is v's explanation without its loss: shares only (what the
// report's top lists show).
func (r *Run) parts(w *rank.Why, v uint32, epsilon float64, topic bool) *Explanation {
	p := w.Of(v)
	e := &Explanation{Job: r.Job, RunID: r.RunID, Epsilon: epsilon, Topic: topic, Page: r.Graph.Name(v),
		Rank: p.Rank, Vertices: r.Graph.NumVertices(), Teleport: p.Teleport, Dangling: p.Dangling, Sum: p.Sum()}
	for _, l := range p.Links {
		e.Links = append(e.Links, Part{r.Graph.Name(l.From), l.Value})
	}
	e.TopicWords = r.pages.TopicWords[e.Page]
	return e
}

// explain takes vertex v apart under w.
func (r *Run) explain(w *rank.Why, v uint32, epsilon float64, topic bool) (*Explanation, error) {
	p := w.Of(v)
	e := &Explanation{Job: r.Job, RunID: r.RunID, Epsilon: epsilon, Topic: topic, Page: r.Graph.Name(v),
		Rank: p.Rank, Position: position(w.Ranks, v), Vertices: r.Graph.NumVertices(),
		Teleport: p.Teleport, Dangling: p.Dangling, Sum: p.Sum()}
	for _, l := range p.Links {
		e.Links = append(e.Links, Part{r.Graph.Name(l.From), l.Value})
	}
	if rel, ok := r.pages.Relevance[e.Page]; ok {
		e.Relevance = &rel
	}
	e.TopicWords = r.pages.TopicWords[e.Page]
	if len(p.Links) > 0 {
		best := p.Links[0].From
		h, err := rank.Without(r.Graph, best, v)
		if err != nil {
			return nil, err
		}
		var weight []float64
		if topic {
			weight = r.Relevance
		}
		after := rank.Explain(h, r.Beta, epsilon, weight)
		e.Without = &Loss{Link: r.Graph.Name(best), Rank: after.Ranks[v], Position: position(after.Ranks, v)}
	}
	if math.Abs(e.Sum-e.Rank) > 1e-9 {
		return nil, fmt.Errorf("the shares of %s sum to %v, its rank is %v", e.Page, e.Sum, e.Rank)
	}
	return e, nil
}

// position is v's 1-based position by rank (ties: the earlier vertex).
func position(ranks []float64, v uint32) int {
	return slices.Index(rank.Order(ranks), v) + 1
}

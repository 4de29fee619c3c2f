package rank

import "github.com/topicrank/topicrank/stages/graph"

// JaccardTop is the size of the top sets compared by Summary's Jaccard
// figures.
const JaccardTop = 100

// Summary is the report of `runner rank`: sizes, top lists and overlaps.
type Summary struct {
	Vertices     int              `json:"vertices"`
	Edges        int              `json:"edges"`
	TopInDegree  []string         `json:"top_in_degree"`
	TopOutDegree []string         `json:"top_out_degree"`
	Results      []EpsilonSummary `json:"results"`
	// The degrees of the pages of TopInDegree and TopOutDegree, in their
	// order (beside the specified fields, which hold names only).
	InDegrees  []int `json:"top_in_degree_values"`
	OutDegrees []int `json:"top_out_degree_values"`
}

// EpsilonSummary is one epsilon's part of a Summary.
type EpsilonSummary struct {
	Epsilon     float64  `json:"epsilon"`
	Iterations  int      `json:"iterations"`
	Residual    float64  `json:"residual"`
	Converged   bool     `json:"converged"`
	TopPageRank []string `json:"top_pagerank"`
	// PageRanks are the ranks of TopPageRank's pages, in its order.
	PageRanks []float64 `json:"top_pagerank_values"`
	Jaccard   Overlap   `json:"jaccard"`
}

// Overlap holds Jaccard(A,B) of the top-100 sets: A by in-degree, B by
// out-degree, C by PageRank.
type Overlap struct {
	InOut   float64 `json:"in_out"`
	InRank  float64 `json:"in_rank"`
	OutRank float64 `json:"out_rank"`
}

// Summarize builds the Summary of g and its PageRank results with top-k
// lists of length k. Ties at every cut are broken by page name, which
// every input of the graph shares (vertex ids follow each input's order).
func Summarize(g *graph.Graph, results []Result, k int) Summary {
	in, out := Degrees(g)
	names := func(ids []uint32) []string {
		s := make([]string, len(ids))
		for i, v := range ids {
			s[i] = g.Name(v)
		}
		return s
	}
	a, b := TopKNamed(in, JaccardTop, g.Name), TopKNamed(out, JaccardTop, g.Name)
	topIn, topOut := TopKNamed(in, k, g.Name), TopKNamed(out, k, g.Name)
	s := Summary{
		Vertices: g.NumVertices(), Edges: g.NumEdges(),
		TopInDegree: names(topIn), TopOutDegree: names(topOut),
		InDegrees: valuesOf(in, topIn), OutDegrees: valuesOf(out, topOut),
	}
	for _, r := range results {
		c, top := TopKNamed(r.Ranks, JaccardTop, g.Name), TopKNamed(r.Ranks, k, g.Name)
		s.Results = append(s.Results, EpsilonSummary{
			Epsilon: r.Epsilon, Iterations: r.Iterations, Residual: r.Residual, Converged: r.Converged,
			TopPageRank: names(top), PageRanks: valuesOf(r.Ranks, top),
			Jaccard: Overlap{InOut: Jaccard(a, b), InRank: Jaccard(a, c), OutRank: Jaccard(b, c)},
		})
	}
	return s
}

// valuesOf returns values[v] for each v of ids, in order.
func valuesOf[T int | float64](values []T, ids []uint32) []T {
	out := make([]T, len(ids))
	for i, v := range ids {
		out[i] = values[v]
	}
	return out
}

package rank

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
)

// The same graph read in two vertex orders (an edge list and an edges
// table with a vertices table number vertices differently) gives the same
// top lists and Jaccard figures: ties at the cut go by page name. A star
// of 150 leaves ties 150 pages at the 100th place.
func TestSummaryTiesByName(t *testing.T) {
	build := func(reverse bool) *graph.Graph {
		b := graph.NewBuilder()
		names := make([]string, 151)
		for i := range names {
			names[i] = fmt.Sprintf("/wiki/P%03d", i)
		}
		if reverse {
			for i := len(names) - 1; i >= 0; i-- {
				b.Vertex(names[i])
			}
		} else {
			for _, n := range names {
				b.Vertex(n)
			}
		}
		id := func(i int) uint32 {
			if reverse {
				return uint32(150 - i)
			}
			return uint32(i)
		}
		for i := 1; i <= 150; i++ { // every leaf links to the hub and the hub to every leaf
			b.AddEdge(id(i), id(0))
			b.AddEdge(id(0), id(i))
		}
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	var sums []Summary
	for _, reverse := range []bool{false, true} {
		g := build(reverse)
		sums = append(sums, Summarize(g, PageRank(g, 0.85, []float64{1e-9}), 10))
	}
	a, b := sums[0], sums[1]
	a.Results[0].Iterations, b.Results[0].Iterations = 0, 0
	a.Results[0].Residual, b.Results[0].Residual = 0, 0
	a.Results[0].PageRanks, b.Results[0].PageRanks = nil, nil // equal ranks to the last digit or so, in the same order
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the two orders differ:\n%+v\n%+v", a, b)
	}
	if a.TopInDegree[1] != "/wiki/P001" {
		t.Errorf("ties not broken by name: %v", a.TopInDegree)
	}
}

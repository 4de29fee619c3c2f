package publish

import (
	"testing"

	"github.com/topicrank/topicrank/stages/crawl"
	crawlpage "github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/graph"
)

// Every difference between two runs has a cause, hand-checked. The
// previous run: S links to A, B, X, F and Gone (a 410 then); B to L.
// Tonight A's content changed and now links to N; B has a new revision
// and links to M instead of L; S links to Q and E (a 503) too; F answers
// 404; X left with no changed page behind it.
func TestCausesHandChecked(t *testing.T) {
	yes := true
	h := func(s string) string { return crawlpage.ContentHashPrefix + s }
	b := graph.NewBuilder()
	for _, e := range [][2]string{{"S", "A"}, {"S", "B"}, {"S", "F"}, {"A", "N"}, {"B", "M"}, {"S", "E"}, {"S", "Q"}} {
		b.AddEdge(b.Vertex(e[0]), b.Vertex(e[1]))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	res := &crawl.Result{Pages: []crawl.Page{
		{Key: "S", State: crawl.Fetched, ContentHash: h("s")},
		{Key: "A", State: crawl.Fetched, ContentHash: h("a2")},               // content changed, revision unknown
		{Key: "B", State: crawl.Fetched, ContentHash: h("b2"), Edited: &yes}, // a new revision, links to M now
		{Key: "F", State: crawl.Failed, Status: 404},
		{Key: "N", State: crawl.Fetched, ContentHash: h("n")}, // linked from A, which changed
		{Key: "M", State: crawl.Fetched, ContentHash: h("m")}, // linked from B, which was edited
		{Key: "E", State: crawl.Failed, Status: 503},
		{Key: "Q", State: crawl.Fetched, ContentHash: h("q")}, // linked from S only: the crawl's choice
	}}
	prev := &Previous{
		Hashes:  map[string]string{"S": h("s"), "A": h("a1"), "B": h("b1"), "L": h("l"), "X": h("x")},
		Unsound: map[string]int32{"Gone": 410},
		Sources: map[string][]string{"A": {"S"}, "B": {"S"}, "L": {"B"}, "X": {"S"}, "Gone": {"S"}, "F": {"S"}},
	}
	c := newCauser(&Input{Crawl: res, Graph: g, Previous: prev})
	id := func(n string) uint32 {
		for v, name := range g.Names() {
			if name == n {
				return uint32(v)
			}
		}
		t.Fatalf("no vertex %s", n)
		return 0
	}
	for _, k := range []struct {
		name  string
		moved bool
		want  string
	}{
		{"S", false, CauseUnchanged}, {"S", true, CauseRank}, {"A", true, CauseChanged},
		{"B", false, CauseEdited}, {"F", true, CauseGone},
	} {
		if got := c.kept(k.name, k.moved); got != k.want {
			t.Errorf("kept %s: %s, want %s", k.name, got, k.want)
		}
	}
	for name, want := range map[string]string{"N": CauseLinked, "M": CauseLinked, "Q": CauseCrawl, "E": CauseFailed} {
		if got := c.entered(id(name)); got != want {
			t.Errorf("entered %s: %s, want %s", name, got, want)
		}
	}
	for name, want := range map[string]string{"L": CauseUnlinked, "X": CauseCrawl, "Gone": CauseGone} {
		if got := c.left(name); got != want {
			t.Errorf("left %s: %s, want %s", name, got, want)
		}
	}
	for _, s := range []string{CauseEdited, CauseChanged, CauseRank, CauseUnchanged} {
		if !Sound(s) {
			t.Errorf("%s is not sound", s)
		}
	}
	for _, s := range []string{CauseGone, CauseFailed, CauseLinked, CauseCrawl} {
		if Sound(s) {
			t.Errorf("%s is sound", s)
		}
	}
	if got := newCauser(&Input{Crawl: res, Graph: g}).entered(id("Q")); got != CauseFirst {
		t.Errorf("a first run's page: %s, want %s", got, CauseFirst)
	}
}

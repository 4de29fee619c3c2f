package report

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
)

// With global_ranks (a whole wiki's ranks table, as rank -dump -out
// writes it), a run's ranks tables hold each page's global rank and
// position, and the report lists the pages central here and not there.
func TestGlobalRanks(t *testing.T) {
	// The "whole wiki": the generated wiki's pages, ranked so that the
	// higher a page's number the more central it is.
	b := graph.NewBuilder()
	for i := range 300 {
		b.Vertex(fmt.Sprintf("/wiki/Page_%d", i))
	}
	for i := range 300 {
		for j := i + 1; j < 300; j += 7 {
			b.AddEdge(uint32(i), uint32(j))
		}
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	wiki := t.TempDir()
	if _, err := publish.Write(wiki, &publish.Input{Job: "rank", RunID: "dump", Graph: g, Ranks: rank.PageRank(g, 0.85, []float64{0.001})}); err != nil {
		t.Fatal(err)
	}
	w := wikitest.New(t, 300)
	r := pipeline.NewRunner(t.TempDir(), slog.New(slog.DiscardHandler))
	r.BaseURL = w.URL()
	r.Now = func() time.Time { return time.Date(2026, 11, 21, 2, 0, 0, 0, time.UTC) }
	job := pipeline.Job{Name: "tennis", Seeds: []string{"/wiki/Page_0"}, Topics: []string{"tennis"}, Weighted: true,
		LinkScope: "body", Strategy: "weighted", Admission: "discovery", RelevanceThreshold: 0.1, MaxPages: 80,
		BaseURL: "https://en.wikipedia.org", UserAgent: "topicrank-test/0.1 (ops@example.org)",
		Epsilons: []float64{0.01}, Beta: 0.85, MaxRPS: 1000, Concurrency: 4,
		GlobalRanks: filepath.Join(wiki, "ranks", "0.001.parquet")}
	m, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	run, err := publish.ReadPrevious(filepath.Join(r.OutDir, "tennis", m.RunID))
	if err != nil {
		t.Fatal(err)
	}
	global, _ := publish.ReadRanks(job.GlobalRanks)
	matched := 0
	for page, rk := range run.Ranks[0.01] {
		g := global.ByName[page] // zero for a page the wiki lacks: null in the table
		if rk.GlobalPosition != g.Position || rk.GlobalRank != g.Rank {
			t.Fatalf("%s: global %d %v in the run's ranks, %d %v in the wiki's", page, rk.GlobalPosition, rk.GlobalRank, g.Position, g.Rank)
		}
		if g.Position > 0 {
			matched++
		}
	}
	if matched < 40 {
		t.Errorf("only %d pages have a global rank", matched)
	}
	d, err := Read(r.OutDir, "tennis", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.OverRepresented) != Over {
		t.Fatalf("%d over-represented pages, want %d", len(d.OverRepresented), Over)
	}
	o := d.OverRepresented
	for i := 1; i < len(o); i++ {
		if float64(o[i].GlobalPosition)/float64(o[i].Position) > float64(o[i-1].GlobalPosition)/float64(o[i-1].Position) {
			t.Errorf("not in order of global over local position: %+v", o)
		}
	}
	var html strings.Builder
	if err := d.Write(&html); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "Central here, not in the whole wiki") {
		t.Error("the report has no over-represented pages")
	}
}

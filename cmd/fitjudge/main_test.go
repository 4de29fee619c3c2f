package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/text"
)

// The shipped judge is what fitjudge makes of the assessed corpus: fitted
// again from the corpus and the assessments, it comes out the same to the
// byte, and its report shows the held-out figures docs/relevance.md gives.
func TestFitReproducesShipped(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the 2,695-page corpus under six topics")
	}
	if raceBuild {
		t.Skip("a computation, not concurrency: .ci/run runs it without the race detector")
	}
	shared := wikitest.Shared(t)
	out := filepath.Join(t.TempDir(), "judge.json")
	var report bytes.Buffer
	err := run(&report, filepath.Join(shared, "data", "wikipedia-2018", "uw-cse373-en-wikipedia-2018.tar.zst"),
		filepath.Join(shared, "data", "assessments", "dev-labels.tsv"),
		filepath.Join("..", "..", "docs", "relevance", "assessed-topics.yaml"), out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := os.ReadFile(filepath.Join("..", "..", "stages", "text", "judge.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, shipped) {
		t.Errorf("the judge fitted again differs from stages/text/judge.json:\n%s", got)
	}
	t.Logf("\n%s", report.String())
}

// Fitting recovers a known model: labels drawn from a logistic model of
// two features are fitted back close to its weights.
func TestFitRecovers(t *testing.T) {
	var rows []example
	// A deterministic design: every combination of title ∈ {0,1} and
	// lead_start on a grid, labelled by thresholding the true chance
	// against an evenly spread sequence, so the share of relevant rows in
	// each cell is the true chance.
	trueBias, wTitle, wLead := -2.0, 1.5, 2.0
	for title := range 2 {
		for g := range 20 {
			lead := float64(g) / 10
			p := sigmoid(trueBias + wTitle*float64(title) + wLead*lead)
			for k := range 200 {
				var e text.Evidence
				e[text.FeatTitle], e[text.FeatLeadStart] = float64(title), lead
				rows = append(rows, example{topic: k % 2, e: e, relevant: (float64(k)+0.5)/200 < p})
			}
		}
	}
	j := fit(rows)
	w := j.Vector()
	if d := j.Bias - trueBias; d*d > 0.05 {
		t.Errorf("bias %v, want about %v", j.Bias, trueBias)
	}
	if d := w[text.FeatTitle] - wTitle; d*d > 0.05 {
		t.Errorf("title weight %v, want about %v", w[text.FeatTitle], wTitle)
	}
	if d := w[text.FeatLeadStart] - wLead; d*d > 0.05 {
		t.Errorf("lead weight %v, want about %v", w[text.FeatLeadStart], wLead)
	}
}

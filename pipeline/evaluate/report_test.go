package evaluate

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/revisit"
)

// With bfs and the oracle in a report, the table gives each strategy's
// distance from halfway between them (hand-checked: bfs 45 and the
// oracle 58 relevant of 250 put halfway at 0.206, so learned's 51 is
// 0.002 below it), and the chart a dotted line halfway between their
// curves; without either, there is neither.
func TestPrintHalfway(t *testing.T) {
	harvest := func(s string, relevant int) publish.Harvest {
		return publish.Harvest{Strategy: s, Pages: 250, Fetched: 250, Relevant: relevant, Overlap: map[string]int{}}
	}
	rep := &Report{Job: "sports", Admission: "best-first", MaxPages: 250, Threshold: 0.1,
		Harvests: []publish.Harvest{harvest("bfs", 45), harvest("learned", 51), harvest(Oracle, 58)}}
	if half, ok := rep.Halfway(); !ok || math.Abs(half-0.206) > 1e-12 {
		t.Errorf("Halfway() = %v, %v; want 0.206", half, ok)
	}
	var out bytes.Buffer
	if err := rep.Print(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"vs halfway", "0.180      -0.026", "0.204      -0.002", "0.232      +0.026", "halfway between bfs and the oracle: 0.206"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}

	// The chart's dotted line is the mean of the two curves, page by page.
	rep.Harvests[0].Curve, rep.Harvests[2].Curve = []int{0, 1, 1}, []int{1, 2, 3}
	if got := rep.halfwayCurve(); len(got) != 4 || got[1].Y != 0.5 || got[2].Y != 1.5 || got[3] != (plotter.XY{X: 3, Y: 2}) {
		t.Errorf("halfway curve %v", got)
	}
	dir := t.TempDir()
	if err := rep.chart(filepath.Join(dir, "h.svg"), "svg"); err != nil {
		t.Fatal(err)
	}
	if svg, err := os.ReadFile(filepath.Join(dir, "h.svg")); err != nil || !bytes.Contains(svg, []byte("halfway between bfs and oracle")) {
		t.Errorf("the chart has no halfway line in its legend: %v", err)
	}

	rep.Harvests = rep.Harvests[:2] // no oracle
	out.Reset()
	if err := rep.Print(&out); err != nil {
		t.Fatal(err)
	}
	if _, ok := rep.Halfway(); ok || strings.Contains(out.String(), "halfway") || rep.halfwayCurve() != nil {
		t.Errorf("a report without the oracle has a halfway:\n%s", out.String())
	}
}

// The chart's y axis ends a tenth above the highest curve, rounded up,
// but never past the pages fetched, and its legend stands right of every
// curve, where none runs through it.
func TestChartAxisAndLegend(t *testing.T) {
	curve := func(n, relevant int) []int {
		c := make([]int, n)
		for i := range c {
			c[i] = min(i+1, relevant)
		}
		return c
	}
	rep := &Report{Job: "sports", Admission: "best-first", MaxPages: 250, Threshold: 0.1, Harvests: []publish.Harvest{
		{Strategy: "bfs", Pages: 250, Fetched: 250, Relevant: 45, Curve: curve(250, 45)},
		{Strategy: Oracle, Pages: 250, Fetched: 250, Relevant: 58, Curve: curve(250, 58)},
	}}
	if got := rep.yMax(); got != 64 { // ⌈1.1 · 58⌉
		t.Errorf("yMax with 58 of 250 relevant = %v, want 64", got)
	}
	all := &Report{Harvests: []publish.Harvest{{Strategy: "bfs", Curve: []int{1, 2, 3}}}}
	if got := all.yMax(); got != 3 {
		t.Errorf("yMax with every page relevant = %v, want the 3 pages fetched", got)
	}
	if got := (&Report{}).yMax(); got != 1 {
		t.Errorf("yMax of no curve = %v, want 1", got)
	}

	checkLegendBeside(t, rep.chart, "bfs (harvest")
}

// The revisit chart's legends stand right of its panels too (oldest and
// adaptive here give the same nights, as on the dynamic mirror: their
// points' shapes tell them apart, which docs/revisit-seattle.png shows).
func TestRevisitChartLegend(t *testing.T) {
	nights := func(recall ...float64) []revisit.NightScore {
		var ns []revisit.NightScore
		for i, r := range recall {
			ns = append(ns, revisit.NightScore{Night: i + 1, ChangeRecall: r, Freshness: 0.9 + r/10})
		}
		return ns
	}
	rep := &RevisitReport{Job: "seattle", Budget: 0.2, Scores: []revisit.Score{
		{Policy: revisit.Oldest, Nights: nights(0.1, 0.2, 0.3)},
		{Policy: revisit.Adaptive, Nights: nights(0.1, 0.2, 0.3)},
		{Policy: revisit.Freshness, Nights: nights(0.6, 0.7, 0.9)},
	}}
	checkLegendBeside(t, rep.chart, "freshness (mean")
}

// checkLegendBeside draws a chart as SVG and checks that its legend
// entry beginning with entry stands right of the rightmost point of every
// drawn line of more than two points (the curves).
func checkLegendBeside(t *testing.T, chart func(path, format string) error, entry string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chart.svg")
	if err := chart(path, "svg"); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	right := 0.0
	for _, m := range regexp.MustCompile(`<path d="M([^"]*)"`).FindAllStringSubmatch(string(svg), -1) {
		pts := strings.Split(m[1], "L")
		if len(pts) < 3 {
			continue
		}
		for _, p := range pts {
			x, _, _ := strings.Cut(p, ",")
			if v, err := strconv.ParseFloat(x, 64); err == nil {
				right = max(right, v)
			}
		}
	}
	m := regexp.MustCompile(`<text x="([0-9.]+)"[^>]*\n?[^>]*>` + regexp.QuoteMeta(entry)).FindSubmatch(svg)
	if m == nil || right == 0 {
		t.Fatalf("no legend entry %q or no curve in the SVG (right edge %v)", entry, right)
	}
	if x, _ := strconv.ParseFloat(string(m[1]), 64); x <= right {
		t.Errorf("legend entry %q at x=%v, inside the curves (right edge %v)", entry, x, right)
	}
}

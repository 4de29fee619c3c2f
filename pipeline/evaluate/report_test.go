package evaluate

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/publish"
)

// With bfs and the oracle in a report, the table gives each strategy's
// distance from halfway between them (hand-checked: bfs 45 and the
// oracle 58 relevant of 250 put halfway at 0.206, so learned's 51 is
// 0.002 below it); without either, there is no such column.
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

	rep.Harvests = rep.Harvests[:2] // no oracle
	out.Reset()
	if err := rep.Print(&out); err != nil {
		t.Fatal(err)
	}
	if _, ok := rep.Halfway(); ok || strings.Contains(out.String(), "halfway") {
		t.Errorf("a report without the oracle has a halfway:\n%s", out.String())
	}
}

package evaluate

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/publish"
)

// topicReport is a hand-made evaluation of one topic: bfs, two learned
// nights and the oracle, each judged as given.
func topicReport(job string, bfs, n1, n2, oracle Judged, jaccard float64) *Report {
	r := &Report{Job: job, Nights: 2, Labelled: true}
	r.add(publish.Harvest{Strategy: "bfs", Night: 1}, bfs)
	r.add(publish.Harvest{Strategy: "learned", Night: 1}, n1)
	r.add(publish.Harvest{Strategy: "learned", Night: 2, Churn: &publish.Churn{Jaccard: jaccard}}, n2)
	r.add(publish.Harvest{Strategy: Oracle, Night: 1}, oracle)
	return r
}

// Hand-checked: two topics, two nights. Topic a harvests 0.1 (bfs), 0.3,
// 0.5, 0.7 (oracle); topic b 0.3, 0.5, 0.5, 0.9. Means: bfs 0.2, oracle
// 0.8, nights 0.4 and 0.5, so 33% and 50% of the way. F1: a's nights
// 1 (TP 3) and 0.5 (TP 1, FP 1, FN 1), b's 0.8 (P 1, R 2/3) and 0;
// macro 0.9 and 0.25, the lowest b's 0.8 and 0. Jaccard 0.9 and 0.7:
// mean 0.8, lowest b's.
func TestSummarizeHandChecked(t *testing.T) {
	a := topicReport("a", Judged{Labelled: 10, Relevant: 1}, Judged{Labelled: 10, Relevant: 3, TP: 3},
		Judged{Labelled: 10, Relevant: 5, TP: 1, FP: 1, FN: 1}, Judged{Labelled: 10, Relevant: 7}, 0.9)
	b := topicReport("b", Judged{Labelled: 10, Relevant: 3}, Judged{Labelled: 10, Relevant: 5, TP: 2, FN: 1},
		Judged{Labelled: 10, Relevant: 5, FN: 5}, Judged{Labelled: 10, Relevant: 9}, 0.7)
	s, err := Summarize("learned", []*Report{a, b})
	if err != nil {
		t.Fatal(err)
	}
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-12 }
	if !near(s.BFS, 0.2) || !near(s.Oracle, 0.8) || !near(s.Harvest[0], 0.4) || !near(s.Harvest[1], 0.5) ||
		!near(s.Way(0), 1.0/3) || !near(s.Way(1), 0.5) {
		t.Errorf("harvest: %+v, of the way %v %v", s, s.Way(0), s.Way(1))
	}
	if !near(s.F1[0], 0.9) || !near(s.F1[1], 0.25) || !near(s.LowestF1[0], 0.8) || s.LowestF1Topic[0] != "b" || s.LowestF1[1] != 0 {
		t.Errorf("F1: %v, lowest %v %v", s.F1, s.LowestF1, s.LowestF1Topic)
	}
	if !near(s.Jaccard, 0.8) || s.LowestJaccard != 0.7 || s.LowestTopic != "b" {
		t.Errorf("Jaccard %v, lowest %v (%s)", s.Jaccard, s.LowestJaccard, s.LowestTopic)
	}
	var out bytes.Buffer
	if err := s.Print(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"learned over 2 topics", "(bfs 0.200, oracle 0.800)", "33%", "50%", "0.000 (b)", "0.800 on the mean, lowest 0.700 (b)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
	unlabelled := topicReport("c", Judged{}, Judged{}, Judged{}, Judged{}, 0)
	unlabelled.Labelled = false
	if _, err := Summarize("learned", []*Report{a, unlabelled}); err == nil || !strings.Contains(err.Error(), "c: want 2 nights, all judged alike") {
		t.Errorf("a topic not judged by people: %v", err)
	}
	if _, err := Summarize("similarity", []*Report{a}); err == nil {
		t.Error("a strategy no report crawled")
	}
}

// Hand-checked without people's labels: harvest is the crawls' own
// (relevant over fetched), there is no F1 nor oracle, and the Jaccard is
// as with labels. Topic a harvests 0.2 (bfs), 0.4, 0.6; topic b 0.4, 0.6,
// 0.6: means bfs 0.3, nights 0.5 and 0.6; Jaccard 0.9 and 0.6.
func TestSummarizeOwnJudge(t *testing.T) {
	own := func(job string, bfs, n1, n2 int, jaccard float64) *Report {
		r := &Report{Job: job, Nights: 2}
		r.add(publish.Harvest{Strategy: "bfs", Night: 1, Fetched: 10, Relevant: bfs}, Judged{})
		r.add(publish.Harvest{Strategy: "learned", Night: 1, Fetched: 10, Relevant: n1}, Judged{})
		r.add(publish.Harvest{Strategy: "learned", Night: 2, Fetched: 10, Relevant: n2, Churn: &publish.Churn{Jaccard: jaccard}}, Judged{})
		return r
	}
	s, err := Summarize("learned", []*Report{own("a", 2, 4, 6, 0.9), own("b", 4, 6, 6, 0.6)})
	if err != nil {
		t.Fatal(err)
	}
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-12 }
	if s.Labelled || !near(s.BFS, 0.3) || !math.IsNaN(s.Oracle) || !near(s.Harvest[0], 0.5) || !near(s.Harvest[1], 0.6) {
		t.Errorf("harvest: %+v", s)
	}
	if !near(s.Jaccard, 0.75) || s.LowestJaccard != 0.6 || s.LowestTopic != "b" {
		t.Errorf("Jaccard %v, lowest %v (%s)", s.Jaccard, s.LowestJaccard, s.LowestTopic)
	}
	var out bytes.Buffer
	if err := s.Print(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"learned over 2 topics, means judged by the crawls' own relevance (bfs 0.300)", "0.600", "0.750 on the mean, lowest 0.600 (b)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
	for _, absent := range []string{"F1", "of the way", "%"} {
		if strings.Contains(out.String(), absent) {
			t.Errorf("the table has %q without labels:\n%s", absent, out.String())
		}
	}
}

// When bfs, the oracle and a night all harvest the same, there is no way
// to go: the cell is empty, not NaN%.
func TestSummaryNoWay(t *testing.T) {
	j := Judged{Labelled: 10, Relevant: 5}
	s, err := Summarize("learned", []*Report{topicReport("a", j, j, j, j, 1)})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.Print(&out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "NaN") || !strings.Contains(out.String(), "of the way") {
		t.Errorf("the table:\n%s", out.String())
	}
}

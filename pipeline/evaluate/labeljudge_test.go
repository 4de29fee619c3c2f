package evaluate

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// labelledWiki serves a generated wiki of 200 pages and returns a runner
// crawling it, a job of 40 pages on it and labels for every page: 0, 1
// and 2 in turn, not the pattern of the job's words.
func labelledWiki(t *testing.T) (*pipeline.Runner, pipeline.Job, map[string]int) {
	w := wikitest.New(t, 200)
	labels := map[string]int{}
	for i := range 200 {
		key, _ := page.ArticleKey(fmt.Sprintf("/wiki/Page_%d", i), nil)
		labels[key] = i % 3
	}
	r := pipeline.NewRunner(t.TempDir(), slog.New(slog.DiscardHandler))
	r.BaseURL = w.URL()
	job := pipeline.Job{Name: "gen", Seeds: []string{"/wiki/Page_0"}, Topics: []string{"tennis"}, MaxPages: 40,
		Admission: "best-first", LinkScope: "prose", RelevanceThreshold: 0.25, Weighted: true,
		UserAgent: "topicrank-test/0.1 (ops@example.org)", Epsilons: []float64{0.01}, Beta: 0.85, MaxRPS: 1000, Concurrency: 4}
	return r, job, labels
}

// With LabelJudge, every crawl's published relevant is exactly people's
// "at least 1" (precision and recall 1 on every night), whatever the
// pages show; without it, the same crawls disagree with labels that
// ignore the topic's words. The tables say which judge the crawls had.
func TestLabelJudge(t *testing.T) {
	r, job, labels := labelledWiki(t)
	job.RelevanceThreshold = 0.6
	log := slog.New(slog.DiscardHandler)
	for _, byLabels := range []bool{false, true} {
		rep, err := EvaluateNights(context.Background(), r, job, []string{"bfs", "learned"}, "", 2,
			Truth{Labels: labels, LabelJudge: byLabels}, t.TempDir(), log)
		if err != nil {
			t.Fatal(err)
		}
		disagree := 0
		for i, h := range rep.Harvests {
			p := rep.People[i]
			if p.Labelled == 0 {
				t.Fatalf("%s night %d: no labelled page", h.Strategy, h.Night)
			}
			disagree += p.FP + p.FN
			if byLabels && (p.FP > 0 || p.FN > 0 || h.Relevant != p.Relevant) {
				t.Errorf("%s night %d judged by labels: %d relevant, people %d (FP %d, FN %d)",
					h.Strategy, h.Night, h.Relevant, p.Relevant, p.FP, p.FN)
			}
		}
		if !byLabels && disagree == 0 {
			t.Errorf("the judge agrees with labels that ignore the topic's words: the test cannot tell the judges apart")
		}
		var out bytes.Buffer
		rep.PrintNights(&out)
		if got := strings.Contains(out.String(), "-label-judge"); got != byLabels {
			t.Errorf("LabelJudge %v, table header:\n%s", byLabels, out.String())
		}
	}
	if _, err := Evaluate(context.Background(), r, job, []string{"bfs"}, "", Truth{LabelJudge: true}, log); err == nil {
		t.Errorf("LabelJudge without labels: no error")
	}
}

// judge maps labels to relevance so that relevant is "labelled at least
// 1" at any threshold in (0, 1].
func TestJudgeByLabels(t *testing.T) {
	truth := Truth{Labels: map[string]int{"a": 0, "b": 1, "c": 2}}
	for _, threshold := range []float64{0.1, 0.25, 0.5, 0.6, 1} {
		m := truth.judge(threshold)
		if m["a"] >= threshold || m["b"] < threshold || m["c"] != 1 || m["b"] > m["c"] {
			t.Errorf("threshold %g: %v", threshold, m)
		}
	}
	if m := truth.judge(0.25); m["b"] != 0.5 {
		t.Errorf("threshold 0.25: label 1 is %g, want 0.5", m["b"])
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// runner run -metrics-file writes the run's metrics for node_exporter's
// textfile collector: the run by status, its pages by outcome, and every
// request the crawl made.
func TestRunMetricsFile(t *testing.T) {
	w := wikitest.New(t, 200)
	out := t.TempDir()
	file := filepath.Join(t.TempDir(), "topicrank.prom")
	code, stdout, stderr := runner(t, "run", "-config", writeJobs(t, jobsYAML), "-out", out, "-base-url", w.URL(), "-metrics-file", file)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(f)
	if err != nil {
		t.Fatal(err)
	}
	// value sums the series of name whose labels hold the given pairs.
	value := func(name string, pairs ...string) float64 {
		var sum float64
	series:
		for _, m := range families[name].GetMetric() {
			labels := map[string]string{}
			for _, l := range m.Label {
				labels[l.GetName()] = l.GetValue()
			}
			for i := 0; i+1 < len(pairs); i += 2 {
				if labels[pairs[i]] != pairs[i+1] {
					continue series
				}
			}
			sum += m.GetCounter().GetValue()
		}
		return sum
	}
	requests := 0
	for _, n := range w.Requests() {
		requests += n
	}
	if v := value("topicrank_runs_total", "job", "gen", "status", "complete"); v != 1 {
		t.Errorf("runs_total{gen,complete} = %v, want 1", v)
	}
	if v := value("topicrank_pages_total", "job", "gen"); v != 40 {
		t.Errorf("pages_total{gen} = %v, want 40 (max_pages)", v)
	}
	if v := value("topicrank_http_requests_total", "host", strings.TrimPrefix(w.URL(), "http://")); int(v) != requests {
		t.Errorf("http_requests_total = %v, the server saw %d", v, requests)
	}
}

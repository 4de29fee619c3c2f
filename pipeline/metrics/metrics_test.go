package metrics

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl"
)

func manifest(status string) *pipeline.Manifest {
	start := time.Date(2026, 11, 21, 2, 0, 0, 0, time.UTC)
	return &pipeline.Manifest{
		Job: "seattle", Status: status, Started: start, Finished: start.Add(90 * time.Second),
		StageSeconds: map[string]float64{"crawl": 80, "rank": 0.5},
		Counts: pipeline.Counts{Tally: crawl.Tally{Fetched: 287, NotModified: 700, Replayed: 3, Failed: 10,
			FailedByClass: map[string]int{"http_status": 10}, NotFetched: 4, Relevant: 50}},
	}
}

// What runs did is counted from their manifests.
func TestRunFinished(t *testing.T) {
	m := New()
	m.RunStarted("seattle")
	if v := testutil.ToFloat64(m.inProgress.WithLabelValues("seattle")); v != 1 {
		t.Errorf("runs_in_progress = %v during a run", v)
	}
	m.RunFinished("seattle", manifest(StatusComplete), nil)
	m.RunFinished("seattle", manifest(StatusPartial), io.EOF)
	m.RunFinished("seattle", nil, io.EOF)
	m.TickSkipped("seattle")
	// A run that met another's lock is a skipped tick, not a failed run.
	m.RunFinished("seattle", nil, &pipeline.Error{Kind: pipeline.Busy, Err: io.EOF})
	for _, c := range []struct {
		got, want float64
		what      string
	}{
		{testutil.ToFloat64(m.runs.WithLabelValues("seattle", "complete")), 1, "complete runs"},
		{testutil.ToFloat64(m.runs.WithLabelValues("seattle", "partial")), 1, "partial runs"},
		{testutil.ToFloat64(m.runs.WithLabelValues("seattle", "failed")), 1, "failed runs"},
		{testutil.ToFloat64(m.pages.WithLabelValues("seattle", "fetched")), 574, "fetched pages"},
		{testutil.ToFloat64(m.pages.WithLabelValues("seattle", "failed")), 20, "failed pages"},
		{testutil.ToFloat64(m.pages.WithLabelValues("seattle", "not_fetched")), 8, "pages not fetched"},
		{testutil.ToFloat64(m.failed.WithLabelValues("seattle", "http_status")), 20, "pages failed by class"},
		{testutil.ToFloat64(m.relevant.WithLabelValues("seattle")), 100, "relevant pages"},
		{testutil.ToFloat64(m.notModified.WithLabelValues("seattle")), 1400, "304 pages"},
		{testutil.ToFloat64(m.stageSeconds.WithLabelValues("seattle", "crawl")), 160, "crawl seconds"},
		{testutil.ToFloat64(m.lastSuccess.WithLabelValues("seattle")), float64(manifest("").Finished.Unix()), "last success"},
		{testutil.ToFloat64(m.inProgress.WithLabelValues("seattle")), 0, "runs in progress"},
		{testutil.ToFloat64(m.skipped.WithLabelValues("seattle")), 2, "skipped ticks"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if n := testutil.CollectAndCount(m.duration); n != 1 {
		t.Errorf("run_duration_seconds: %d series, want 1", n)
	}
}

// Every metric follows Prometheus's naming conventions (promlint).
func TestNamesFollowConventions(t *testing.T) {
	m := New()
	m.RunFinished("seattle", manifest(StatusComplete), nil)
	m.Progress("seattle", crawl.Progress{Queued: 5})
	m.Reloaded(true, 1)
	m.Reloaded(false, 0)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("hello")) }))
	defer srv.Close()
	resp, err := (&http.Client{Transport: m.WrapTransport(http.DefaultTransport)}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	problems, err := testutil.GatherAndLint(m.Registry())
	if err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %+v", err, problems)
	}
	for _, name := range []string{"topicrank_runs_total", "topicrank_last_success_timestamp_seconds", "topicrank_run_duration_seconds",
		"topicrank_stage_seconds_total", "topicrank_pages_total", "topicrank_http_requests_total", "topicrank_http_response_bytes_total",
		"topicrank_pages_not_modified_total", "topicrank_frontier_pages", "topicrank_config_reloads_total", "topicrank_build_info"} {
		if n, _ := testutil.GatherAndCount(m.Registry(), name); n == 0 {
			t.Errorf("%s missing", name)
		}
	}
}

// Requests and body bytes are counted per host and status code, and
// transport errors as code "error".
func TestTransportCountsRequestsAndBytes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r) // "404 page not found\n": 19 bytes
			return
		}
		w.Write([]byte(strings.Repeat("x", 1000)))
	}))
	defer srv.Close()
	m := New()
	client := &http.Client{Transport: m.WrapTransport(http.DefaultTransport)}
	for _, p := range []string{"/a", "/b", "/missing"} {
		resp, err := client.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	client.Get("http://127.0.0.1:1/") // refused
	host := strings.TrimPrefix(srv.URL, "http://")
	if v := testutil.ToFloat64(m.requests.WithLabelValues(host, "200")); v != 2 {
		t.Errorf("200s = %v, want 2", v)
	}
	if v := testutil.ToFloat64(m.requests.WithLabelValues(host, "404")); v != 1 {
		t.Errorf("404s = %v, want 1", v)
	}
	if v := testutil.ToFloat64(m.requests.WithLabelValues("127.0.0.1:1", "error")); v != 0 {
		t.Errorf("a refused connection counted %v requests, want none: nothing reached a host", v)
	}
	if v := testutil.ToFloat64(m.responseBytes.WithLabelValues(host)); v != 2019 {
		t.Errorf("bytes = %v, want 2019", v)
	}
}

// The textfile is what node_exporter reads: valid text format, replaced
// whole.
func TestWriteTextfile(t *testing.T) {
	m := New()
	m.RunFinished("seattle", manifest(StatusComplete), nil)
	path := filepath.Join(t.TempDir(), "topicrank.prom")
	if err := m.WriteTextfile(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(f)
	if err != nil {
		t.Fatal(err)
	}
	runs := families["topicrank_runs_total"]
	if runs == nil || len(runs.Metric) != 1 || runs.Metric[0].Counter.GetValue() != 1 {
		t.Errorf("topicrank_runs_total in the textfile: %v", runs)
	}
	if families["go_goroutines"] != nil {
		t.Error("the textfile holds the Go runtime's metrics: node_exporter has its own")
	}
}

// /healthz answers 200 while healthy and 503 with the reason otherwise;
// /metrics holds ours and the runtime's.
func TestHandler(t *testing.T) {
	m := New()
	var health error
	srv := httptest.NewServer(m.Handler(func() error { return health }))
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("healthy: %d %q", code, body)
	}
	health = errors.New("stopping")
	if code, body := get("/healthz"); code != 503 || !strings.Contains(body, "stopping") {
		t.Errorf("stopping: %d %q", code, body)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "topicrank_build_info{version=") || !strings.Contains(body, "go_goroutines") {
		t.Errorf("/metrics: %d\n%s", code, body)
	}
}

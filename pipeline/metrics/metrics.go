// Package metrics holds topicrank's Prometheus metrics (client_golang):
// runs by job and status, the last success per job, run and stage
// durations, pages by fetch state and failures by class, requests and bytes per host, the crawl
// frontier, skipped ticks and config reloads. `runner schedule` serves
// them over HTTP with /healthz (Handler); a one-shot `runner run` writes
// them for node_exporter's textfile collector (WriteTextfile).
//
// Names follow Prometheus's conventions: a topicrank_ prefix, base units
// in the name (seconds, bytes), _total on counters. The package only
// observes: pipeline and the stages never import it; the command line
// wires its hooks (Runner.WrapTransport, Runner.Progress, the scheduler's
// Observer).
package metrics

import (
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/topicrank/topicrank/internal/version"
	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl"
)

// Run statuses, as the runs_total metric labels them: a manifest's
// status, or failed when the run published nothing.
const (
	StatusComplete = pipeline.StatusComplete
	StatusPartial  = pipeline.StatusPartial
	StatusFailed   = "failed"
)

// Metrics is one process's collectors, in their own registry.
type Metrics struct {
	reg *prometheus.Registry

	runs, pages, notModified, replayed *prometheus.CounterVec
	failed, relevant                   *prometheus.CounterVec
	stageSeconds, skipped              *prometheus.CounterVec
	requests, responseBytes, reloads   *prometheus.CounterVec
	webhooks                           *prometheus.CounterVec
	lastSuccess, lastRun, inProgress   *prometheus.GaugeVec
	frontier                           *prometheus.GaugeVec
	lastReload                         prometheus.Gauge
	duration                           *prometheus.HistogramVec
}

// New returns the metrics, registered in a registry of their own.
func New() *Metrics {
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "topicrank", Name: name, Help: help}, labels)
	}
	gauge := func(name, help string, labels ...string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: "topicrank", Name: name, Help: help}, labels)
	}
	m := &Metrics{
		reg:           prometheus.NewRegistry(),
		runs:          counter("runs_total", "Runs ended, by job and status (complete, partial, failed).", "job", "status"),
		pages:         counter("pages_total", "Pages of ended runs by fetch state (fetched, not_modified, carried, replayed, failed, not_fetched).", "job", "state"),
		failed:        counter("pages_failed_total", "Failed pages of ended runs by error class (http_status, network, timeout, ...).", "job", "class"),
		relevant:      counter("pages_relevant_total", "Pages of ended runs that reached the job's relevance threshold.", "job"),
		notModified:   counter("pages_not_modified_total", "Pages that answered 304 Not Modified to a conditional request.", "job"),
		replayed:      counter("pages_replayed_total", "Pages replayed from an interrupted run's crawl state without a request.", "job"),
		stageSeconds:  counter("stage_seconds_total", "Seconds spent in each stage (crawl, graph, rank, publish) of ended runs.", "job", "stage"),
		skipped:       counter("ticks_skipped_total", "Schedule ticks skipped because a run of the job was still going (in this process or another).", "job"),
		requests:      counter("http_requests_total", "HTTP requests made, by host and status code (error: no answer).", "host", "code"),
		responseBytes: counter("http_response_bytes_total", "Bytes of response bodies read, by host.", "host"),
		reloads:       counter("config_reloads_total", "Reloads of jobs.yaml by result (success, failure).", "result"),
		webhooks:      counter("webhooks_total", "Webhook messages by job and outcome (delivered, failed: not taken within notify_timeout).", "job", "outcome"),
		lastSuccess:   gauge("last_success_timestamp_seconds", "When the job's last complete run ended (Unix time).", "job"),
		lastRun:       gauge("last_run_timestamp_seconds", "When the job's last run ended, whatever its status (Unix time).", "job"),
		inProgress:    gauge("runs_in_progress", "Runs going now (1) or not (0), by job.", "job"),
		frontier:      gauge("frontier_pages", "Pages waiting in the running crawl's queue.", "job"),
		lastReload: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "topicrank", Name: "config_last_reload_success_timestamp_seconds",
			Help: "When jobs.yaml was last loaded successfully (Unix time)."}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "topicrank", Name: "run_duration_seconds",
			Help:    "Wall time of ended runs, start to publication.",
			Buckets: []float64{1, 10, 30, 60, 300, 600, 1800, 3600, 7200, 14400, 43200}}, []string{"job"}),
	}
	build := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: "topicrank", Name: "build_info",
		Help: "Always 1; the version label names the build."}, []string{"version"})
	build.WithLabelValues(version.String()).Set(1)
	m.reg.MustRegister(m.runs, m.pages, m.failed, m.relevant, m.notModified, m.replayed, m.stageSeconds, m.skipped, m.requests,
		m.responseBytes, m.reloads, m.lastSuccess, m.lastRun, m.inProgress, m.frontier, m.lastReload, m.duration, m.webhooks, build)
	return m
}

// Registry is where the metrics are registered (tests read it with
// client_golang's testutil).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Webhook counts one webhook message's outcome (notify.Notifier.Delivered).
func (m *Metrics) Webhook(job string, delivered bool) {
	outcome := "failed"
	if delivered {
		outcome = "delivered"
	}
	m.webhooks.WithLabelValues(job, outcome).Inc()
}

// RunStarted marks a run of job as going.
func (m *Metrics) RunStarted(job string) { m.inProgress.WithLabelValues(job).Set(1) }

// RunFinished records an ended run from its manifest (nil when the run
// published nothing).
//
// A run that did not start because another held the job (pipeline.Busy)
// is a skipped tick, not a run.
func (m *Metrics) RunFinished(job string, man *pipeline.Manifest, err error) {
	m.inProgress.WithLabelValues(job).Set(0)
	m.frontier.DeleteLabelValues(job)
	if pipeline.KindOf(err) == pipeline.Busy {
		m.TickSkipped(job)
		return
	}
	status := StatusFailed
	if man != nil {
		status = man.Status
	}
	m.runs.WithLabelValues(job, status).Inc()
	if man == nil {
		return
	}
	end := float64(man.Finished.UnixNano()) / 1e9
	m.lastRun.WithLabelValues(job).Set(end)
	if status == StatusComplete && err == nil {
		m.lastSuccess.WithLabelValues(job).Set(end)
	}
	m.duration.WithLabelValues(job).Observe(man.Finished.Sub(man.Started).Seconds())
	for stage, s := range man.StageSeconds {
		m.stageSeconds.WithLabelValues(job, stage).Add(s)
	}
	c := man.Counts
	for _, s := range crawl.FetchStates {
		m.pages.WithLabelValues(job, string(s)).Add(float64(c.Of(s)))
	}
	for class, n := range c.FailedByClass {
		m.failed.WithLabelValues(job, class).Add(float64(n))
	}
	m.relevant.WithLabelValues(job).Add(float64(c.Relevant))
	m.notModified.WithLabelValues(job).Add(float64(c.NotModified))
	m.replayed.WithLabelValues(job).Add(float64(c.Replayed))
}

// TickSkipped counts a tick that found the job's run still going.
func (m *Metrics) TickSkipped(job string) { m.skipped.WithLabelValues(job).Inc() }

// Reloaded records a reload of jobs.yaml (at, in Unix seconds, when it
// succeeded).
func (m *Metrics) Reloaded(ok bool, at float64) {
	if !ok {
		m.reloads.WithLabelValues("failure").Inc()
		return
	}
	m.reloads.WithLabelValues("success").Inc()
	m.lastReload.Set(at)
}

// Progress records a running crawl's queue length.
func (m *Metrics) Progress(job string, p crawl.Progress) {
	m.frontier.WithLabelValues(job).Set(float64(p.Queued))
}

// WrapTransport counts every request written to a host (the transport's
// own retries included: crawl.RoundTripCounted) and every response body
// byte read, per host.
func (m *Metrics) WrapTransport(rt http.RoundTripper) http.RoundTripper {
	return transport{rt, m}
}

type transport struct {
	next http.RoundTripper
	m    *Metrics
}

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	host := req.URL.Host
	resp, err := crawl.RoundTripCounted(t.next, req, func(status int) {
		code := "error"
		if status != 0 {
			code = strconv.Itoa(status)
		}
		t.m.requests.WithLabelValues(host, code).Inc()
	})
	if err != nil {
		return resp, err
	}
	resp.Body = &countingBody{resp.Body, t.m.responseBytes.WithLabelValues(host)}
	return resp, nil
}

// countingBody adds what is read to a counter.
type countingBody struct {
	body interface {
		Read([]byte) (int, error)
		Close() error
	}
	n prometheus.Counter
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	b.n.Add(float64(n))
	return n, err
}

func (b *countingBody) Close() error { return b.body.Close() }

// WriteTextfile writes the metrics in the text format for node_exporter's
// textfile collector, atomically (a temporary file renamed into place).
func (m *Metrics) WriteTextfile(path string) error {
	return prometheus.WriteToTextfile(path, m.reg)
}

// Handler serves /metrics (these metrics with the Go runtime's and the
// process's) and /healthz, which answers 200 while healthy returns nil
// and 503 with its error otherwise.
func (m *Metrics) Handler(healthy func() error) http.Handler {
	runtime := prometheus.NewRegistry()
	runtime.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(prometheus.Gatherers{m.reg, runtime}, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		if err := healthy(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	return mux
}

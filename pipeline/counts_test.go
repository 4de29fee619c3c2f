//go:build cgo

package pipeline_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/marcboeker/go-duckdb" // real DuckDB, for tests only
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/metrics"
	"github.com/topicrank/topicrank/stages/crawl"
)

// TestCountsAgree runs the seattle job against the mirror in every way a
// run can end and checks, for each run, that the manifest's counts,
// runs.parquet's row, the textfile metrics and pages.parquet's fetch
// states (read by DuckDB) are equal, and that the requests counted are
// the requests in the mirror's log, by status. Any disagreement fails with
// the two numbers.
func TestCountsAgree(t *testing.T) {
	stops := 3 // random stops per concurrency; TOPICRANK_LONG=1 runs 20
	if os.Getenv("TOPICRANK_LONG") != "" {
		stops = 20
	}
	dir := t.TempDir()
	clean := newLoggedMirror(t, filepath.Join(dir, "clean.log"))
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := &counter{t: t, db: db}

	t.Run("complete", func(t *testing.T) {
		c := c.with(t)
		m, _ := c.run(clean, c.outDir(), job(t, 8, 1000, ""), 0)
		c.check(m, true)
		if m.Status != pipeline.StatusComplete || m.Counts.NotFetched != 0 {
			t.Errorf("status %s with %d pages not fetched, want a complete run", m.Status, m.Counts.NotFetched)
		}
	})
	for _, conc := range []int{1, 8} {
		for seed := range stops {
			t.Run(fmt.Sprintf("stopped/c%d/seed%d", conc, seed), func(t *testing.T) {
				c := c.with(t)
				at := 1 + rand.New(rand.NewPCG(uint64(seed), uint64(conc))).IntN(400)
				m, _ := c.run(clean, c.outDir(), job(t, conc, 500, ""), at)
				c.check(m, true)
				if m.Status != pipeline.StatusPartial || m.Counts.NotFetched == 0 {
					t.Errorf("stopped after %d pages: status %s, %d not fetched", at, m.Status, m.Counts.NotFetched)
				}
			})
		}
	}
	t.Run("resumed", func(t *testing.T) {
		c := c.with(t)
		out := c.outDir()
		first, _ := c.run(clean, out, job(t, 4, 500, ""), 150)
		c.check(first, true)
		second, _ := c.run(clean, out, job(t, 4, 500, ""), 0)
		c.check(second, false)
		if second.ResumedFrom != first.RunID || second.Counts.Replayed == 0 {
			t.Errorf("second run resumed %q with %d replayed, want %s", second.ResumedFrom, second.Counts.Replayed, first.RunID)
		}
	})
	t.Run("budget", func(t *testing.T) {
		c := c.with(t)
		out := c.outDir()
		first, _ := c.run(clean, out, job(t, 4, 300, ""), 0)
		c.check(first, true)
		second, _ := c.run(clean, out, job(t, 4, 300, "    revisit: dynamicity\n    max_requests: 60\n"), 0)
		c.check(second, false)
		if second.Counts.Carried == 0 || second.Counts.NotModified == 0 {
			t.Errorf("a 60-request night of 300 pages: %d carried, %d not modified", second.Counts.Carried, second.Counts.NotModified)
		}
	})
	t.Run("seed404", func(t *testing.T) {
		c := c.with(t)
		m, _ := c.run(clean, c.outDir(), job(t, 2, 100, "    seeds: [/wiki/Tennis]\n"), 0)
		c.check(m, true)
		if m.Counts.Failed != 1 || m.Counts.NotFound != 1 || m.Status != pipeline.StatusPartial {
			t.Errorf("a seed that 404s: %d failed, %d not found, status %s", m.Counts.Failed, m.Counts.NotFound, m.Status)
		}
	})
	t.Run("faults", func(t *testing.T) {
		c := c.with(t)
		faulty := newLoggedMirror(t, filepath.Join(dir, "faults.log"),
			"-faults", "503=0.02,429=0.01,reset=0.01,slow=0.01,trunc=0.01,garbage=0.01")
		m, _ := c.run(faulty, c.outDir(), job(t, 4, 300, ""), 0)
		c.check(m, false)
	})
}

// job is the seattle job at a mirror's rate, with extra job keys.
func job(t *testing.T, concurrency, maxPages int, extra string) pipeline.Job {
	t.Helper()
	seeds := "    seeds: [/wiki/Seattle]\n"
	if strings.Contains(extra, "seeds:") {
		seeds = ""
	}
	y := fmt.Sprintf(`defaults:
  user_agent: "topicrank-test/0.1 (ops@example.org)"
  politeness: {max_rps: 1000, concurrency: %d}
jobs:
  - name: seattle
%s    topics: [seattle, washington, puget sound, king county, space needle]
    max_pages: %d
    search_index: false
%s`, concurrency, seeds, maxPages, extra)
	cfg, err := pipeline.ParseConfig("jobs.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	j, _ := cfg.Job("seattle")
	return j
}

// counter runs jobs and checks their counts.
type counter struct {
	t   *testing.T
	db  *sql.DB
	met *metrics.Metrics
	log *mirror
	out string // the output root of the last run
	now time.Time
	// progress is the last progress the run reported.
	progress *crawl.Progress
}

func (c *counter) with(t *testing.T) *counter { return &counter{t: t, db: c.db} }

func (c *counter) outDir() string { return filepath.Join(c.t.TempDir(), "outputs") }

// run runs job against mirror with fresh metrics, as `runner run
// -metrics-file` does, cancelling it, as SIGINT cancels a run, once the
// crawl has settled stopAt pages (0: never).
func (c *counter) run(mir *mirror, out string, job pipeline.Job, stopAt int) (*pipeline.Manifest, error) {
	c.t.Helper()
	c.met, c.log, c.out = metrics.New(), mir, out
	mir.mark()
	r := pipeline.NewRunner(out, slog.New(slog.DiscardHandler))
	r.BaseURL, r.WrapTransport = mir.url, c.met.WrapTransport
	if c.now.IsZero() {
		c.now = time.Now().UTC()
	}
	r.Now = func() time.Time { c.now = c.now.Add(time.Hour); return c.now } // a run id of its own
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.progress = nil
	r.Progress = func(_ string, p crawl.Progress) {
		if p.Done > p.Max || p.Done > p.Vertices {
			c.t.Errorf("progress: %d pages done of %d vertices, max %d", p.Done, p.Vertices, p.Max)
		}
		c.progress = &p
		if stopAt > 0 && p.Done >= stopAt {
			cancel()
		}
	}
	m, err := r.Run(ctx, job)
	c.met.RunFinished(job.Name, m, err)
	if m == nil {
		c.t.Fatalf("the run published nothing: %v", err)
	}
	return m, err
}

// check compares every count of run m; pageAnswers says every page the
// mirror answered 200 is a fetched page of the run or a redirect merged
// into one (no faults, nothing replayed).
func (c *counter) check(m *pipeline.Manifest, pageAnswers bool) {
	t := c.t
	t.Helper()
	agree := func(what string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %d, but the manifest says %d", what, got, want)
		}
	}
	dir, disk, err := pipeline.FindRun(c.out, m.Job, m.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := jsonOf(t, disk.Counts), jsonOf(t, m.Counts); a != b {
		t.Errorf("manifest.json's counts %s differ from the run's %s", a, b)
	}
	k := m.Counts
	states := c.counts(fmt.Sprintf("SELECT fetch_state, count(*) FROM read_parquet('%s/pages.parquet') GROUP BY 1", dir))
	classes := c.counts(fmt.Sprintf("SELECT error_class, count(*) FROM read_parquet('%s/pages.parquet') WHERE fetch_state = 'failed' GROUP BY 1", dir))
	rel := c.counts(fmt.Sprintf("SELECT 'relevant', count(*) FILTER (WHERE relevant) FROM read_parquet('%s/pages.parquet')", dir))
	prom := c.textfile()
	for _, s := range crawl.FetchStates {
		agree("pages.parquet, fetch_state "+string(s), states[string(s)], k.Of(s))
		agree("metric pages_total{state="+string(s)+"}", prom["pages_total/"+string(s)], k.Of(s))
	}
	for class, n := range k.FailedByClass {
		agree("pages.parquet, failed with error_class "+class, classes[class], n)
		agree("metric pages_failed_total{class="+class+"}", prom["pages_failed_total/"+class], n)
	}
	agree("pages.parquet, relevant", rel["relevant"], k.Relevant)
	if p := c.progress; p != nil && m.Revisit == nil { // a budgeted run's second pass reports no progress
		agree("progress line, done", p.Done, k.Vertices-k.NotFetched)
		agree("progress line, relevant", p.Relevant, k.Relevant)
		agree("progress line, failed", p.Failed, k.Failed)
		agree("progress line, fetched", p.Fetched, k.Fetched)
	}
	agree("metric pages_relevant_total", prom["pages_relevant_total/"], k.Relevant)

	row := c.counts(fmt.Sprintf(`UNPIVOT (SELECT fetched, not_modified, carried, replayed, failed, not_fetched, relevant, judged,
		requests FROM read_parquet('%s') WHERE run_id = '%s') ON COLUMNS(*) INTO NAME k VALUE v`, c.runsPath(m), m.RunID))
	for name, want := range map[string]int{"fetched": k.Fetched, "not_modified": k.NotModified, "carried": k.Carried,
		"replayed": k.Replayed, "failed": k.Failed, "not_fetched": k.NotFetched, "relevant": k.Relevant,
		"judged": k.Judged, "requests": k.Requests} {
		agree("runs.parquet "+name, row[name], want)
	}

	served, pages200 := c.log.since(t, k.Requests)
	total := 0
	for status, n := range k.RequestsByStatus {
		total += n
		agree("mirror's log, status "+status, served[status], n)
		code := status
		if status == "0" {
			code = "error"
		}
		agree("metric http_requests_total{code="+code+"}", prom["http_requests_total/"+code], n)
	}
	for status, n := range served {
		if _, ok := k.RequestsByStatus[status]; !ok {
			t.Errorf("mirror's log, status %s: %d, but the manifest counts none", status, n)
		}
	}
	agree("requests by status, summed", total, k.Requests)
	if pageAnswers {
		agree("page answers (200) in the mirror's log, less merged redirects", pages200-len(m.Merged), k.Fetched)
	}
}

func (c *counter) runsPath(m *pipeline.Manifest) string {
	return filepath.Join(c.out, m.Job, "runs.parquet")
}

// counts runs a query of (name, count) rows.
func (c *counter) counts(q string) map[string]int {
	c.t.Helper()
	rows, err := c.db.Query(q)
	if err != nil {
		c.t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k sql.NullString
		var n int64
		if err := rows.Scan(&k, &n); err != nil {
			c.t.Fatal(err)
		}
		out[k.String] = int(n)
	}
	return out
}

// textfile writes the metrics as `runner run -metrics-file` does and reads
// back our counters: "name/label" (topicrank_ dropped; requests summed
// over hosts).
func (c *counter) textfile() map[string]int {
	c.t.Helper()
	path := filepath.Join(c.t.TempDir(), "topicrank.prom")
	if err := c.met.WriteTextfile(path); err != nil {
		c.t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer f.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(f)
	if err != nil {
		c.t.Fatal(err)
	}
	out := map[string]int{}
	for name, label := range map[string]string{"pages_total": "state", "pages_failed_total": "class",
		"pages_relevant_total": "", "http_requests_total": "code"} {
		for _, m := range families["topicrank_"+name].GetMetric() {
			key := name + "/"
			for _, l := range m.GetLabel() {
				if l.GetName() == label {
					key += l.GetValue()
				}
			}
			out[key] += int(m.GetCounter().GetValue())
		}
	}
	return out
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

package pipeline

import (
	"context"
	"fmt"
	"github.com/topicrank/topicrank/pipeline/notify"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/topicrank/topicrank/internal/version"
	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/learn"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
	"github.com/topicrank/topicrank/stages/text"
)

// Runner runs jobs and publishes their outputs. One Runner serves a whole
// process, so that its politeness limits are shared by every job.
type Runner struct {
	OutDir     string            // output root
	BaseURL    string            // overrides every job's base_url when set
	Politeness *crawl.Politeness // shared per-host limits
	Log        *slog.Logger
	Progress   func(job string, p crawl.Progress) // nil: none
	Now        func() time.Time                   // nil: time.Now
	// WrapTransport, if set, wraps every crawl's HTTP transport (metrics).
	WrapTransport func(http.RoundTripper) http.RoundTripper
	// LinkPrior starts a new topic's learned model (NewRunner sets the
	// shipped one, learn.Shipped; nil: none).
	LinkPrior *learn.Prior
	// Notifier delivers the jobs' webhooks in the background (NewRunner
	// sets one; nil: none). A one-shot caller waits for it before exiting.
	Notifier *notify.Notifier
}

// NewRunner returns a Runner writing under outDir.
func NewRunner(outDir string, log *slog.Logger) *Runner {
	prior, err := learn.Shipped()
	if err != nil {
		panic(err) // the embedded file is checked by the learn package's tests
	}
	return &Runner{OutDir: outDir, Politeness: crawl.NewPoliteness(), Log: log, LinkPrior: prior,
		Notifier: &notify.Notifier{Log: log}}
}

// Run runs one job end to end: crawl, graph, PageRank, publish. A complete
// run becomes LATEST; a partial one (a failed seed, an interruption) is
// published with status partial, LATEST is left alone, and Run returns an
// error of kind Failed. Earlier runs are never touched on failure.
func (r *Runner) Run(ctx context.Context, job Job) (_ *Manifest, runErr error) {
	fail := func(op string, err error) error { return &Error{Op: op, Job: job.Name, Kind: Failed, Err: err} }
	m := r.newManifest(job)
	log := r.logger().With("job", job.Name)
	dir, unlock, err := r.prepare(job, m, log)
	if err != nil {
		return nil, err
	}
	defer unlock()
	m.Notifications = takeDeliveries(dir)
	published := false
	defer func() { // the webhooks hear of a run that failed before it was published
		if !published && runErr != nil && KindOf(runErr) != Busy {
			r.notifyRun(job, dir, m, false, runErr)
		}
	}()
	log = log.With("run_id", m.RunID)

	var res *crawl.Result
	var hist map[string]publish.PageHistory
	m.timed("crawl", func() { res, err = r.crawl(ctx, job, dir, m, &hist, log) })
	if KindOf(err) == Busy {
		return nil, err
	}
	if err != nil {
		return nil, fail("crawl", err)
	}
	var g *graph.Graph
	m.timed("graph", func() { g, err = BuildGraph(res) })
	if err != nil {
		return nil, fail("graph", err)
	}
	var ranks, topicRanks []rank.Result
	m.timed("rank", func() {
		ranks = rank.PageRank(g, job.Beta, job.Epsilons)
		if res.Judged {
			topicRanks = rank.TopicPageRank(g, job.Beta, job.Epsilons, relevances(res))
		}
	})
	var dupOf []int
	var dupSim []float64
	m.timed("text", func() { dupOf, dupSim = nearDuplicates(res, job.NearDuplicateThreshold) })
	prev := r.previous(dir, log)
	var global *publish.GlobalRanks
	if job.GlobalRanks != "" {
		if global, err = publish.ReadRanks(job.GlobalRanks); err != nil {
			return nil, fail("publish", fmt.Errorf("global_ranks: %w", err))
		}
	}
	m.record(res, g, ranks, prev)
	err = r.publish(dir, m, &publish.Input{Job: job.Name, RunID: m.RunID, Crawl: res, Graph: g, Ranks: ranks,
		TopicRanks: topicRanks, NearDuplicateOf: dupOf, NearDuplicateJaccard: dupSim, Previous: prev, History: hist, Global: global}, log)
	if err != nil {
		return nil, fail("publish", err)
	}
	published = true
	r.notifyRun(job, dir, m, true, nil)
	log.Info("run published", "status", m.Status, "vertices", m.Counts.Vertices, "edges", m.Counts.Edges,
		"failed", m.Counts.Failed, "dir", runDir(dir, m.RunID, m.Status))
	if m.Status != StatusComplete {
		return m, fail("crawl", fmt.Errorf("run %s is partial: %v", m.RunID, strings.Join(m.Problems, "\n")))
	}
	return m, nil
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now().UTC()
	}
	return time.Now().UTC()
}

func (r *Runner) newManifest(job Job) *Manifest {
	start := r.now()
	m := &Manifest{
		Job: job.Name, RunID: start.Format("20060102T150405Z"), Status: StatusComplete,
		ConfigDigest: job.Digest(), Config: job, FetchedFrom: job.BaseURL, Started: start,
		StageSeconds: map[string]float64{}, StageCPUSeconds: map[string]float64{}, Version: version.String(),
	}
	if r.BaseURL != "" {
		m.FetchedFrom = r.BaseURL
	}
	return m
}

// prepare makes the job's directory, takes its lock, clears debris of
// crashed runs, repairs the job's catalogue and gives m its run id.
func (r *Runner) prepare(job Job, m *Manifest, log *slog.Logger) (dir string, unlock func(), err error) {
	fail := func(op string, err error) error { return &Error{Op: op, Job: job.Name, Kind: Failed, Err: err} }
	dir, err = jobDir(r.OutDir, job.Name)
	if err != nil {
		return "", nil, &Error{Op: "run", Job: job.Name, Kind: Invalid, Err: err}
	}
	if err := Writable(dir, "output folder"); err != nil {
		return "", nil, err
	}
	unlock, err = lockJob(dir)
	if err != nil {
		return "", nil, &Error{Op: "run", Job: job.Name, Kind: Busy, Err: err}
	}
	if err := removeStale(dir); err != nil {
		unlock()
		return "", nil, fail("publish", fmt.Errorf("removing stale temporary runs: %w", err))
	}
	c, err := repair(dir, job.Name, log)
	if err != nil {
		unlock()
		return "", nil, fail("publish", fmt.Errorf("repairing the catalogue of runs: %w", err))
	}
	id, behind := c.nextRunID(m.Started)
	if behind != "" {
		log.Warn("the clock is behind the job's newest run: this run's id follows that run's, so runs stay in the order they were made",
			"clock", m.Started.Format(time.RFC3339), "newest_run", behind, "run_id", id)
	}
	m.RunID = id
	return dir, unlock, nil
}

func (r *Runner) logger() *slog.Logger {
	if r.Log != nil {
		return r.Log
	}
	return slog.Default()
}

// CrawlConfig returns the crawl stage's settings for job, with the
// Runner's base URL override, politeness registry and progress.
func (r *Runner) CrawlConfig(job Job, log *slog.Logger) (crawl.Config, error) {
	base, hosts := job.BaseURL, []string(nil)
	if r.BaseURL != "" {
		// The override stands in for the job's own host: absolute links and
		// canonical URLs naming that host still count as the job's.
		base = r.BaseURL
		if u, err := url.Parse(job.BaseURL); err == nil {
			hosts = append(hosts, u.Host)
		}
	}
	scope, _ := page.ParseScope(job.LinkScope) // validated with the job
	strategy, _ := page.ParseStrategy(job.Strategy)
	admission, _ := crawl.ParseAdmission(job.Admission)
	texts, err := TopicTexts(job.TopicPages)
	if err != nil {
		return crawl.Config{}, err
	}
	include, exclude := compileAll(job.Include), compileAll(job.Exclude) // validated with the job
	cfg := crawl.Config{
		BaseURL: base, Hosts: hosts, Seeds: job.Seeds, Topics: job.Topics, TopicTexts: texts, Weighted: job.Weighted,
		Strategy: strategy, Admission: admission, MaxFrontier: job.MaxFrontier, RelevanceThreshold: job.RelevanceThreshold,
		MaxPages: job.MaxPages, Scope: scope, MaxRPS: job.MaxRPS, Concurrency: job.Concurrency,
		Fetch: crawl.FetchOptions{UserAgent: job.UserAgent, WrapTransport: r.WrapTransport}, Politeness: r.Politeness, Log: log,
		KeepText: true, MaxDepth: job.MaxDepth, Include: include, Exclude: exclude, RecheckMissing: job.RecheckMissing,
		MaxTunnel: job.MaxTunnel, TopicFeedback: job.TopicFeedback, FeedbackTerms: job.FeedbackTerms, FeedbackWeight: job.FeedbackWeight,
		ExploreShare: job.newShare(), LinkPrior: r.LinkPrior, Beyond: crawl.BeyondFor(job.MaxPages, job.newShare()),
	}
	if r.Progress != nil {
		cfg.Progress = func(p crawl.Progress) { r.Progress(job.Name, p) }
	}
	return cfg, nil
}

// TopicTexts reads the article text of topic pages: an HTML file is read
// as a Wikipedia page (text.Parse), anything else as plain text.
func TopicTexts(paths []string) ([]string, error) {
	var texts []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("topic page: %w", err)
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".html", ".htm":
			texts = append(texts, text.Parse(b).Text())
		default:
			texts = append(texts, string(b))
		}
	}
	return texts, nil
}

// BuildGraph turns the crawl's vertices and edges into a CSR graph.
func BuildGraph(res *crawl.Result) (*graph.Graph, error) {
	b := graph.NewBuilder()
	for _, p := range res.Pages {
		b.Vertex(p.Key)
	}
	if b.NumVertices() != len(res.Pages) {
		return nil, fmt.Errorf("crawl produced %d pages but %d distinct names", len(res.Pages), b.NumVertices())
	}
	for _, e := range res.Edges {
		b.AddEdge(e.From, e.To)
	}
	return b.Build()
}

// previous reads the latest complete run, which changes are measured
// against; a missing or unreadable run means nothing to compare.
func (r *Runner) previous(dir string, log *slog.Logger) *publish.Previous {
	latest, err := Latest(r.OutDir, filepath.Base(dir))
	if err != nil || latest == "" {
		return nil
	}
	p, err := publish.ReadPrevious(filepath.Join(dir, latest))
	if err != nil {
		log.Warn("previous run unreadable; changes not computed", "run", latest, "err", err)
		return nil
	}
	return p
}

// Package crawl is the crawl stage: a topic-sensitive crawl of Wikipedia
// with the exact semantics of DESIGN.md ("Crawl semantics", "Admission",
// "Strategies"): the weighted BFS that admits a page when it is discovered,
// or best-first admission over a bounded frontier, with link weights from
// one of five strategies and every fetched page judged for relevance
// (package text). Package page reads a fetched page into its links,
// weights and text; robots.txt is applied by package robots.
//
// Fetching runs ahead of the BFS loop: the items most likely to be
// extracted next are fetched and parsed concurrently, within the host's
// politeness limit, but the loop consumes results strictly in queue order.
// The graph therefore depends only on page content, never on timing: a run
// with concurrency 8 gives byte-for-byte the graph of concurrency 1.
package crawl

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/learn"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/text"
)

// Crawl runs the weighted BFS. The error is for a crawl that could not
// start (a bad base URL); everything after that is recorded in the Result,
// which then says whether it is complete.
func Crawl(ctx context.Context, cfg Config) (*Result, error) {
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || base.Host == "" || (base.Scheme != "http" && base.Scheme != "https") {
		return nil, fmt.Errorf("crawl: base URL %q: want http(s)://host", cfg.BaseURL)
	}
	if cfg.Politeness == nil {
		cfg.Politeness = NewPoliteness()
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	hosts := append([]string{base.Host}, cfg.Hosts...)
	topics := page.Topics{}
	if !cfg.Weighted {
		cfg.Strategy = page.StrategyBFS
	}
	if cfg.Strategy == page.StrategyWeighted || cfg.Strategy == page.StrategyLearned { // learned reads weighted's distances too
		topics = page.NewTopics(cfg.Topics)
	}
	if cfg.MaxFrontier <= 0 {
		cfg.MaxFrontier = 100 * cfg.MaxPages
	}
	limit := cfg.Politeness.Host(base.Host, cfg.MaxRPS, cfg.Concurrency)
	if isLoopback(base.Hostname()) {
		cfg.Fetch.NoCompression = true
	}
	c := &crawler{
		cfg:   cfg,
		base:  base.Scheme + "://" + base.Host,
		hosts: hosts,
		extract: page.Extractor{Hosts: hosts, Scope: cfg.Scope, Topics: topics, Strategy: cfg.Strategy,
			Topic: text.NewTopic(cfg.Topics, cfg.TopicTexts), KeepText: cfg.KeepText, Feedback: cfg.TopicFeedback},
		// Requests go to the base URL's host alone: with -base-url, never to
		// the job's own host, whose links still count as the job's.
		fetcher:  NewFetcher(cfg.Fetch, limit, []string{base.Host}),
		queue:    NewQueue(),
		visited:  make(map[string]uint32),
		started:  make(map[string]chan fetched),
		seeds:    make(map[string]bool),
		merged:   make(map[uint32]uint32),
		depth:    make(map[string]int),
		res:      &Result{Complete: true, Started: time.Now().UTC()},
		failures: newFailureLog(cfg.Log, 10*time.Second),
		cache:    &cache{pages: map[string]fetched{}},
		wake:     make(chan struct{}, 1),
		panics:   &panics{},
	}
	defer c.fetcher.Close()
	c.digest = c.extractDigest()
	c.res.Judged = !c.extract.Topic.Empty()
	if cfg.Strategy == page.StrategyLearned && c.res.Judged {
		c.learner = learn.New(cfg.Topics, c.pageLinks)
	}
	if cfg.TopicFeedback && c.res.Judged {
		c.fb = learn.NewFeedback(cfg.Topics, cfg.FeedbackTerms, cfg.FeedbackWeight)
	}
	if cfg.State != nil && c.res.Judged {
		mem, err := newMemory(cfg, cfg.State, c.digest, c.seedKeys())
		if err != nil {
			return nil, fmt.Errorf("crawl state: reading what earlier nights learned: %w", err)
		}
		if c.mem = mem; mem != nil {
			c.res.AdmittedBy = map[string]int{}
		}
		if err := c.warmStart(); err != nil {
			c.cfg.Log.Warn("the stored link model is unreadable: starting from the untrained one", "err", err)
		}
	}
	if c.learner != nil && !c.warm && cfg.LinkPrior != nil && cfg.Admission == AdmitBestFirst {
		c.learner.UsePrior(*cfg.LinkPrior)
	}
	c.run, c.parentRun = map[uint32]int{}, map[string]int{}
	if r := cfg.Revisit; r != nil && cfg.State != nil {
		c.budget = NewBudget(r.MaxRequests, r.Spent, r.Deadline)
		c.fetcher.budget = c.budget
		c.reasons = make(map[string]string, len(r.Keys))
		for i, k := range r.Keys {
			c.reasons[k] = r.Reasons[i]
		}
	} else {
		c.cfg.Revisit = nil
	}
	c.robots = c.readRobots(ctx, limit)
	c.fetcher.SetRobots(c.robots.AllowedPath)
	next := 0
	if c.cfg.Revisit != nil && !strings.HasPrefix(c.res.Robots, "disallow-all") {
		c.budget.keepBack(c.cfg.Revisit.Reserve)
		next = c.refetch(ctx, 0)
		c.budget.keepBack(0)
	}
	c.crawl(ctx)
	if c.cfg.Revisit != nil && next < len(c.cfg.Revisit.Keys) && !c.budget.spent() && ctx.Err() == nil {
		if c.refetch(ctx, next) > next {
			c = c.again()
			c.crawl(ctx)
		}
	}
	if c.budget != nil {
		c.res.Spent = c.budget.Used()
	}
	c.res.Requests = c.fetcher.Requests()
	if c.fb != nil {
		c.res.FeedbackTerms = c.fb.Added
	}
	if c.panics.err != nil {
		return nil, c.panics.err
	}
	if err := c.keepModel(); err != nil {
		c.cfg.Log.Warn("the link model not kept for the next night", "err", err)
	}
	if err := c.keepVertices(); err != nil {
		c.cfg.Log.Warn("the night's vertices not kept for the next night", "err", err)
	}
	return c.res, nil
}

// crawl assembles the graph: the loop, then best-first admission's edges.
func (c *crawler) crawl(ctx context.Context) {
	c.seed()
	c.loop(ctx)
	c.failures.flush()
	if c.cfg.Admission == AdmitBestFirst {
		c.linkVertices()
	}
	c.compact()
}

type crawler struct {
	panics  *panics
	mem     *memory
	warm    bool // the learned model started from an earlier night's
	cfg     Config
	base    string
	hosts   []string
	extract page.Extractor
	fetcher *Fetcher
	robots  *Robots

	queue    *Queue
	visited  map[string]uint32 // key (and redirect aliases) -> vertex id
	started  map[string]chan fetched
	seeds    map[string]bool
	merged   map[uint32]uint32 // vertex -> the vertex it was folded into
	depth    map[string]int    // the smallest depth a page not yet a vertex was found at
	links    [][]string        // best-first: each vertex's links, for its edges
	digest   string            // of the extraction settings, for State
	res      *Result
	failures *failureLog
	done     int   // pages processed
	tally    Tally // the vertices by fetch state, as the loop goes

	// A budgeted re-crawl's (Revisit): every page fetched this run, the
	// budget, why each planned page was chosen, and, in the pass after
	// the plan's last refetches, that new pages are not fetched.
	cache   *cache
	budget  *Budget
	reasons map[string]string
	noNew   bool

	inflight atomic.Int32  // fetches started and not yet done
	wake     chan struct{} // a fetch ended (cap 1)

	learner   *learn.Learner  // the learned strategy's model, nil for others
	fb        *learn.Feedback // relevance feedback, nil when off
	run       map[uint32]int  // with MaxTunnel: irrelevant pages in a row on the path to a vertex, itself included
	parentRun map[string]int  // with MaxTunnel: that run at the page that first found a queued page
}

// fetched is a page fetched and parsed ahead of the loop.
type fetched struct {
	resp       Response // without the body
	doc        page.Document
	bytes      int
	hash       string
	at         time.Time
	replayed   bool // from the state (an interrupted run's page, a remembered 404): no request made
	downloaded int

	structureChanged bool // against the stored page
	saveErr          error
	known            bool // the state held the page
	carried          bool // the stored copy, not fetched this run
	lastModified     string
	visited          bool  // requested this run (an answer, a 304 or a failure)
	prevRevision     int64 // the stored copy's revision, when the state held the page
}

// edited says whether a visited page's revision differs from the stored
// copy's: nil unless both are known (a 304 keeps the stored copy: false).
func (f fetched) edited() *bool {
	if !f.visited || !f.known || f.prevRevision == 0 || f.doc.RevisionID == 0 {
		return nil
	}
	e := f.doc.RevisionID != f.prevRevision
	return &e
}

func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

func (c *crawler) seed() {
	if strings.HasPrefix(c.res.Robots, "disallow-all") {
		c.problem("%s/robots.txt gave %s: nothing may be fetched this run; check the network and the base URL (or -base-url)",
			c.base, c.res.Robots)
		return
	}
	for _, s := range c.cfg.Seeds {
		key, ok := page.ArticleKey(s, c.hosts)
		switch {
		case !ok:
			c.problem("seed %q is not an article path /wiki/Title", s)
		case !c.robots.Allowed(key):
			c.problem("seed %s is disallowed by robots.txt (%s)", key, c.res.Robots)
		case c.cfg.Admission == AdmitBestFirst:
			c.seeds[key] = true
			c.depth[key] = 0
			c.queue.Add(key, c.seedWeight())
		case c.vertices() < c.cfg.MaxPages:
			if _, dup := c.visited[key]; !dup {
				c.seeds[key] = true
				c.depth[key] = 0
				c.discover(key, c.seedWeight())
			}
		}
	}
}

// seedKeys returns the keys of the seeds that are article paths.
func (c *crawler) seedKeys() []string {
	var keys []string
	for _, s := range c.cfg.Seeds {
		if key, ok := page.ArticleKey(s, c.hosts); ok {
			keys = append(keys, key)
		}
	}
	return keys
}

// seedWeight is 1, the highest weight, unless the strategy gives every
// link 0 (bfs, or no topic to weigh by).
func (c *crawler) seedWeight() float64 {
	switch c.cfg.Strategy {
	case page.StrategyBFS:
		return 0
	case page.StrategyWeighted:
		if c.extract.Topics.Empty() {
			return 0
		}
	case page.StrategySimilarity, page.StrategyLearned:
		if c.extract.Topic.Empty() {
			return 0
		}
	}
	return 1
}

func (c *crawler) problem(format string, args ...any) {
	c.res.Complete = false
	c.res.Problems = append(c.res.Problems, fmt.Sprintf(format, args...))
}

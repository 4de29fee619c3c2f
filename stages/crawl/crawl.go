// Package crawl is the crawl stage: a topic-sensitive weighted BFS over
// Wikipedia with the exact semantics of DESIGN.md ("Crawl semantics").
//
// Fetching runs ahead of the BFS loop: the items most likely to be
// extracted next are fetched and parsed concurrently, within the host's
// politeness limit, but the loop consumes results strictly in queue order.
// The graph therefore depends only on page content, never on timing: a run
// with concurrency 8 gives byte-for-byte the graph of concurrency 1.
package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"time"
)

// Config describes one crawl.
type Config struct {
	BaseURL     string   // where pages are fetched, e.g. https://en.wikipedia.org
	Hosts       []string // further hosts whose absolute links are the job's own
	Seeds       []string // "/wiki/Title" paths
	Topics      []string
	Weighted    bool
	MaxPages    int
	Scope       Scope
	MaxRPS      float64 // request starts per second to the host (<= 0: no limit)
	Concurrency int     // requests in flight to the host
	Fetch       FetchOptions
	Politeness  *Politeness    // the process-wide registry; nil: a private one
	Progress    func(Progress) // called after each page, from the crawl loop
	Log         *slog.Logger   // nil: slog.Default()
}

// Progress is a snapshot of a running crawl.
type Progress struct {
	Done, Vertices, Max, Queued, Failed int
	Elapsed                             time.Duration
}

// Page is one vertex of the crawl and the outcome of its fetch.
type Page struct {
	Key         string  // vertex name: "/wiki/Title", canonical once fetched
	Discovered  string  // the key it was discovered as, if a redirect renamed it
	DuplicateOf string  // canonical key already held by another vertex
	Weight      float64 // weight when queued
	Status      int     // last HTTP status, 0 if none
	Class       string  // error class, "" for a usable page
	Error       string
	Bytes       int
	Attempts    int
	Duration    time.Duration
	FetchedAt   time.Time
	Title       string
	ContentHash string // sha256 of the body, hex
	Links       int    // distinct article links on the page
}

// Edge is a directed edge between vertex ids (indexes into Result.Pages).
type Edge struct{ From, To uint32 }

// Result is a finished crawl.
type Result struct {
	Pages    []Page // indexed by vertex id: discovery order
	Edges    []Edge // in the order the BFS recorded them
	Complete bool   // false when a seed failed or the crawl was interrupted
	Problems []string
	Started  time.Time
	Robots   string // how robots.txt was read: "ok", "allow-all (404)", ...
}

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
	topics := Topics{}
	if cfg.Weighted {
		topics = NewTopics(cfg.Topics)
	}
	limit := cfg.Politeness.Host(base.Host, cfg.MaxRPS, cfg.Concurrency)
	c := &crawler{
		cfg:     cfg,
		base:    base.Scheme + "://" + base.Host,
		hosts:   hosts,
		topics:  topics,
		fetcher: NewFetcher(cfg.Fetch, limit, hosts),
		queue:   NewQueue(),
		visited: make(map[string]uint32),
		started: make(map[string]chan fetched),
		seeds:   make(map[uint32]bool),
		res:     &Result{Complete: true, Started: time.Now().UTC()},
	}
	c.robots = c.readRobots(ctx, limit)
	c.seed()
	c.loop(ctx)
	return c.res, nil
}

type crawler struct {
	cfg     Config
	base    string
	hosts   []string
	topics  Topics
	fetcher *Fetcher
	robots  *Robots

	queue   *Queue
	visited map[string]uint32 // key (and redirect aliases) -> vertex id
	started map[string]chan fetched
	seeds   map[uint32]bool
	res     *Result
	failed  int
}

// fetched is a page fetched and parsed ahead of the loop.
type fetched struct {
	resp  Response // without the body
	doc   Document
	bytes int
	hash  string
	at    time.Time
}

func (c *crawler) readRobots(ctx context.Context, limit *HostLimit) *Robots {
	resp := c.fetcher.Get(ctx, c.base+"/robots.txt", false)
	r, err := ParseRobots(resp.Status, resp.Body, c.cfg.Fetch.UserAgent)
	switch {
	case err != nil:
		c.res.Robots = "disallow-all (unparsable: " + err.Error() + ")"
		r = allRobots(false)
	case resp.Status == 0:
		c.res.Robots = "disallow-all (unreachable: " + resp.Err.Error() + ")"
	case resp.Status >= 400 && resp.Status < 500:
		c.res.Robots = fmt.Sprintf("allow-all (HTTP %d)", resp.Status)
	case resp.Status != 200:
		c.res.Robots = fmt.Sprintf("disallow-all (HTTP %d)", resp.Status)
	default:
		c.res.Robots = "ok"
		if d := r.CrawlDelay(); d > 0 {
			limit.SetCrawlDelay(time.Duration(d * float64(time.Second)))
		}
	}
	return r
}

func (c *crawler) seed() {
	for _, s := range c.cfg.Seeds {
		key, ok := ArticleKey(s, c.hosts)
		switch {
		case !ok:
			c.problem("seed %q is not an article path /wiki/Title", s)
		case !c.robots.Allowed(key):
			c.problem("seed %s is disallowed by robots.txt (%s)", key, c.res.Robots)
		case len(c.res.Pages) < c.cfg.MaxPages:
			if _, dup := c.visited[key]; !dup {
				c.seeds[c.discover(key, c.seedWeight())] = true
			}
		}
	}
}

func (c *crawler) seedWeight() float64 {
	if c.topics.Empty() {
		return 0
	}
	return 1
}

func (c *crawler) problem(format string, args ...any) {
	c.res.Complete = false
	c.res.Problems = append(c.res.Problems, fmt.Sprintf(format, args...))
}

// discover makes key a vertex and queues it.
func (c *crawler) discover(key string, weight float64) uint32 {
	id := uint32(len(c.res.Pages))
	c.visited[key] = id
	c.res.Pages = append(c.res.Pages, Page{Key: key, Weight: weight})
	c.queue.Add(key, weight)
	return id
}

// loop is the weighted BFS of DESIGN.md.
func (c *crawler) loop(ctx context.Context) {
	defer c.drain()
	for c.queue.Len() > 0 {
		if ctx.Err() != nil {
			c.problem("interrupted with %d pages not fetched: %v", c.queue.Len(), ctx.Err())
			return
		}
		key, _ := c.queue.Extract()
		c.prefetch(ctx)
		f := <-c.start(ctx, key)
		delete(c.started, key)
		c.process(key, f)
		c.report()
	}
}

// window is how many fetches may run ahead of the loop.
func (c *crawler) window() int { return 2 * max(c.cfg.Concurrency, 1) }

// prefetch starts fetches for the items the loop will extract next.
func (c *crawler) prefetch(ctx context.Context) {
	free := c.window() - len(c.started)
	if free <= 0 {
		return
	}
	for _, key := range c.queue.Next(c.window()) {
		if free == 0 {
			return
		}
		if _, ok := c.started[key]; !ok {
			c.start(ctx, key)
			free--
		}
	}
}

// start returns the channel that delivers key's fetch, starting it if needed.
func (c *crawler) start(ctx context.Context, key string) chan fetched {
	if ch, ok := c.started[key]; ok {
		return ch
	}
	ch := make(chan fetched, 1)
	c.started[key] = ch
	go func() { ch <- c.fetch(ctx, key) }()
	return ch
}

// fetch gets and parses one page; it runs on its own goroutine.
func (c *crawler) fetch(ctx context.Context, key string) fetched {
	resp := c.fetcher.Get(ctx, c.base+KeyPath(key), true)
	f := fetched{resp: resp, bytes: len(resp.Body), at: time.Now().UTC()}
	if resp.Class == ClassOK {
		f.doc = Extract(resp.Body, c.hosts, c.cfg.Scope, c.topics)
		sum := sha256.Sum256(resp.Body)
		f.hash = hex.EncodeToString(sum[:])
	}
	f.resp.Body = nil
	return f
}

// drain waits for fetches still running (after an interruption).
func (c *crawler) drain() {
	for key, ch := range c.started {
		<-ch
		delete(c.started, key)
	}
}

// process records u's fetch outcome and applies the BFS step to its links.
func (c *crawler) process(key string, f fetched) {
	uid := c.visited[key]
	p := &c.res.Pages[uid]
	p.Status, p.Class, p.Attempts, p.Duration, p.FetchedAt = f.resp.Status, f.resp.Class, f.resp.Attempts, f.resp.Duration, f.at
	p.Bytes, p.ContentHash = f.bytes, f.hash
	if f.resp.Err != nil {
		p.Error = f.resp.Err.Error()
		c.failed++
		c.cfg.Log.Warn("fetch failed", "page", key, "class", p.Class, "status", p.Status, "attempts", p.Attempts, "err", p.Error)
		if c.seeds[uid] {
			c.problem("seed %s: %s", key, p.Error)
		}
		return
	}
	p.Title, p.Links = f.doc.Title, len(f.doc.Links)
	c.canonicalize(uid, f.doc.Canonical)

	targets := make(map[uint32]bool, len(f.doc.Links))
	for _, l := range f.doc.Links {
		vid, seen := c.visited[l.Key]
		if !seen {
			if len(c.res.Pages) >= c.cfg.MaxPages || !c.robots.Allowed(l.Key) {
				continue
			}
			vid = c.discover(l.Key, l.Weight)
		}
		if vid == uid || targets[vid] {
			continue
		}
		targets[vid] = true
		c.res.Edges = append(c.res.Edges, Edge{uid, vid})
	}
}

// canonicalize renames a vertex fetched under a redirect title to the
// canonical title its page names, so one article is one vertex.
func (c *crawler) canonicalize(uid uint32, canonical string) {
	p := &c.res.Pages[uid]
	if canonical == "" || canonical == p.Key {
		return
	}
	if other, ok := c.visited[canonical]; ok && other != uid {
		p.DuplicateOf = canonical
		return
	}
	c.visited[canonical] = uid
	p.Discovered, p.Key = p.Key, canonical
}

func (c *crawler) report() {
	if c.cfg.Progress == nil {
		return
	}
	c.cfg.Progress(Progress{
		Done: len(c.res.Pages) - c.queue.Len(), Vertices: len(c.res.Pages), Max: c.cfg.MaxPages,
		Queued: c.queue.Len(), Failed: c.failed, Elapsed: time.Since(c.res.Started),
	})
}

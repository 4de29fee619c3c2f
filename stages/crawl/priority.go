package crawl

import (
	"math"

	"github.com/topicrank/topicrank/stages/crawl/learn"
	"github.com/topicrank/topicrank/stages/crawl/page"
)

// TunnelPenalty is what a link's priority is multiplied by for each
// irrelevant page beyond max_tunnel on the path that found it.
const TunnelPenalty = 0.1

// priority is the weight a link of vertex uid (e: its features and place,
// featuresOf) enters the queue with: the strategy's weight (or the
// learned model's score), blended with relevance feedback's, and lowered
// when the path to uid has passed through more than MaxTunnel irrelevant
// pages in a row.
func (c *crawler) priority(uid uint32, l page.Link, e learn.Example) float64 {
	if c.cfg.Oracle != nil {
		return c.cfg.Oracle[l.Key]
	}
	p := &c.res.Pages[uid]
	e.Over = c.tunnel(uid, l.Key)
	var w float64
	if c.learner != nil {
		e.Sim, e.ParentRel, e.Depth, e.Parent = l.Weight, p.Relevance, p.Depth, uid
		c.learner.Found(l.Key, e)
		w = c.adjust(c.learner.Score(e), e)
		c.teach(l.Key)
	} else {
		w = c.adjust(l.Weight, e)
	}
	m, ok := c.mem.priority(l.Key, w, c.visited)
	if ok {
		c.mem.queued[l.Key] = w // what it falls back to once memory's share is spent
	}
	return m
}

// adjust applies relevance feedback's blend and the tunnel penalty to a
// link's weight.
func (c *crawler) adjust(w float64, e learn.Example) float64 {
	if c.fb != nil {
		w = c.fb.Blend(w, e.Terms)
	}
	if e.Over > 0 {
		w *= math.Pow(TunnelPenalty, float64(e.Over))
	}
	return w
}

// tunnel returns how many irrelevant pages in a row the path to vertex
// uid has passed through beyond MaxTunnel (0 without max_tunnel), and
// notes the run a path through key would start from.
func (c *crawler) tunnel(uid uint32, key string) int {
	if c.cfg.MaxTunnel == nil {
		return 0
	}
	if _, ok := c.parentRun[key]; !ok {
		c.parentRun[key] = c.run[uid]
	}
	return max(c.run[uid]-*c.cfg.MaxTunnel, 0)
}

// rescore gives a queued page the best priority of the links found to it
// so far, under the learned model as it is now: after each label for the
// pages the learner picks, and for a queued page as each further link to
// it is found, so that a better link found later counts at once.
func (c *crawler) rescore(key string) {
	ex := c.learner.Links(key)
	if ex == nil || !c.learner.Trained() || c.remembered(key) {
		return
	}
	best := 0.0
	for _, e := range ex {
		best = max(best, c.adjust(c.learner.Score(e), e))
	}
	best, _ = c.mem.priority(key, best, c.visited) // memory's discount, if any
	c.queue.Reweigh(key, best)
}

// judged takes in a processed page's relevance: the learned model's
// labels, and the run of irrelevant pages its path has passed through.
func (c *crawler) judged(key string, uid uint32, usable bool, doc page.Document) {
	p := &c.res.Pages[uid]
	if c.fb != nil && usable && p.Relevant {
		c.fb.Judged(doc.Terms)
	}
	if c.learner != nil {
		if usable {
			c.learnLabel(key, p.Relevance, p.Relevant)
		} else {
			c.learner.Forget(key)
		}
	}
	if c.cfg.MaxTunnel != nil {
		if p.Relevant {
			c.run[uid] = 0
		} else {
			c.run[uid] = c.parentRun[key] + 1
		}
		delete(c.parentRun, key)
	}
}

// pageLinks returns vertex uid's links in document order, as best-first
// admission keeps them; nil if it has none kept.
func (c *crawler) pageLinks(uid uint32) []string {
	if int(uid) < len(c.links) {
		return c.links[uid]
	}
	return nil
}

// teach trains the learned model on a link to a page memory has judged
// and the night's plan leaves out (on a night that holds the graph
// still): mostly a page an earlier exploration found and left. Those are
// the kind of page exploration chooses among; without their labels the
// model learns only from the planned pages it fetches, relevant pages
// and their bridges first, a sample unlike the frontier. The label is
// memory's relevance, so a night learns what the nights before it found
// by exploring. Each link teaches once: should the night fetch the page
// after all, its links have taught already, with memory's label.
func (c *crawler) teach(key string) {
	m := c.mem
	if m == nil || m.plan == nil {
		return
	}
	kn, ok := m.known[key]
	if _, planned := m.plan.keep[key]; !ok || kn.Gone || planned {
		return
	}
	if _, done := c.visited[key]; done {
		return
	}
	c.learnLabel(key, kn.Relevance, kn.Relevance >= c.cfg.RelevanceThreshold)
}

// learnLabel trains the learned model on a page's label (its relevance,
// and whether that makes it relevant) and re-scores the frontier pages
// the learner names: a fetched page's label or memory's (teach).
func (c *crawler) learnLabel(key string, relevance float64, relevant bool) {
	for _, k := range c.learner.Judged(key, learn.Target(relevance, c.cfg.RelevanceThreshold), relevant) {
		c.rescore(k)
	}
}

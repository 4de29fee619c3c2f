package publish

import (
	"net/http"

	"github.com/topicrank/topicrank/stages/crawl"
	crawlpage "github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/graph"
)

// Causes of changes.parquet: why a page differs between the run and the
// previous complete run. Every difference has one.
const (
	CauseEdited    = "edited"    // kept, with a new revision
	CauseChanged   = "changed"   // kept, its content changed (revision unknown, or a re-render)
	CauseRank      = "rank"      // kept, the same content: only its rank moved
	CauseUnchanged = "unchanged" // kept, the same content and the same position
	CauseLinked    = "linked"    // entered: a page linking to it was edited or changed
	CauseUnlinked  = "unlinked"  // left: a page that linked to it was edited or changed
	CauseGone      = "gone"      // its fetch answered 404 or 410 (now; or, for a page that left, then)
	CauseFailed    = "failed"    // its fetch failed otherwise (now; or, for a page that left, then)
	CauseCrawl     = "crawl"     // reachable on both runs: the crawl chose differently
	CauseFirst     = "first"     // the job's first run: nothing to compare with
)

// Sound reports whether a change's cause leaves the page a sound vertex on
// both runs (fetched, 304, carried or replayed; never failed): only those
// are ranked as movers.
func Sound(cause string) bool {
	return cause == CauseEdited || cause == CauseChanged || cause == CauseRank || cause == CauseUnchanged
}

// causer tells the causes of a run's changes.
type causer struct {
	g       *graph.Graph
	in      graph.InEdges
	prev    *Previous
	pages   map[string]*crawl.Page
	touched map[string]bool // edited or changed this run
}

func newCauser(in *Input) *causer {
	c := &causer{g: in.Graph, in: in.Graph.InEdges(), prev: in.Previous, pages: map[string]*crawl.Page{}, touched: map[string]bool{}}
	for i := range in.Crawl.Pages {
		p := &in.Crawl.Pages[i]
		c.pages[p.Key] = p
		if c.edited(p) || c.changed(p) {
			c.touched[p.Key] = true
		}
	}
	return c
}

func (c *causer) edited(p *crawl.Page) bool { return p.Edited != nil && *p.Edited }

func (c *causer) changed(p *crawl.Page) bool {
	if c.prev == nil {
		return false
	}
	changed, _ := crawlpage.ContentChanged(c.prev.Hashes[p.Key], p.ContentHash)
	return changed
}

// failed returns the cause of a failed fetch by its status.
func failed(status int) string {
	if status == http.StatusNotFound || status == http.StatusGone {
		return CauseGone
	}
	return CauseFailed
}

// kept is the cause of a vertex of both runs; moved says its position
// changed.
func (c *causer) kept(name string, moved bool) string {
	p := c.pages[name]
	switch {
	case p != nil && p.State == crawl.Failed:
		return failed(p.Status)
	case c.prev != nil && hasKey(c.prev.Unsound, name):
		return failed(int(c.prev.Unsound[name]))
	case p != nil && c.edited(p):
		return CauseEdited
	case p != nil && c.changed(p):
		return CauseChanged
	case moved:
		return CauseRank
	}
	return CauseUnchanged
}

// entered is the cause of vertex v, not a vertex of the previous run.
func (c *causer) entered(v uint32) string {
	if c.prev == nil {
		return CauseFirst
	}
	if p := c.pages[c.g.Name(v)]; p != nil && p.State == crawl.Failed {
		return failed(p.Status)
	}
	for _, u := range c.in.In(v) {
		if c.touched[c.g.Name(u)] {
			return CauseLinked
		}
	}
	return CauseCrawl
}

// left is the cause of a page of the previous run that is not a vertex now.
func (c *causer) left(name string) string {
	if st, ok := c.prev.Unsound[name]; ok {
		return failed(int(st))
	}
	for _, u := range c.prev.Sources[name] {
		if c.touched[u] {
			return CauseUnlinked
		}
	}
	return CauseCrawl
}

func hasKey[V any](m map[string]V, k string) bool { _, ok := m[k]; return ok }

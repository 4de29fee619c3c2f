package crawl

// Admission: which pages a crawl takes in, and in what order (DESIGN.md,
// "Admission"). Discovery admission makes a page a vertex when a link to
// it is first found; best-first admission queues every allowed link in a
// frontier and makes vertices of the pages it extracts.

import (
	"regexp"
	"slices"

	"github.com/topicrank/topicrank/stages/crawl/learn"
	"github.com/topicrank/topicrank/stages/crawl/page"
)

// discover makes key a vertex and queues it (discovery admission).
func (c *crawler) discover(key string, weight float64) uint32 {
	id := c.vertex(key, weight)
	c.queue.Add(key, weight)
	return id
}

// vertex makes key a vertex.
func (c *crawler) vertex(key string, weight float64) uint32 {
	id := uint32(len(c.res.Pages))
	c.visited[key] = id
	c.res.Pages = append(c.res.Pages, Page{Key: key, Weight: weight, Depth: c.depth[key], State: NotFetched})
	c.tally.NotFetched++
	delete(c.depth, key)
	return id
}

// admissible reports whether a page found at depth passes max_depth and
// the title patterns, and notes the depth for the page if it is.
func (c *crawler) admissible(key string, depth int) bool {
	if c.cfg.MaxDepth > 0 && depth > c.cfg.MaxDepth {
		return false
	}
	if len(c.cfg.Include)+len(c.cfg.Exclude) > 0 {
		title := page.KeyTitle(key)
		if len(c.cfg.Include) > 0 && !slices.ContainsFunc(c.cfg.Include, func(r *regexp.Regexp) bool { return r.MatchString(title) }) {
			return false
		}
		if slices.ContainsFunc(c.cfg.Exclude, func(r *regexp.Regexp) bool { return r.MatchString(title) }) {
			return false
		}
	}
	if d, ok := c.depth[key]; !ok || depth < d {
		c.depth[key] = depth
	}
	return true
}

// admit is the weighted BFS step of discovery admission: a link to a
// vertex is an edge; a new page is admitted (a vertex, queued) while there
// is room and robots.txt allows it.
func (c *crawler) admit(uid uint32, doc page.Document) {
	links := doc.Links
	targets := make(map[uint32]bool, len(links))
	depth := c.res.Pages[uid].Depth + 1
	for i, l := range links {
		vid, seen := c.visited[l.Key]
		if !seen {
			if c.vertices() >= c.cfg.MaxPages || !c.robots.Allowed(l.Key) || !c.admissible(l.Key, depth) {
				continue
			}
			vid = c.discover(l.Key, c.priority(uid, l, featuresOf(doc, i)))
		} else if p := &c.res.Pages[vid]; depth < p.Depth {
			p.Depth = depth
		}
		if vid == uid || targets[vid] {
			continue
		}
		targets[vid] = true
		c.res.Edges = append(c.res.Edges, Edge{uid, vid})
	}
}

// enqueue is best-first admission's step: every allowed link that is not a
// vertex joins the frontier, which is then bounded. The page's links are
// kept: its edges are known once every vertex is.
func (c *crawler) enqueue(uid uint32, doc page.Document) {
	links := doc.Links
	keys := make([]string, len(links))
	for i, l := range links {
		keys[i] = l.Key
	}
	for len(c.links) <= int(uid) {
		c.links = append(c.links, nil)
	}
	c.links[uid] = keys
	depth := c.res.Pages[uid].Depth + 1
	for i, l := range links {
		if _, seen := c.visited[l.Key]; !seen && c.robots.Allowed(l.Key) && c.admissible(l.Key, depth) {
			if w := c.priority(uid, l, featuresOf(doc, i)); !c.queue.Add(l.Key, w) && c.learner != nil {
				c.rescore(l.Key)
			}
		}
	}
	c.queue.Bound(c.cfg.MaxFrontier)
}

// linkVertices records best-first admission's edges: each vertex's links
// to other vertices, vertices in order and each one's links in document
// order, without duplicates or self-loops.
func (c *crawler) linkVertices() {
	for uid, keys := range c.links {
		targets := make(map[uint32]bool, len(keys))
		for _, k := range keys {
			vid, ok := c.visited[k]
			if !ok || vid == uint32(uid) || targets[vid] {
				continue
			}
			targets[vid] = true
			c.res.Edges = append(c.res.Edges, Edge{uint32(uid), vid})
		}
	}
}

// featuresOf returns link i of doc as the learned model first sees it:
// its hashed features and its place on the page.
func featuresOf(doc page.Document, i int) learn.Example {
	e := learn.Example{Idx: i}
	if i < len(doc.Features) {
		e.Terms = doc.Features[i]
	}
	if i < len(doc.Sections) {
		e.Section = doc.Sections[i]
	}
	return e
}

package crawl

// Redirects. A page fetched under a redirect title names its article in
// <link rel="canonical">. If that article is not yet a vertex, the vertex
// is renamed to it. If it already is one, the two vertices are one article:
// the later one is folded into the earlier (its in-edges move there, its
// out-links are not used, since the article's own vertex has them) and its
// vertex slot is given back, so the crawl still reaches max_pages. The page
// was then fetched twice, under both titles: that is the only case where a
// crawl fetches an article more than once, and it cannot be known earlier.

// vertices is the number of vertices: discovered pages less merged ones.
func (c *crawler) vertices() int { return len(c.res.Pages) - len(c.merged) }

// canonicalize applies the page's canonical key to vertex uid and reports
// whether the vertex was merged into another.
func (c *crawler) canonicalize(uid uint32, canonical string) bool {
	p := &c.res.Pages[uid]
	if canonical == "" || canonical == p.Key {
		return false
	}
	other, ok := c.visited[canonical]
	if !ok {
		c.visited[canonical] = uid
		p.Discovered, p.Key = p.Key, canonical
		return false
	}
	if other == uid {
		return false
	}
	c.merged[uid] = other
	c.tally.Add(p, -1) // no longer a vertex
	c.unadmit(uid)
	c.visited[p.Key] = other
	p.DuplicateOf = canonical
	return true
}

// compact removes merged vertices: ids are renumbered in discovery order,
// edges into a merged vertex go to its article, and edges that became
// duplicates or self-loops are dropped (the first occurrence stays).
func (c *crawler) compact() {
	if len(c.merged) == 0 {
		return
	}
	resolve := func(v uint32) uint32 {
		for {
			to, ok := c.merged[v]
			if !ok {
				return v
			}
			v = to
		}
	}
	newID := make([]uint32, len(c.res.Pages))
	var pages []Page
	for v, p := range c.res.Pages {
		if _, gone := c.merged[uint32(v)]; gone {
			c.res.Merged = append(c.res.Merged, p)
			continue
		}
		newID[v] = uint32(len(pages))
		pages = append(pages, p)
	}
	seen := make(map[Edge]bool, len(c.res.Edges))
	edges := c.res.Edges[:0]
	for _, e := range c.res.Edges {
		ne := Edge{newID[resolve(e.From)], newID[resolve(e.To)]}
		if ne.From == ne.To || seen[ne] {
			continue
		}
		seen[ne] = true
		edges = append(edges, ne)
	}
	c.res.Pages, c.res.Edges = pages, edges
}

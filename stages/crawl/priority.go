package crawl

import "math"

// TunnelPenalty is what a link's priority is multiplied by for each
// irrelevant page beyond max_tunnel on the path that found it.
const TunnelPenalty = 0.1

// priority is the weight a link of vertex uid enters the queue with: the
// strategy's weight (or the learned model's score), lowered when the path
// to uid has passed through more than MaxTunnel irrelevant pages in a row.
func (c *crawler) priority(uid uint32, l Link, features []uint32) float64 {
	p := &c.res.Pages[uid]
	w := l.Weight
	if c.cfg.Oracle != nil {
		return c.cfg.Oracle[l.Key]
	}
	if c.learn != nil {
		w = c.learn.found(l.Key, example{features: features, sim: l.Weight, parentRel: p.Relevance, depth: p.Depth})
	}
	if c.fb != nil {
		w = c.fb.blend(w, features)
	}
	if c.cfg.MaxTunnel != nil {
		if _, ok := c.parentRun[l.Key]; !ok {
			c.parentRun[l.Key] = c.run[uid]
		}
		if over := c.run[uid] - *c.cfg.MaxTunnel; over > 0 {
			w *= math.Pow(TunnelPenalty, float64(over))
		}
	}
	return w
}

// judged takes in a processed page's relevance: the learned model's
// labels, and the run of irrelevant pages its path has passed through.
func (c *crawler) judged(key string, uid uint32, usable bool, doc Document) {
	p := &c.res.Pages[uid]
	if c.fb != nil && usable && p.Relevant {
		c.fb.judged(doc.Terms)
	}
	if c.learn != nil {
		if usable {
			c.learn.judged(key, p.Relevant, c.queue)
		} else {
			delete(c.learn.pending, key)
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

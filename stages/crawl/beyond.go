package crawl

import (
	"context"
	"math"
)

// judgeBeyond ends a best-first night with memory by fetching, without
// admitting them, the frontier's next Config.Beyond pages that no night
// has judged. Stored, they are known to the next night's plan, which
// admits those judged relevant in place of pages expected to be worse
// (plan.go) instead of admitting unknown pages to find out. Judging a
// page costs a request, not a vertex, so the graph changes only by pages
// known to be better.
func (c *crawler) judgeBeyond(ctx context.Context) {
	n := c.cfg.Beyond
	if c.mem == nil || !c.cfg.judgesBeyond() || ctx.Err() != nil {
		return
	}
	keys := make([]string, 0, n)
	for _, key := range c.queue.Next(c.queue.Len()) {
		if len(keys) == n {
			break
		}
		_, vertex := c.visited[key]
		_, known := c.mem.known[key]
		if !vertex && !known {
			keys = append(keys, key)
		}
	}
	if len(keys) > 0 {
		c.cfg.Log.Info("judging pages beyond the graph for the next night", "pages", len(keys))
	}
	for _, key := range keys {
		c.start(ctx, key)
	}
}

// judgesBeyond reports whether a best-first night of this crawl judges
// pages beyond its graph. A night with a request budget (a revisit
// policy) spends it on revisits and does not.
func (cfg Config) judgesBeyond() bool { return cfg.Beyond > 0 && cfg.Revisit == nil }

// beyondPerShare is how many pages beyond its graph a job's night judges
// for each page new_share lets it replace: at the default new_share, 0.8
// of max_pages. On the six assessed topics, with the plan as it is, 4
// gave night 4 a harvest of 0.453 as people judge it and 8 gave 0.475,
// 85% of the way to the oracle (docs/relevance.md, "Judging beyond the
// graph").
const beyondPerShare = 8

// BeyondFor returns Config.Beyond for a job of maxPages and new_share.
func BeyondFor(maxPages int, share float64) int {
	return beyondPerShare * int(math.Round(share*float64(maxPages)))
}

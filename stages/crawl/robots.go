package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/crawl/robots"
)

// Robots answers whether a path may be fetched, for one crawler.
type Robots struct{ rules *robots.Rules }

// ParseRobots interprets a robots.txt answer for the User-Agent's product
// token (RFC 9309): a 2xx body is parsed (its first robots.MaxSize bytes);
// 4xx but 429 means there is none, so everything is allowed; any other
// status (5xx, 429, 0 for no answer) disallows everything.
func ParseRobots(status int, body []byte, userAgent string) *Robots {
	switch {
	case status >= 200 && status < 300:
		return &Robots{robots.Parse(body, productToken(userAgent))}
	case status >= 400 && status < 500 && status != http.StatusTooManyRequests:
		return &Robots{robots.AllowAll()}
	}
	return &Robots{robots.DisallowAll()}
}

func disallowAll() *Robots { return &Robots{robots.DisallowAll()} }

// Allowed reports whether key (a "/wiki/..." path) may be fetched. Both the
// escaped and the decoded form of the path must be allowed: robots.txt
// files (Wikipedia's among them) list both, and RFC 9309's normalisation
// keeps reserved characters such as ':' apart from their escapes.
func (r *Robots) Allowed(key string) bool { return r.AllowedPath(page.KeyPath(key)) }

// AllowedPath is Allowed for an escaped request path (with its query).
func (r *Robots) AllowedPath(escaped string) bool {
	if !r.rules.Allowed(escaped) {
		return false
	}
	decoded, err := url.PathUnescape(escaped)
	return err != nil || r.rules.Allowed(decoded)
}

// CrawlDelay returns the group's Crawl-delay in seconds (0 if none).
func (r *Robots) CrawlDelay() float64 { return r.rules.CrawlDelay().Seconds() }

// MaxCrawlDelay caps robots.txt's Crawl-delay: a larger one (3600 s would
// make a 1,000-page crawl take six weeks) is logged and capped.
const MaxCrawlDelay = 60 * time.Second

// readRobots fetches robots.txt once for the run. A file that cannot be
// read whole (an error, a time-out, a body cut short, a 5xx or 429 after
// retries) disallows everything for the run, as RFC 9309 says of an
// unreachable one; a file larger than robots.MaxSize is parsed up to it.
func (c *crawler) readRobots(ctx context.Context, limit *HostLimit) *Robots {
	resp := c.fetcher.Get(ctx, Request{URL: c.base + "/robots.txt", MaxBody: robots.MaxSize, Truncate: true})
	c.res.Downloaded = len(resp.Body)
	four := resp.Status >= 400 && resp.Status < 500 && resp.Status != http.StatusTooManyRequests
	switch {
	case resp.Status == 0:
		c.res.Robots = fmt.Sprintf("disallow-all (unreachable: %v)", resp.Err)
		return disallowAll()
	case resp.Class != ClassOK && !four:
		c.res.Robots = fmt.Sprintf("disallow-all (unreadable: HTTP %d, %v)", resp.Status, resp.Err)
		return disallowAll()
	case four:
		c.res.Robots = fmt.Sprintf("allow-all (HTTP %d)", resp.Status)
	case resp.Status != http.StatusOK:
		c.res.Robots = fmt.Sprintf("disallow-all (HTTP %d)", resp.Status)
	default:
		c.res.Robots = "ok"
		if resp.Truncated {
			c.res.Robots = fmt.Sprintf("ok (first %d KiB parsed)", robots.MaxSize>>10)
			c.cfg.Log.Warn("robots.txt is larger than RFC 9309 requires crawlers to read; the rest is ignored",
				"url", c.base+"/robots.txt", "parsed_bytes", len(resp.Body))
		}
	}
	r := ParseRobots(resp.Status, resp.Body, c.cfg.Fetch.UserAgent)
	if d := time.Duration(r.CrawlDelay() * float64(time.Second)); d > 0 {
		if d > MaxCrawlDelay {
			c.cfg.Log.Warn("robots.txt Crawl-delay capped", "crawl_delay", d.String(), "cap", MaxCrawlDelay.String())
			d = MaxCrawlDelay
		}
		limit.SetCrawlDelay(d)
	}
	return r
}

// productToken returns the User-Agent's product token ("topicrank" for
// "topicrank/0.1 (...)"), which robots.txt groups are matched on.
func productToken(userAgent string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(userAgent), "/")
	tok, _, _ = strings.Cut(tok, " ")
	return tok
}

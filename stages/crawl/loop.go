package crawl

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/http"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

// loop is the crawl loop of DESIGN.md: the weighted BFS, whose vertices
// are admitted when discovered, or best-first admission, whose vertices
// are the first MaxPages pages extracted from the frontier.
func (c *crawler) loop(ctx context.Context) {
	defer c.drain()
	bestFirst := c.cfg.Admission == AdmitBestFirst
	for c.queue.Len() > 0 {
		if bestFirst && c.vertices() >= c.cfg.MaxPages {
			c.judgeBeyond(ctx)
			return
		}
		if ctx.Err() != nil {
			c.interrupted(ctx.Err())
			return
		}
		key, weight := c.queue.Extract()
		if bestFirst {
			if _, ok := c.visited[key]; ok {
				continue // a vertex already, under its canonical title
			}
			uid := c.vertex(key, weight)
			if c.mem != nil {
				c.admittedFrom(key, uid)
			}
		}
		c.prefetch(ctx)
		f := c.await(ctx, c.start(ctx, key))
		delete(c.started, key)
		c.process(key, f)
		c.done++
		c.report()
	}
}

// window is how many fetches may be in flight ahead of the loop.
func (c *crawler) window() int { return 2 * max(c.cfg.Concurrency, 1) }

// ahead bounds the fetches started and not yet consumed, done or not:
// while the loop waits for a slow page, the pages after it are fetched
// and kept, so one slow answer does not stall the crawl. With discovery
// admission every queued page is a vertex and will be consumed. With
// best-first admission a page fetched ahead may never be extracted (a
// request spent for nothing) and is known to the next night's memory
// all the same, so it looks bestFirstAhead pages ahead whatever the
// concurrency: the nights after are then the same at any concurrency.
func (c *crawler) ahead() int {
	if c.cfg.Admission == AdmitBestFirst {
		return bestFirstAhead
	}
	return 64 * c.window()
}

// bestFirstAhead is how many pages a best-first crawl fetches ahead of
// its loop: the window of concurrency 8. The fetches still ahead when a
// night ends, up to 16, are requests for pages it never uses; above
// concurrency 16 it is also what a best-first crawl has in flight.
const bestFirstAhead = 16

// prefetch starts fetches for the items the loop will extract next.
func (c *crawler) prefetch(ctx context.Context) {
	free := c.room()
	if free <= 0 {
		return
	}
	for _, key := range c.queue.Next(len(c.started) + free) {
		if free == 0 {
			return
		}
		if _, ok := c.started[key]; !ok {
			c.start(ctx, key)
			free--
		}
	}
}

// room is how many more fetches prefetch may start. With best-first
// admission it depends on the loop alone (the fetches started and not
// consumed, at most bestFirstAhead), not on how fast they answer: a page
// fetched ahead and never extracted is still stored, and known to the
// next night's memory, so a night's fetches, and the nights after it,
// are the same on every run. With discovery admission the window also
// bounds the fetches in flight.
func (c *crawler) room() int {
	free := c.ahead() - len(c.started)
	if c.cfg.Admission != AdmitBestFirst {
		free = min(free, c.window()-int(c.inflight.Load()))
	}
	return free
}

// start returns the channel that delivers key's fetch, starting it if needed.
func (c *crawler) start(ctx context.Context, key string) chan fetched {
	if ch, ok := c.started[key]; ok {
		return ch
	}
	ch := make(chan fetched, 1)
	c.started[key] = ch
	c.inflight.Add(1)
	go func() {
		ch <- c.safely(key, func() fetched { return c.fetch(ctx, key) })
		c.inflight.Add(-1)
		select { // wake the loop, if it waits, to start another
		case c.wake <- struct{}{}:
		default:
		}
	}()
	return ch
}

// await waits for a fetch, starting others as those in flight end.
func (c *crawler) await(ctx context.Context, ch chan fetched) fetched {
	for {
		select {
		case f := <-ch:
			return f
		case <-c.wake:
			c.prefetch(ctx)
		}
	}
}

// fetch gets and parses one page; it runs on its own goroutine.
func (c *crawler) fetch(ctx context.Context, key string) fetched {
	if f, ok := c.cache.get(key); ok {
		return f
	}
	var old Stored
	var have bool
	if c.cfg.State != nil {
		if c.cfg.RecheckMissing > 0 { // a page that answered 404/410 lately is not asked again
			// A record dated in the future (the clock was ahead then) is
			// due now: no recheck waits past now plus its interval.
			if status, at, ok := c.cfg.State.Missing(key); ok && recent(time.Since(at), c.cfg.RecheckMissing) {
				return fetched{resp: Response{Status: status, Class: ClassHTTP, Err: fmt.Errorf("HTTP %d", status)},
					at: time.Now().UTC(), replayed: true}
			}
		}
		var replay bool
		old, replay, have = c.cfg.State.Load(key, c.digest)
		switch {
		case replay && old.current(): // a copy read by other code is fetched again
			return replayed(old)
		case have && c.cfg.Revisit != nil: // not planned, or the plan's budget ran out first
			return carry(old)
		case !have && c.noNew:
			return fetched{resp: Response{Class: ClassBudget, Err: errBudget}, at: time.Now().UTC()}
		}
	}
	f := c.request(ctx, key, old, have)
	if c.cfg.Revisit != nil && f.resp.Class != ClassBudget {
		c.cache.put(key, f)
	}
	return f
}

// replayed is a page the interrupted run this one resumes fetched.
func replayed(old Stored) fetched {
	f := storedCopy(old)
	f.at, f.replayed = time.Now().UTC(), true
	return f
}

// storedCopy is the state's copy of a page as this run's page.
func storedCopy(old Stored) fetched {
	return fetched{resp: Response{Status: http.StatusOK}, doc: old.Doc, hash: old.Hash, bytes: old.Bytes,
		known: true, lastModified: old.LastModified}
}

// request fetches key (conditionally, if the state has it) and parses and
// stores the answer.
func (c *crawler) request(ctx context.Context, key string, old Stored, have bool) fetched {
	req := Request{URL: c.base + page.KeyPath(key), HTML: true}
	if have && old.current() { // a copy read by other code is no copy to keep
		req.ETag, req.LastModified = old.ETag, old.LastModified
	}
	resp := c.fetcher.Get(ctx, req)
	f := fetched{resp: resp, bytes: len(resp.Body), downloaded: len(resp.Body), at: time.Now().UTC(), known: have,
		lastModified: resp.LastModified, visited: true}
	if have {
		f.prevRevision = old.Doc.RevisionID
	}
	switch {
	case resp.Status == http.StatusNotFound || resp.Status == http.StatusGone:
		if c.cfg.State != nil {
			f.saveErr = c.cfg.State.SaveMissing(key, resp.Status)
		}
	case resp.Class != ClassOK:
	case resp.Status == http.StatusNotModified:
		f.doc, f.hash, f.bytes = old.Doc, old.Hash, old.Bytes
		f.lastModified = cmp.Or(resp.LastModified, old.LastModified)
		f.saveErr = c.cfg.State.Touch(key, f.lastModified)
	default:
		f.doc = c.extract.Extract(resp.Body)
		f.hash = page.ContentHashPrefix + f.doc.Content
		f.structureChanged = have && f.doc.Structure != old.Doc.Structure
		if c.cfg.State != nil {
			f.saveErr = c.cfg.State.Save(key, c.digest,
				Stored{ETag: resp.ETag, LastModified: resp.LastModified, Hash: f.hash, Bytes: f.bytes, Doc: f.doc})
		}
	}
	if c.budget != nil && resp.Attempts > 0 && f.saveErr == nil {
		f.saveErr = c.cfg.State.Requests(c.budget.Used())
	}
	f.resp.Body = nil
	return f
}

// recent reports whether an age is within d: a negative age (a time in
// the future) is not recent.
func recent(age, d time.Duration) bool { return age >= 0 && age < d }

// drain waits for fetches still running (after an interruption, or pages
// fetched ahead that best-first admission never took). Their requests are
// counted with the run's (Result.Requests); the pages are not.
func (c *crawler) drain() {
	for key, ch := range c.started {
		<-ch
		delete(c.started, key)
	}
}

// interrupted ends a crawl cut short: the fetches of vertices already
// started are awaited (a request already sent is let finish, within
// inflightGrace) and recorded in queue order, so every answer the host
// gave is a page's; what was never requested stays not_fetched.
func (c *crawler) interrupted(err error) {
	for _, key := range c.queue.Next(c.queue.Len()) {
		if len(c.started) == 0 {
			break
		}
		ch, ok := c.started[key]
		if !ok {
			continue
		}
		f := <-ch
		delete(c.started, key)
		if _, vertex := c.visited[key]; vertex && c.cfg.Admission == AdmitDiscovery {
			c.settle(c.visited[key], f)
		}
	}
	pages := "pages"
	if c.tally.NotFetched == 1 {
		pages = "page"
	}
	c.problem("interrupted with %d %s not fetched: %v", c.tally.NotFetched, pages, err)
}

// process records key's fetch outcome and, for a usable page that is not a
// redirect to a known vertex, takes in its links.
func (c *crawler) process(key string, f fetched) {
	uid := c.visited[key]
	ok := c.record(uid, f)
	c.judged(key, uid, ok, f.doc)
	if !ok || c.canonicalize(uid, f.doc.Canonical) {
		return // failed; or merged: the article's own vertex has (or will have) its links
	}
	if c.cfg.Admission == AdmitBestFirst {
		c.enqueue(uid, f.doc)
	} else {
		c.admit(uid, f.doc)
	}
}

// record fills in vertex uid's page from its fetch and reports whether the
// page is usable.
func (c *crawler) record(uid uint32, f fetched) bool {
	p := &c.res.Pages[uid]
	c.tally.Add(p, -1)
	defer c.tally.Add(p, 1)
	p.Seq = c.done + 1
	p.State = f.state()
	p.Status, p.Class, p.Attempts, p.Duration, p.FetchedAt = f.resp.Status, f.resp.Class, f.resp.Attempts, f.resp.Duration, f.at
	p.Bytes, p.ContentHash, p.Replayed, p.Downloaded = f.bytes, f.hash, f.replayed, f.downloaded
	p.StructureChanged, p.Carried, p.Revisit = f.structureChanged, f.carried, c.reason(p.Key, f)
	p.LastModified = f.lastModified
	if f.saveErr != nil { // the graph is unaffected; the next run just fetches more
		c.cfg.Log.Warn("crawl state not saved", "page", p.Key, "err", f.saveErr)
	}
	switch p.State {
	case NotFetched: // out of budget, or cut short before it was asked: the next run fetches it
		p.Class, p.FetchedAt = "", time.Time{}
		if f.resp.Err != nil {
			p.Error = f.resp.Err.Error()
		}
		return false
	case Failed:
		p.Error = f.resp.Err.Error()
		if p.Class != ClassCancelled {
			c.failures.add(p)
		}
		if c.seeds[p.Key] {
			c.problem("seed %s: %s", p.Key, p.Error)
		}
		return false
	}
	p.Title, p.Links, p.Text, p.Identity = f.doc.Title, len(f.doc.Links), f.doc.Text, f.doc.Identity
	p.Edited = f.edited()
	p.Relevance, p.TopicWords = f.doc.Relevance, f.doc.Matched
	if c.cfg.Judge != nil { // by the article's key, which the page takes on (canonicalize)
		p.Relevance = c.cfg.Judge[cmp.Or(f.doc.Canonical, p.Key)]
	}
	p.Relevant = !c.extract.Topic.Empty() && p.Relevance >= c.cfg.RelevanceThreshold
	return true
}

// settle records a fetch that ended after the crawl was cut short: the
// page's outcome counts, its links are not taken in.
func (c *crawler) settle(uid uint32, f fetched) {
	if c.record(uid, f) {
		c.canonicalize(uid, f.doc.Canonical)
	}
	c.done++
	c.report()
}

// report hands the crawl's progress so far to Config.Progress, if set.
func (c *crawler) report() {
	if c.cfg.Progress == nil {
		return
	}
	t := c.tally
	t.FailedByClass = maps.Clone(t.FailedByClass) // the receiver may keep it; the crawl goes on counting
	c.cfg.Progress(Progress{
		Tally: t, Done: c.vertices() - t.NotFetched, Vertices: c.vertices(), Max: c.cfg.MaxPages,
		Queued: c.queue.Len(), Elapsed: time.Since(c.res.Started),
	})
}

package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"
)

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
	var old Stored
	var have bool
	if c.cfg.State != nil {
		var replay bool
		old, replay, have = c.cfg.State.Load(key, c.digest)
		if replay {
			return fetched{resp: Response{Status: http.StatusOK}, doc: old.Doc, hash: old.Hash, bytes: old.Bytes,
				at: time.Now().UTC(), replayed: true}
		}
	}
	req := Request{URL: c.base + KeyPath(key), HTML: true}
	if have {
		req.ETag, req.LastModified = old.ETag, old.LastModified
	}
	resp := c.fetcher.Get(ctx, req)
	f := fetched{resp: resp, bytes: len(resp.Body), at: time.Now().UTC()}
	switch {
	case resp.Class != ClassOK:
	case resp.Status == http.StatusNotModified:
		f.doc, f.hash, f.bytes = old.Doc, old.Hash, old.Bytes
		f.saveErr = c.cfg.State.Touch(key)
	default:
		f.doc = Extract(resp.Body, c.hosts, c.cfg.Scope, c.topics)
		sum := sha256.Sum256(resp.Body)
		f.hash = hex.EncodeToString(sum[:])
		f.structureChanged = have && f.doc.Structure != old.Doc.Structure
		if c.cfg.State != nil {
			f.saveErr = c.cfg.State.Save(key, c.digest,
				Stored{ETag: resp.ETag, LastModified: resp.LastModified, Hash: f.hash, Bytes: f.bytes, Doc: f.doc})
		}
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
	p.Bytes, p.ContentHash, p.Replayed = f.bytes, f.hash, f.replayed
	p.StructureChanged = f.structureChanged
	if f.saveErr != nil { // the graph is unaffected; the next run just fetches more
		c.cfg.Log.Warn("crawl state not saved", "page", key, "err", f.saveErr)
	}
	if f.resp.Err != nil {
		p.Error = f.resp.Err.Error()
		c.failed++
		if p.Class != ClassCancelled {
			c.cfg.Log.Warn("fetch failed", "page", key, "class", p.Class, "status", p.Status, "attempts", p.Attempts, "err", p.Error)
		}
		if c.seeds[uid] {
			c.problem("seed %s: %s", key, p.Error)
		}
		return
	}
	p.Title, p.Links = f.doc.Title, len(f.doc.Links)
	if c.canonicalize(uid, f.doc.Canonical) {
		return // merged: the article's own vertex has (or will have) its links
	}

	targets := make(map[uint32]bool, len(f.doc.Links))
	for _, l := range f.doc.Links {
		vid, seen := c.visited[l.Key]
		if !seen {
			if c.vertices() >= c.cfg.MaxPages || !c.robots.Allowed(l.Key) {
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

func (c *crawler) report() {
	if c.cfg.Progress == nil {
		return
	}
	c.cfg.Progress(Progress{
		Done: c.vertices() - c.queue.Len(), Vertices: c.vertices(), Max: c.cfg.MaxPages,
		Queued: c.queue.Len(), Failed: c.failed, Elapsed: time.Since(c.res.Started),
	})
}

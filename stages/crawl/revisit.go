package crawl

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/learn"
)

// Revisit makes a crawl a budgeted re-crawl (DESIGN.md, "Revisits"): the
// known pages to fetch again are chosen before the crawl (package revisit
// plans them from the state's change histories); every other known page
// keeps its stored copy and links ("carried"), and a budget bounds the
// run's requests.
//
// A run goes in three steps. The planned pages are fetched first, in plan
// order, while the budget minus Reserve lasts. Then the crawl proper runs
// as always, taking the refetched pages' new links and carried pages'
// stored ones, and fetching pages never fetched before from what is left.
// If requests are still left (fewer new pages than Reserve), the plan goes
// on with them and the graph is assembled once more from what the run
// now holds; pages found new in that pass wait for the next run. The
// graph therefore depends on the plan, the budget and the content, not on
// timing, except where the budget runs out mid-retry.
type Revisit struct {
	Keys    []string // known pages to fetch again, best first
	Reasons []string // why each was chosen, parallel to Keys
	// MaxRequests bounds the run's requests (0: no bound), Spent of them
	// already spent by the run this one resumes; Reserve of them are kept
	// for new pages while the plan is fetched.
	MaxRequests, Spent, Reserve int
	Deadline                    time.Time // zero: none
}

// Reasons a page was fetched or not, beside the plan's own.
const (
	ReasonNew     = "new"     // never fetched before
	ReasonAll     = "all"     // every known page is fetched (no plan)
	ReasonCarried = "carried" // not planned, or not reached: the stored copy stands
	ReasonBudget  = "budget"  // new, but no request was left
)

// cache holds the pages this run has fetched (or replayed), for the
// passes that assemble the graph.
type cache struct {
	mu    sync.Mutex
	pages map[string]fetched
}

func (c *cache) get(key string) (fetched, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.pages[key]
	return f, ok
}

func (c *cache) put(key string, f fetched) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pages[key] = f
}

// refetch fetches the planned pages from Keys[from:] in plan order, at
// most a window at a time, until the budget refuses one; it returns how
// far it got.
func (c *crawler) refetch(ctx context.Context, from int) int {
	keys := c.cfg.Revisit.Keys
	sem := make(chan struct{}, c.window())
	var wg sync.WaitGroup
	i := from
	for ; i < len(keys) && !c.budget.spent() && ctx.Err() == nil; i++ {
		if _, ok := c.cache.get(keys[i]); ok {
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func(key string) {
			defer func() { <-sem; wg.Done() }()
			f := c.safely(key, func() fetched {
				old, replay, have := c.cfg.State.Load(key, c.digest)
				if replay {
					return replayed(old)
				}
				return c.request(ctx, key, old, have)
			})
			if f.resp.Class != ClassBudget {
				c.cache.put(key, f)
			}
		}(keys[i])
	}
	wg.Wait()
	return i
}

// carry returns a known page's stored copy as this run's page, with the
// time it was fetched.
func carry(old Stored) fetched {
	f := storedCopy(old)
	f.at, f.carried = old.FetchedAt, true
	return f
}

// again returns a crawler that assembles the graph once more from what
// this one fetched, requesting nothing.
func (c *crawler) again() *crawler {
	n := &crawler{
		cfg: c.cfg, base: c.base, hosts: c.hosts, extract: c.extract, fetcher: c.fetcher, robots: c.robots,
		digest: c.digest, cache: c.cache, budget: c.budget, reasons: c.reasons, noNew: true, wake: make(chan struct{}, 1), panics: c.panics,
		run: map[uint32]int{}, parentRun: map[string]int{},
		queue: NewQueue(), visited: map[string]uint32{}, started: map[string]chan fetched{},
		seeds: map[string]bool{}, merged: map[uint32]uint32{}, depth: map[string]int{},
		res: &Result{Complete: true, Started: c.res.Started, Judged: c.res.Judged, Robots: c.res.Robots,
			Downloaded: c.res.Downloaded},
		failures: newFailureLog(slog.New(slog.DiscardHandler), time.Hour), // the first pass logged them
	}
	n.cfg.Progress = nil
	if c.learner != nil {
		n.learner = learn.New(c.cfg.Topics, n.pageLinks)
	}
	if c.fb != nil {
		n.fb = learn.NewFeedback(c.cfg.Topics, c.cfg.FeedbackTerms, c.cfg.FeedbackWeight)
	}
	if c.mem != nil {
		n.mem = &memory{known: c.mem.known, plan: c.mem.plan, threshold: c.mem.threshold, budget: c.mem.budget, queued: map[string]float64{}}
		n.res.AdmittedBy = map[string]int{}
	}
	return n
}

// reason says why the page was fetched or not.
func (c *crawler) reason(key string, f fetched) string {
	switch {
	case f.carried:
		return ReasonCarried
	case f.resp.Class == ClassBudget:
		return ReasonBudget
	case !f.known:
		return ReasonNew
	}
	if r, ok := c.reasons[key]; ok {
		return r
	}
	return ReasonAll
}

package crawl

import "cmp"

// Memory: what a job's earlier nights learned about its topic, used by
// best-first admission (DESIGN.md, "Memory"). A known page is one the
// crawl state holds a stored copy of, made under the same topic and
// extraction settings (the digest), so its relevance was judged against
// this topic. Discovery admission never uses memory.

// Memory is the optional part of a State that remembers judged pages.
type Memory interface {
	// Memory returns the pages judged under digest, as they stood when
	// this run began: a run that resumes another gets the memory the
	// other started from, so resuming gives the same graph.
	Memory(digest string, threshold float64) (map[string]Known, error)
}

// LinkModel is the optional part of a State that keeps the learned
// strategy's link model between nights, by topic digest: a best-first
// crawl starts from the model the last complete night ended with.
type LinkModel interface {
	LinkModel(digest string) ([]byte, error) // nil: none yet
	SaveLinkModel(digest string, model []byte) error
}

// Vertices is the optional part of a State that keeps the vertices of
// the last complete night, by topic digest: the graph the next night
// holds still (plan.go).
type Vertices interface {
	// SaveVertices keeps a complete night's vertices, each with whether
	// the night admitted it by exploring (true) or from its plan.
	SaveVertices(digest string, vertices map[string]bool) error
}

// Known is a page an earlier night judged.
type Known struct {
	Relevance float64  `json:"r"`
	Relevant  []string `json:"l,omitempty"` // its links to known relevant pages
	// Vertex says it was a vertex of the last complete night; Explored,
	// that the night admitted it by exploring.
	Vertex   bool `json:"v,omitempty"`
	Explored bool `json:"x,omitempty"`
	// Gone says its last answer was 404 or 410: a plan never keeps it.
	Gone bool `json:"g,omitempty"`
	// Alias says it is one of an article's titles that memory knows under
	// another, which stands for the article (the last night's vertex,
	// else the article's own title): a plan never keeps it, since a night
	// would fetch it only to fold it into the article.
	Alias bool `json:"a,omitempty"`
	// Out are, for a vertex, its links to the night's other vertices
	// and to known relevant pages: the paths the next night can keep.
	Out []string `json:"o,omitempty"`
}

// Memory priorities sit above every strategy's weight (all in [0,1]): a
// known relevant page first (by relevance), then a bridge (a known
// irrelevant page whose links lead to known relevant ones, by the best
// of them), then everything else as the strategy weighs it, but a known
// irrelevant page that leads to no known relevant one at a fraction of
// its weight: the night is better spent on pages never judged.
const (
	relevantBoost   = 2
	bridgeBoost     = 1
	knownIrrelevant = 0.25
)

// Admission sources, counted in Result.AdmittedBy.
const (
	FromMemory      = "memory"      // ranked by what earlier nights judged
	FromModel       = "model"       // ranked by the strategy (the learned model), a page fetched before
	FromExploration = "exploration" // a page never fetched before, ranked by the strategy
)

// memory is a crawl's use of its Memory.
type memory struct {
	known     map[string]Known
	plan      *plan // nil: no last night to hold still (plan.go)
	threshold float64
	budget    int                // admissions memory may rank: the plan's pages, or without one (1 - new_share) of max_pages
	queued    map[string]float64 // keys queued at a memory priority: the strategy's priority of each
	admitted  int
	from      map[uint32]string // each admitted vertex's source, for unadmit
}

// newMemory returns the crawl's memory, or nil when it has none to use.
func newMemory(cfg Config, st State, digest string, seeds []string) (*memory, error) {
	m, ok := st.(Memory)
	if !ok || cfg.Admission != AdmitBestFirst || cfg.Oracle != nil {
		return nil, nil
	}
	known, err := m.Memory(digest, cfg.RelevanceThreshold)
	if err != nil {
		return nil, err
	}
	mem := &memory{known: known, threshold: cfg.RelevanceThreshold, queued: map[string]float64{}, from: map[uint32]string{},
		budget: int(float64(cfg.MaxPages) * (1 - cfg.ExploreShare))}
	if mem.plan = makePlan(known, seeds, cfg.MaxPages, cfg.ExploreShare, cfg.RelevanceThreshold, cfg.judgesBeyond()); mem.plan != nil {
		mem.budget = len(mem.plan.keep)
	}
	return mem, nil
}

// priority returns the memory priority of a page not yet a vertex whose
// strategy weight is w: ok when memory ranks it (boosted), else the
// weight to use.
func (m *memory) priority(key string, w float64, visited map[string]uint32) (p float64, ok bool) {
	if m == nil {
		return w, false
	}
	spent := m.admitted >= m.budget
	if m.plan != nil {
		return m.planned(key, w, spent)
	}
	k, known := m.known[key]
	if !known {
		return w, false
	}
	if k.Relevance >= m.threshold {
		if spent {
			return w, false
		}
		return relevantBoost + k.Relevance, true
	}
	best := 0.0
	for _, t := range k.Relevant {
		if _, done := visited[t]; !done {
			best = max(best, m.known[t].Relevance)
		}
	}
	switch {
	case best == 0: // a dead end, whether or not memory's share is spent
		return w * knownIrrelevant, false
	case spent:
		return w, false
	}
	return bridgeBoost + best/2, true
}

// planned is priority under a plan: a planned page at planBoost plus its
// value while memory's share lasts, a known page judged not relevant or
// an article's other title (Alias), left out of the plan, at a fraction
// of its weight (exploring is better spent on pages never judged), any
// other page at its weight.
func (m *memory) planned(key string, w float64, spent bool) (float64, bool) {
	if v, ok := m.plan.keep[key]; ok && !spent {
		return planBoost + v/3, true
	}
	if k, ok := m.known[key]; ok && (k.Relevance < m.threshold || k.Alias) {
		return w * knownIrrelevant, false
	}
	return w, false
}

// admittedFrom counts vertex uid (key) by where its priority came from,
// and once memory's share is spent, gives the pages still queued at a
// memory priority their plain one: the rest of the night explores.
func (c *crawler) admittedFrom(key string, uid uint32) {
	m := c.mem
	from := FromExploration
	switch _, plain := m.queued[key]; {
	case plain && m.admitted < m.budget:
		m.admitted++
		delete(m.queued, key)
		from = FromMemory
		if m.admitted == m.budget {
			for k, p := range m.queued {
				c.queue.Reweigh(k, p)
			}
			clear(m.queued)
		}
	case hasKey(m.known, key):
		from = FromModel
	}
	c.res.AdmittedBy[from]++
	m.from[uid] = from
}

// unadmit takes back the count of vertex uid, folded into another vertex
// (canonicalize): AdmittedBy counts the graph's vertices, so a redirect
// title fetched beside its article counts once. Memory's share stays
// spent, as the request was.
func (c *crawler) unadmit(uid uint32) {
	if c.mem == nil {
		return
	}
	if from, ok := c.mem.from[uid]; ok {
		c.res.AdmittedBy[from]--
		delete(c.mem.from, uid)
	}
}

func hasKey(m map[string]Known, key string) bool { _, ok := m[key]; return ok }

// remembered says whether key is queued at a memory priority, which the
// learned model's rescoring leaves alone.
func (c *crawler) remembered(key string) bool {
	if c.mem == nil {
		return false
	}
	_, ok := c.mem.queued[key]
	return ok
}

// warmStart starts the learned model from the one the last complete
// night kept (best-first admission: discovery admission's graphs are the
// reference, untouched).
func (c *crawler) warmStart() error {
	lm, ok := c.cfg.State.(LinkModel)
	if !ok || c.learner == nil || c.cfg.Admission != AdmitBestFirst {
		return nil
	}
	b, err := lm.LinkModel(c.digest)
	if err != nil || b == nil {
		return err
	}
	if err := c.learner.Restore(b); err != nil {
		return err
	}
	c.warm = true
	return nil
}

// keepVertices keeps a complete best-first night's vertices for the
// next night's plan, each marked explored unless this night's plan had it.
func (c *crawler) keepVertices() error {
	vs, ok := c.cfg.State.(Vertices)
	if !ok || c.mem == nil || !c.res.Complete {
		return nil
	}
	v := make(map[string]bool, len(c.res.Pages))
	for _, p := range c.res.Pages {
		key := cmp.Or(p.Discovered, p.Key) // the title its links name, which the store keeps it under
		planned := false
		if c.mem.plan != nil {
			_, planned = c.mem.plan.keep[key]
		}
		v[key] = !planned
	}
	return vs.SaveVertices(c.digest, v)
}

// keepModel keeps the learned model for the next night, after a
// complete crawl.
func (c *crawler) keepModel() error {
	lm, ok := c.cfg.State.(LinkModel)
	if !ok || c.learner == nil || c.cfg.Admission != AdmitBestFirst || !c.res.Complete {
		return nil
	}
	b, err := c.learner.Model()
	if err != nil {
		return err
	}
	return lm.SaveLinkModel(c.digest, b)
}

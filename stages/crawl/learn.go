package crawl

import (
	"math"
	"slices"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

// The learned strategy (ACHE's online link classifier, Chakrabarti's
// apprentice): a logistic regression, written plainly (a few dozen lines;
// no Go library does online sparse logistic regression better), trained
// during the crawl on the crawl's own judgments by AdaGrad (each weight's
// step shrinks with the gradients it has had: a term seen once moves as
// far as the first label says, one seen on every page settles). Each
// fetched page labels the links that led to it, with a soft label: how far
// its relevance is from the threshold (see target). A link's features are
// its anchor's terms, the terms of the 20 words around it, its title's
// terms and its section heading's terms (hashed by package page into
// page.FeatureSpace weights), the similarity strategy's weight of the
// link, the parent page's relevance, its depth and its judged neighbours
// on the parent (siblings.go). The similarity weight enters with a prior
// weight, so the untrained model orders links as similarity does; until
// the model has minLabels labels, minRelevant of them relevant, the crawl
// uses the similarity weight itself. Training happens in the crawl loop,
// in the loop's order, so a crawl is deterministic at any concurrency.
const (
	// The model takes over from the similarity weight once it has
	// minLabels labels, minRelevant of them relevant: a model that has
	// seen only irrelevant pages knows what to avoid, not what to seek.
	minLabels   = 10
	minRelevant = 5
	// learnRate is AdaGrad's base step. 0.1–1 all did better than plain
	// stochastic gradient at 0.2 (docs/learned-trials.md); 0.3 did best on
	// the eight topics of the table and on eight held out.
	learnRate = 0.3
	// rescoreBudget frontier links are scored again after each label,
	// round-robin: the frontier follows the model without a full re-sort
	// per page. A queued page is also scored again as each further link
	// to it is found.
	rescoreBudget = 64
	// parentLabels bounds the links (from different parents) kept per
	// frontier page as its labels' features.
	parentLabels = 4
	priorSim     = 4.0 // the untrained model's weight of the similarity weight
	priorBias    = -2.0
	// softWidth is the soft label's scale, in units of the threshold: a
	// page at half the threshold above it teaches 0.73, one at the
	// threshold 0.5, one with no relevance at all 0.12.
	softWidth = 0.5
)

// target is the label a page of the given relevance teaches: the logistic
// of its distance from the threshold, over softWidth·threshold. A page
// just under the threshold is nearly as good a lesson as one just over
// it, and no page is taught as certain, which keeps a few early pages from
// deciding the weights of the words they hold. Without a threshold every
// page is relevant, and teaches 1.
func target(relevance, threshold float64) float64 {
	if threshold <= 0 {
		return 1
	}
	return 1 / (1 + math.Exp(-(relevance-threshold)/(softWidth*threshold)))
}

// linkHashes are a link's hashed features (page.Document's Features and
// Sections): its terms', which relevance feedback's cosine also reads,
// and its section heading's, which only the learned model reads.
type linkHashes struct{ terms, section []uint32 }

// example is one link as the model sees it.
type example struct {
	linkHashes
	sim       float64 // the similarity strategy's weight
	parentRel float64
	depth     int
	over      int // irrelevant pages beyond max_tunnel on the path to the link
	// parent is the page the link is on, idx its place among the page's
	// links; sibRel and sibIrr are the shares of its judged neighbours
	// there (siblings.shares), filled in by the learner as it scores.
	parent         uint32
	idx            int
	sibRel, sibIrr float64
}

// norm scales the hashed features' weights: one over the root of their
// number.
func (e example) norm() float64 {
	return 1 / math.Sqrt(float64(max(len(e.terms)+len(e.section), 1)))
}

// model is the online logistic regression. Each weight has the sum of
// its squared gradients beside it, for AdaGrad.
type model struct {
	w, g2        []float64 // hashed features
	bias, wSim   float64
	wRel, wDepth float64
	wSibs        [2]float64 // of sibRel and sibIrr
	dense        [6]float64 // squared gradients of bias, wSim, wRel, wDepth, wSibs
	labels       int
	relevant     int // labels that were relevant
}

func newModel() *model {
	return &model{w: make([]float64, page.FeatureSpace), g2: make([]float64, page.FeatureSpace), bias: priorBias, wSim: priorSim}
}

func (m *model) z(e example) float64 {
	z := m.bias + m.wSim*e.sim + m.wRel*e.parentRel + m.wDepth*math.Log1p(float64(e.depth)) +
		m.wSibs[0]*e.sibRel + m.wSibs[1]*e.sibIrr
	norm := e.norm()
	for _, hashes := range [...][]uint32{e.terms, e.section} {
		for _, f := range hashes {
			z += m.w[f] * norm
		}
	}
	return z
}

// trained reports whether the model has the labels to take over.
func (m *model) trained() bool { return m.labels >= minLabels && m.relevant >= minRelevant }

// score is the link's priority: its similarity weight until the model is
// trained, then the model's probability that it leads to a relevant page.
func (m *model) score(e example) float64 {
	if !m.trained() {
		return e.sim
	}
	return 1 / (1 + math.Exp(-m.z(e)))
}

// learn takes one label, y in [0, 1] (target's), of a page judged
// relevant or not: an AdaGrad step on the log loss.
func (m *model) learn(e example, y float64, relevant bool) {
	r := y - 1/(1+math.Exp(-m.z(e)))
	step(&m.bias, &m.dense[0], r)
	step(&m.wSim, &m.dense[1], r*e.sim)
	step(&m.wRel, &m.dense[2], r*e.parentRel)
	step(&m.wDepth, &m.dense[3], r*math.Log1p(float64(e.depth)))
	step(&m.wSibs[0], &m.dense[4], r*e.sibRel)
	step(&m.wSibs[1], &m.dense[5], r*e.sibIrr)
	norm := e.norm()
	for _, hashes := range [...][]uint32{e.terms, e.section} {
		for _, f := range hashes {
			step(&m.w[f], &m.g2[f], r*norm)
		}
	}
	m.labels++
	if relevant {
		m.relevant++
	}
}

// step moves weight w along gradient g (of the log-likelihood), by
// learnRate over the root of the squared gradients so far (g2), plus one
// so that the first step is at most learnRate·g.
func step(w, g2 *float64, g float64) {
	*g2 += g * g
	*w += learnRate * g / (1 + math.Sqrt(*g2))
}

// learner is the learned strategy's state in a crawl.
type learner struct {
	m       *model
	sibs    siblings
	pending map[string][]example // frontier page -> the links that led to it
	order   []string             // frontier pages as they came, for re-scoring
	cursor  int
}

// newLearner returns a learner; links gives a fetched page's links in
// document order (nil: no sibling features).
func newLearner(links func(parent uint32) []string) *learner {
	return &learner{m: newModel(), sibs: siblings{links: links, judged: map[string]bool{}}, pending: map[string][]example{}}
}

// score is the model's score of e, its sibling features as they are now.
func (l *learner) score(e example) float64 { return l.m.score(l.withSiblings(e)) }

func (l *learner) withSiblings(e example) example {
	e.sibRel, e.sibIrr = l.sibs.shares(e.parent, e.idx)
	return e
}

// found notes a link to a frontier page.
func (l *learner) found(key string, e example) {
	if _, ok := l.pending[key]; !ok {
		l.order = append(l.order, key)
	}
	if len(l.pending[key]) < parentLabels {
		l.pending[key] = append(l.pending[key], e)
	}
}

// judged trains on a fetched page's label (relevant or not; y, target's)
// and returns the frontier pages to score again once the model is
// trained: rescoreBudget of them, round-robin, and the page's neighbours
// on the pages that linked to it, whose sibling features it changed.
func (l *learner) judged(key string, y float64, relevant bool) []string {
	var due []string
	for _, e := range l.pending[key] {
		l.m.learn(l.withSiblings(e), y, relevant)
		for _, k := range l.sibs.around(e.parent, e.idx) {
			if l.pending[k] != nil {
				due = append(due, k)
			}
		}
	}
	l.sibs.judged[key] = relevant
	delete(l.pending, key)
	if !l.m.trained() {
		return nil
	}
	for n := 0; n < rescoreBudget && len(l.order) > 0; n++ {
		if l.cursor >= len(l.order) {
			l.cursor = 0
			l.order = slices.DeleteFunc(l.order, func(k string) bool { return l.pending[k] == nil })
			if len(l.order) == 0 {
				break
			}
		}
		due = append(due, l.order[l.cursor])
		l.cursor++
	}
	return due
}

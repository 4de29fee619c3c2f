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
// fetched page labels the links that led to it, relevant or not. A link's
// features are its anchor's terms, the terms of the 20 words around it,
// its title's terms and its section heading's terms (hashed by package
// page into page.FeatureSpace weights), the similarity strategy's weight
// of the link, the parent page's relevance and its depth. The similarity weight enters
// with a prior weight, so the untrained model orders links as similarity
// does; until the model has minLabels labels, minRelevant of them
// relevant, the crawl uses the similarity weight itself. Training happens
// in the crawl loop, in the loop's order, so a crawl is deterministic at
// any concurrency.
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
)

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
	dense        [4]float64 // squared gradients of bias, wSim, wRel, wDepth
	labels       int
	relevant     int // labels that were relevant
}

func newModel() *model {
	return &model{w: make([]float64, page.FeatureSpace), g2: make([]float64, page.FeatureSpace), bias: priorBias, wSim: priorSim}
}

func (m *model) z(e example) float64 {
	z := m.bias + m.wSim*e.sim + m.wRel*e.parentRel + m.wDepth*math.Log1p(float64(e.depth))
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

// learn takes one label: an AdaGrad step on the log loss.
func (m *model) learn(e example, relevant bool) {
	y := 0.0
	if relevant {
		y = 1
	}
	r := y - 1/(1+math.Exp(-m.z(e)))
	step(&m.bias, &m.dense[0], r)
	step(&m.wSim, &m.dense[1], r*e.sim)
	step(&m.wRel, &m.dense[2], r*e.parentRel)
	step(&m.wDepth, &m.dense[3], r*math.Log1p(float64(e.depth)))
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
	pending map[string][]example // frontier page -> the links that led to it
	order   []string             // frontier pages as they came, for re-scoring
	cursor  int
}

func newLearner() *learner { return &learner{m: newModel(), pending: map[string][]example{}} }

// found notes a link to a frontier page.
func (l *learner) found(key string, e example) {
	if _, ok := l.pending[key]; !ok {
		l.order = append(l.order, key)
	}
	if len(l.pending[key]) < parentLabels {
		l.pending[key] = append(l.pending[key], e)
	}
}

// judged trains on a fetched page's label and returns the frontier pages
// to score again: rescoreBudget of them, round-robin, once the model is
// trained.
func (l *learner) judged(key string, relevant bool) []string {
	for _, e := range l.pending[key] {
		l.m.learn(e, relevant)
	}
	delete(l.pending, key)
	if !l.m.trained() {
		return nil
	}
	var due []string
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

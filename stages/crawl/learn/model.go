// Package learn is what a crawl learns of its topic as it goes: the
// learned strategy's online link classifier (ACHE's, Chakrabarti's
// apprentice) and relevance feedback (Rocchio).
//
// Each fetched page labels the links that led to it, with a soft label:
// how far its relevance is from the threshold (Target); so does a page
// the crawl's memory judged on an earlier night and this night will not
// fetch (the crawl's teach). A link's features
// are its anchor's terms, the terms of the 20 words around it, its
// title's terms and its section heading's terms (hashed by package page
// into page.FeatureSpace weights), the similarity strategy's weight of
// the link, the parent page's relevance, its depth, its judged
// neighbours on the parent (siblings.go) and how many of the topic's
// terms its anchor, context and title hold. Relevance feedback
// (feedback.go) moves the topic itself.
//
// Nothing here fetches or queues: the crawl calls in, in its loop's
// order, so a crawl is deterministic at any concurrency. The Learner says
// which frontier pages to score again; the crawl re-weighs them.
package learn

import (
	"math"

	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/text"
)

// The model: a logistic regression, written plainly (a few dozen lines;
// no Go library does online sparse logistic regression better), trained
// by AdaGrad (each weight's step shrinks with the gradients it has had: a
// term seen once moves as far as the first label says, one seen on every
// page settles). The similarity weight enters with a prior weight, so the
// untrained model orders links as similarity does; until the model has
// minLabels labels, minRelevant of them relevant, the crawl uses the
// similarity weight itself.
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
	// to it is found. 256 did better only with a prior trained under 64,
	// not with its own (docs/learned-trials.md).
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

// Target is the label a page of the given relevance teaches: the logistic
// of its distance from the threshold, over softWidth·threshold. A page
// just under the threshold is nearly as good a lesson as one just over
// it, and no page is taught as certain, which keeps a few early pages from
// deciding the weights of the words they hold. Without a threshold every
// page is relevant, and teaches 1.
func Target(relevance, threshold float64) float64 {
	if threshold <= 0 {
		return 1
	}
	return 1 / (1 + math.Exp(-(relevance-threshold)/(softWidth*threshold)))
}

// Example is one link as the model sees it.
type Example struct {
	// Terms and Section are the link's hashed features (page.Document's
	// Features and Sections): its terms', which relevance feedback's
	// cosine also reads, and its section heading's, which only the model
	// reads.
	Terms, Section []uint32
	Sim            float64 // the similarity strategy's weight
	ParentRel      float64 // the parent page's relevance
	Depth          int     // the parent page's depth
	// Parent is the page the link is on, Idx its place among the page's
	// links, for the sibling features.
	Parent uint32
	Idx    int
	// Over is carried for the crawl, which lowers a link's priority by
	// it: irrelevant pages beyond max_tunnel on the path to the link.
	// The model does not read it.
	Over int
	// sibRel and sibIrr are the shares of the link's judged neighbours
	// (siblings.shares), filled in by the Learner as it scores.
	sibRel, sibIrr float64
}

// norm scales the hashed features' weights: one over the root of their
// number.
func (e Example) norm() float64 {
	return 1 / math.Sqrt(float64(max(len(e.Terms)+len(e.Section), 1)))
}

// The dense features' places in model.d and snapshot.Dense: the bias
// (a constant 1), the similarity weight, the parent's relevance, log(1 +
// depth), the sibling shares and the topic-term features.
const (
	dBias = iota
	dSim
	dRel
	dDepth
	dSibRel
	dSibIrr
	dAnchor
	dContext
	dTitle
	denseN
)

// model is the online logistic regression. Each weight has the sum of
// its squared gradients beside it, for AdaGrad.
type model struct {
	w, g2    []float64       // hashed features
	d, dg    [denseN]float64 // dense features
	topic    map[uint32]int  // hashed topic term -> 0 anchor, 1 context, 2 title
	labels   int
	relevant int // labels that were relevant
}

func newModel(topic map[uint32]int) *model {
	m := &model{w: make([]float64, page.FeatureSpace), g2: make([]float64, page.FeatureSpace), topic: topic}
	m.d[dBias], m.d[dSim] = priorBias, priorSim
	return m
}

// dense returns the link's dense features.
func (m *model) dense(e Example) [denseN]float64 {
	t := m.topicTerms(e)
	return [denseN]float64{dBias: 1, dSim: e.Sim, dRel: e.ParentRel, dDepth: math.Log1p(float64(e.Depth)),
		dSibRel: e.sibRel, dSibIrr: e.sibIrr, dAnchor: t[0], dContext: t[1], dTitle: t[2]}
}

// topicFeatures maps the topic words' terms, hashed as anchor, context
// and title terms, to 0, 1 and 2: the topic-term features' places.
func topicFeatures(words []string) map[uint32]int {
	f := map[uint32]int{}
	for _, w := range words {
		for _, t := range text.TermList(w) {
			for k, prefix := range [...]string{"a|", "c|", "t|"} {
				f[page.HashFeature(prefix, t)] = k
			}
		}
	}
	return f
}

func (m *model) z(e Example) float64 { return m.zOf(e, m.dense(e)) }

// zOf is z with the link's dense features x. The sum runs in a fixed
// order (the first six dense features, the hashed ones, the topic terms)
// so that a crawl and a prior come out the same to the bit.
func (m *model) zOf(e Example, x [denseN]float64) float64 {
	var z float64
	for i := range dAnchor {
		z += m.d[i] * x[i]
	}
	norm := e.norm()
	for _, hashes := range [...][]uint32{e.Terms, e.Section} {
		for _, f := range hashes {
			z += m.w[f] * norm
		}
	}
	for i := dAnchor; i < denseN; i++ {
		z += m.d[i] * x[i]
	}
	return z
}

// trained reports whether the model has the labels to take over.
func (m *model) trained() bool { return m.labels >= minLabels && m.relevant >= minRelevant }

// score is the link's priority: its similarity weight until the model is
// trained, then the model's probability that it leads to a relevant page.
func (m *model) score(e Example) float64 {
	if !m.trained() {
		return e.Sim
	}
	return 1 / (1 + math.Exp(-m.z(e)))
}

// learn takes one label, y in [0, 1] (target's), of a page judged
// relevant or not: an AdaGrad step on the log loss.
func (m *model) learn(e Example, y float64, relevant bool) {
	x := m.dense(e)
	r := y - 1/(1+math.Exp(-m.zOf(e, x)))
	for i := range x {
		step(&m.d[i], &m.dg[i], r*x[i])
	}
	norm := e.norm()
	for _, hashes := range [...][]uint32{e.Terms, e.Section} {
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

// topicTerms returns the topic-term features: log(1 + the number of the
// topic's terms) in the link's anchor, its context and its title. Their
// weights do not depend on the topic, so a prior can carry them.
func (m *model) topicTerms(e Example) [3]float64 {
	var n [3]float64
	for _, f := range e.Terms {
		if k, ok := m.topic[f]; ok {
			n[k]++
		}
	}
	for k := range n {
		n[k] = math.Log1p(n[k])
	}
	return n
}

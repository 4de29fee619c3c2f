package learn

import "slices"

// Learner is the learned strategy's state in a crawl: the model, the
// sibling features' data, and the links found to each frontier page.
type Learner struct {
	m       *model
	sibs    siblings
	pending map[string][]Example // frontier page -> the links that led to it
	order   []string             // frontier pages as they came, for re-scoring
	cursor  int
}

// New returns the Learner of a topic (its words, for the topic-term
// features); links gives a fetched page's links in document order (nil:
// no sibling features).
func New(topic []string, links func(parent uint32) []string) *Learner {
	return &Learner{m: newModel(topicFeatures(topic)), sibs: siblings{links: links, judged: map[string]bool{}}, pending: map[string][]Example{}}
}

// Score is the link's priority (the model's score) with its sibling
// features as they are now.
func (l *Learner) Score(e Example) float64 { return l.m.score(l.withSiblings(e)) }

func (l *Learner) withSiblings(e Example) Example {
	e.sibRel, e.sibIrr = l.sibs.shares(e.Parent, e.Idx)
	return e
}

// Found notes a link to a frontier page.
func (l *Learner) Found(key string, e Example) {
	if _, ok := l.pending[key]; !ok {
		l.order = append(l.order, key)
	}
	if len(l.pending[key]) < parentLabels {
		l.pending[key] = append(l.pending[key], e)
	}
}

// Judged trains on a fetched page's label (relevant or not; y, Target's)
// and returns the frontier pages to score again once the model is
// trained: rescoreBudget of them, round-robin, and the page's neighbours
// on the pages that linked to it, whose sibling features it changed.
func (l *Learner) Judged(key string, y float64, relevant bool) []string {
	var due []string
	for _, e := range l.pending[key] {
		l.m.learn(l.withSiblings(e), y, relevant)
		for _, k := range l.sibs.around(e.Parent, e.Idx) {
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

// Forget drops the links found to a page that was fetched but could not
// be judged: they teach nothing.
func (l *Learner) Forget(key string) { delete(l.pending, key) }

// Links returns the links found so far to a frontier page (at most
// parentLabels of them), nil once it is judged.
func (l *Learner) Links(key string) []Example { return l.pending[key] }

// Trained reports whether the model has the labels to take over from the
// similarity weight.
func (l *Learner) Trained() bool { return l.m.trained() }

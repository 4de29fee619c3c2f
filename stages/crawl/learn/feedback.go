package learn

import (
	"cmp"
	"math"

	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/text"
)

// Relevance feedback (Rocchio): once FeedbackAfter pages have been judged
// relevant, the topic gains the terms those pages share most, and every
// link's priority moves towards how much its anchor, context and title
// hold of them. What keeps the topic on course:
//   - the topic's own words are never among the terms added, and never
//     lose weight: relevance is still judged by them alone;
//   - at most FeedbackTerms terms are added, each weighed by the mean of
//     its share in the relevant pages;
//   - a link's priority is (1-FeedbackWeight) of its strategy's weight and
//     FeedbackWeight of its feedback score, so a link the topic words
//     favour is never buried by the feedback alone.
//
// It runs in the crawl loop, in the loop's order: deterministic at any
// concurrency.
const (
	FeedbackAfter  = 10
	FeedbackTerms  = 20  // default of crawl.Config.FeedbackTerms
	FeedbackWeight = 0.3 // default of crawl.Config.FeedbackWeight
)

// Feedback is the crawl's Rocchio state.
type Feedback struct {
	terms    int                // at most this many added
	weight   float64            // of the feedback score in a link's priority
	topic    map[string]bool    // the topic's own terms
	sum      map[string]float64 // shares summed over relevant pages
	relevant int
	weights  map[uint32]float64 // hashed feature -> weight, once active
	norm     float64
	Added    []string // the terms added, strongest first
}

// NewFeedback returns the Rocchio state of a topic: at most terms terms
// added (0: FeedbackTerms), of weight in a link's priority (0:
// FeedbackWeight).
func NewFeedback(topicWords []string, terms int, weight float64) *Feedback {
	f := &Feedback{terms: cmp.Or(terms, FeedbackTerms), weight: cmp.Or(weight, FeedbackWeight),
		topic: map[string]bool{}, sum: map[string]float64{}}
	for _, w := range topicWords {
		for _, t := range text.TermList(w) {
			f.topic[t] = true
		}
	}
	return f
}

// Judged takes in a relevant page's terms.
func (f *Feedback) Judged(terms []page.TermShare) {
	f.relevant++
	for _, t := range terms {
		if !f.topic[t.Term] {
			f.sum[t.Term] += t.Share
		}
	}
	if f.relevant < FeedbackAfter {
		return
	}
	all := make([]page.TermShare, 0, len(f.sum))
	for t, s := range f.sum {
		all = append(all, page.TermShare{Term: t, Share: s})
	}
	page.SortByShare(all)
	all = all[:min(len(all), f.terms)]
	f.weights, f.norm, f.Added = map[uint32]float64{}, 0, f.Added[:0]
	for _, t := range all {
		w := t.Share / float64(f.relevant)
		for _, prefix := range []string{"a|", "c|", "t|"} {
			f.weights[page.HashFeature(prefix, t.Term)] = w
		}
		f.norm += w * w
		f.Added = append(f.Added, t.Term)
	}
	f.norm = math.Sqrt(f.norm)
}

// score is the cosine of a link's features (binary) with the added terms.
func (f *Feedback) score(features []uint32) float64 {
	if f.weights == nil || len(features) == 0 || f.norm == 0 {
		return 0
	}
	s := 0.0
	for _, x := range features {
		s += f.weights[x]
	}
	return min(s/(f.norm*math.Sqrt(float64(len(features)))), 1)
}

// Blend moves a link's priority towards its feedback score.
func (f *Feedback) Blend(w float64, features []uint32) float64 {
	if f.weights == nil {
		return w
	}
	return (1-f.weight)*w + f.weight*f.score(features)
}

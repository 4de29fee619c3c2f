package page

import (
	"fmt"
	"slices"
	"strings"

	"github.com/topicrank/topicrank/stages/text"
)

// Strategy gives the weight of a discovered link (DESIGN.md,
// "Strategies"). Every weight is in [0,1].
type Strategy int

const (
	// StrategyWeighted is DESIGN.md's heuristic: 1 for a link whose
	// anchor or URL names a topic, else 1/(d+2) for the word distance d to
	// the nearest topic occurrence (0 beyond 20 words).
	StrategyWeighted Strategy = iota
	// StrategyBFS gives every link weight 0: a plain breadth-first crawl.
	StrategyBFS
	// StrategyWordRank gives 1 to a link whose anchor contains one of the
	// page's most frequent 10% terms (stemmed, stop words left out), else 0.
	StrategyWordRank
	// StrategySimilarity gives the mean of the page's relevance and the
	// cosine similarity to the topic of the link's anchor text and the
	// contextWords words on either side of it.
	StrategySimilarity
	// StrategyLearned scores links with a classifier trained during the
	// crawl on its own judgments (package crawl/learn), falling back to
	// similarity until it has enough labels.
	StrategyLearned
)

// Strategies are the strategies' names, in the order of their constants.
var Strategies = []string{"weighted", "bfs", "word-rank", "similarity", "learned"}

// ParseStrategy returns the strategy a jobs.yaml name stands for.
func ParseStrategy(name string) (Strategy, error) {
	if i := slices.Index(Strategies, name); i >= 0 {
		return Strategy(i), nil
	}
	return 0, fmt.Errorf("unknown strategy %q: want one of %s", name, strings.Join(Strategies, ", "))
}

func (s Strategy) String() string { return Strategies[s] }

const (
	// wordRankFraction is the share of a page's distinct terms, most
	// frequent first, that make a link's anchor count for word-rank.
	wordRankFraction = 0.1
	// contextWords is how many words before and after a link (20 in all)
	// the similarity strategy reads with its anchor.
	contextWords = 10
)

// weigh gives each link found by x its weight under the strategy, its
// term features for the learned strategy and relevance feedback, and its
// section's features for the learned strategy. page is the article's term
// vector and relevance its similarity to the topic.
func (e Extractor) weigh(x *extractor, page text.Vector, relevance float64) (links []Link, features, sections [][]uint32) {
	links = make([]Link, len(x.links))
	if e.Strategy == StrategyLearned || e.Feedback {
		features = make([][]uint32, len(x.links))
	}
	if e.Strategy == StrategyLearned {
		sections = make([][]uint32, len(x.links))
	}
	var top map[string]bool
	if e.Strategy == StrategyWordRank {
		top = map[string]bool{}
		for _, t := range page.Top(wordRankFraction) {
			top[t] = true
		}
	}
	var near nearest
	if (e.Strategy == StrategyWeighted || e.Strategy == StrategyLearned) && !x.topics.Empty() {
		near = x.nearest()
	}
	var terms [][]string
	similar := e.Strategy == StrategySimilarity || e.Strategy == StrategyLearned
	if (similar || e.Feedback) && !e.Topic.Empty() {
		terms = wordTerms(x.words)
	}
	var heading string // of the section whose features are section
	var section []uint32
	for i, o := range x.links {
		var w float64
		switch e.Strategy {
		case StrategyWeighted:
			w = x.weight(o, &near)
		case StrategyWordRank:
			w = anchorIn(o.anchor, top)
		case StrategySimilarity, StrategyLearned:
			if terms != nil {
				ctx := text.Count(terms[max(o.pos-contextWords, 0):min(o.pos+contextWords+1, len(terms))]...)
				w = (relevance + e.Topic.Similarity(ctx)) / 2
			}
			if e.Strategy == StrategyLearned && !x.topics.Empty() {
				// The learned model's similarity feature is the better of
				// the two strategies' weights: topic words written near a
				// link ("court", "law" beside Federal Bureau of
				// Investigation) say what its anchor does not.
				w = max(w, x.weight(o, &near))
				if x.nav.listed[o.key] {
					w = max(w, navboxWeight)
				}
			}
		}
		links[i] = Link{Key: o.key, Weight: w}
		if features != nil {
			features[i] = linkFeatures(o, terms)
		}
		if sections != nil {
			if section == nil || o.section != heading { // links come section by section: they share it
				heading, section = o.section, sectionFeatures(o.section)
			}
			sections[i] = section
		}
	}
	return links, features, sections
}

// wordTerms returns the terms of each recorded word (an anchor counts as
// one word and may hold several terms; a stop word holds none).
func wordTerms(words []string) [][]string {
	stems := map[string][]string{}
	terms := make([][]string, len(words))
	for i, w := range words {
		t, ok := stems[w]
		if !ok {
			t = text.TermList(w)
			stems[w] = t
		}
		terms[i] = t
	}
	return terms
}

// anchorIn is 1 when one of the anchor's terms is in top, else 0.
func anchorIn(anchor string, top map[string]bool) float64 {
	for t := range text.Terms(anchor) {
		if top[t] {
			return 1
		}
	}
	return 0
}

// nearest holds, for each word position, the closest topic occurrence
// that ends before it and the closest that starts after it (-1: none).
// Built once per page in time linear in its words, it makes weighing every
// link linear too, where comparing each link with each occurrence was
// quadratic on a page with many links and topic words.
type nearest struct{ endBefore, startAfter []int32 }

func (x *extractor) nearest() nearest {
	n := nearest{make([]int32, x.pos+1), make([]int32, x.pos+2)}
	endAt := make([]bool, x.pos+1)
	startAt := make([]bool, x.pos+1)
	for _, h := range x.hits {
		endAt[h[1]], startAt[h[0]] = true, true
	}
	last := int32(-1)
	for p := range n.endBefore {
		n.endBefore[p] = last
		if endAt[p] {
			last = int32(p)
		}
	}
	next := int32(-1)
	n.startAfter[x.pos+1] = -1
	for p := x.pos; p >= 0; p-- {
		n.startAfter[p] = next
		if startAt[p] {
			next = int32(p)
		}
	}
	return n
}

// weight is the weighted strategy's weight of a link occurrence: 1 when it
// names a topic, else 1/(d+2) for the number of words d between it and the
// nearest topic occurrence, 0 beyond maxDistance. An occurrence that spans
// the link's position is neither before nor after it.
func (x *extractor) weight(o occurrence, n *nearest) float64 {
	if x.topics.Empty() {
		return 0
	}
	if o.named {
		return 1
	}
	d := -1
	if e := n.endBefore[o.pos]; e >= 0 {
		d = o.pos - int(e) - 1
	}
	if s := n.startAfter[o.pos]; s >= 0 && (d < 0 || int(s)-o.pos-1 < d) {
		d = int(s) - o.pos - 1
	}
	if d < 0 || d > maxDistance {
		return 0
	}
	return 1 / float64(d+2)
}

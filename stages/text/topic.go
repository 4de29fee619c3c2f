package text

import "slices"

// Topic is what a job's pages are compared with: the term vector of its
// topic words and phrases plus the article text of its topic pages.
type Topic struct {
	vec      Vector
	norm     float64
	terms    map[string]struct{} // the topic words' terms
	termList []string            // the same, sorted
	words    []string            // the topic words and phrases, as given
}

// NewTopic builds a topic from topic words or phrases and texts (the
// article text of topic pages). Each topic word counts once; a text adds
// its term counts, so topic pages, when given, weigh more than the words.
func NewTopic(words []string, texts []string) *Topic {
	v := Vector{}
	terms := map[string]struct{}{}
	for _, w := range words {
		v.AddText(w)
		for _, t := range TermList(w) {
			terms[t] = struct{}{}
		}
	}
	for _, t := range texts {
		v.AddText(t)
	}
	list := make([]string, 0, len(terms))
	for t := range terms {
		list = append(list, t)
	}
	slices.Sort(list)
	return &Topic{vec: v, norm: v.Norm(), terms: terms, termList: list, words: words}
}

// Empty reports whether the topic has no terms (no topics, or only stop
// words): then nothing is relevant.
func (t *Topic) Empty() bool { return t == nil || len(t.vec) == 0 }

// Similarity returns the cosine similarity of v to the topic, in [0,1].
func (t *Topic) Similarity(v Vector) float64 {
	if t.Empty() {
		return 0
	}
	return Cosine(t.vec, v)
}

// Relevance returns how relevant a page's article is to the topic: the
// cosine similarity of its term vector, in [0,1].
func (t *Topic) Relevance(a *Article) float64 { return t.Similarity(Terms(a.Text())) }

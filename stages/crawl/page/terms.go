package page

import (
	"cmp"
	"slices"

	"github.com/topicrank/topicrank/stages/text"
)

// pageTopTerms is how many of a page's terms Document.Terms keeps: the
// terms relevance feedback may draw from.
const pageTopTerms = 30

// pageTerms returns the page's most frequent terms with their shares.
func pageTerms(v text.Vector) []TermShare {
	total := 0.0
	terms := make([]TermShare, 0, len(v))
	for t, n := range v {
		terms = append(terms, TermShare{t, n})
		total += n
	}
	SortByShare(terms)
	terms = terms[:min(len(terms), pageTopTerms)]
	for i := range terms {
		terms[i].Share /= total
	}
	return terms
}

// SortByShare orders terms by share, the largest first, then by term.
func SortByShare(terms []TermShare) { slices.SortFunc(terms, byShare) }

func byShare(a, b TermShare) int {
	if c := cmp.Compare(b.Share, a.Share); c != 0 {
		return c
	}
	return cmp.Compare(a.Term, b.Term)
}

// TermShare is a term and its share of a page's terms.
type TermShare struct {
	Term  string
	Share float64
}

package search

import (
	"math"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
)

// BM25's parameters, Lucene's defaults.
const (
	k1 = 1.2
	b  = 0.75
)

// scorer computes Okapi BM25 for the hits bleve finds. bleve's own "bm25"
// is not BM25 (it takes the square root of term frequencies and divides
// the field's vocabulary, not its length, by the document count), so
// bleve only finds and filters; the score is computed here, over each
// page's title and text as one document.
type scorer struct {
	idx    bleve.Index
	n      float64 // documents
	avgLen float64
	idf    map[string]float64
}

func newScorer(idx bleve.Index, docs uint64) (*scorer, error) {
	s := &scorer{idx: idx, n: float64(docs), idf: map[string]float64{}}
	raw, err := idx.GetInternal([]byte(totalLength))
	if err != nil {
		return nil, err
	}
	total, _ := strconv.ParseFloat(string(raw), 64)
	if docs > 0 {
		s.avgLen = total / s.n
	}
	return s, nil
}

// termIDF is Lucene's idf of an indexed term: ln(1 + (N - df + 0.5)/(df + 0.5)).
func (s *scorer) termIDF(term string) (float64, error) {
	if v, ok := s.idf[term]; ok {
		return v, nil
	}
	q := bleve.NewTermQuery(term)
	q.SetField("_all")
	res, err := s.idx.Search(bleve.NewSearchRequestOptions(q, 0, 0, false))
	if err != nil {
		return 0, err
	}
	df := float64(res.Total)
	v := math.Log(1 + (s.n-df+0.5)/(df+0.5))
	s.idf[term] = v
	return v, nil
}

// score returns the hit's BM25 over the query terms it holds (their
// occurrences in title and text, from the hit's locations) and the sum
// of the idf of the terms in its title.
func (s *scorer) score(h *search.DocumentMatch) (bm25, title float64, err error) {
	tf := map[string]int{}
	inTitle := map[string]bool{}
	for field, terms := range h.Locations {
		for term, locs := range terms {
			tf[term] += len(locs)
			if field == fieldTitle {
				inTitle[term] = true
			}
		}
	}
	length, _ := h.Fields[fieldLength].(float64)
	norm := 1 - b
	if s.avgLen > 0 {
		norm += b * length / s.avgLen
	}
	for term, f := range tf {
		idf, err := s.termIDF(term)
		if err != nil {
			return 0, 0, err
		}
		bm25 += idf * float64(f) * (k1 + 1) / (float64(f) + k1*norm)
		if inTitle[term] {
			title += idf
		}
	}
	return bm25, title, nil
}

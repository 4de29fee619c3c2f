package search

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	_ "github.com/blevesearch/bleve/v2/search/highlight/highlighter/ansi" // colour on a terminal
	_ "github.com/blevesearch/bleve/v2/search/highlight/highlighter/html" // <mark> elsewhere
	"github.com/blevesearch/bleve/v2/search/query"
)

// Options shape a search.
type Options struct {
	Top int // hits returned (default 10)
	// RankWeight w boosts by PageRank: score = text × (1 + w·ln(1 +
	// N·pagerank)), N the pages indexed, so an average page (N·pagerank =
	// 1) gains w·ln 2 and a page with no rank nothing. 0: no boost.
	RankWeight float64
	// TitleBoost adds TitleBoost × idf(t) to the text score for each
	// query term t in the title: text = bm25 + TitleBoost·Σ idf. 0: plain
	// BM25, the title counting as text only.
	TitleBoost float64
	// Highlight is how snippets mark matched words: "ansi" (colour, for a
	// terminal), "html" (<mark>), or "" for no snippets.
	Highlight string
	// Only, if not nil, keeps the search to these pages (runner search
	// -category): the query is matched within them, so every match among
	// them is a candidate, however many pages match elsewhere.
	Only []string
}

// Default weights (README, "Search").
const (
	DefaultRankWeight = 0.3
	DefaultTitleBoost = 2.0
)

// maxCandidates bounds the matches re-scored with PageRank: the best
// maxCandidates by BM25.
const maxCandidates = 10000

// Hit is one page found.
type Hit struct {
	Page     string  `json:"page"`
	Title    string  `json:"title"`
	Score    float64 `json:"score"`
	BM25     float64 `json:"bm25"`
	TitleFit float64 `json:"title_score"` // TitleBoost × Σ idf of the query terms in the title
	PageRank float64 `json:"pagerank"`
	// Snippets are fragments of the page's text around the matched words:
	// plain text (entities decoded, white space collapsed) with the html
	// style, marked with colour with the ansi style.
	Snippets []string `json:"snippets,omitempty"`
	// Marked are the html style's fragments with the matched words in
	// <mark>, as HTML.
	Marked []string `json:"snippets_html,omitempty"`
}

// Result is a search's answer.
type Result struct {
	Query string `json:"query"`
	Total uint64 `json:"total"` // pages that match
	Pages uint64 `json:"pages"` // pages in the index
	Hits  []Hit  `json:"hits"`
}

// QueryError is a query that does not parse.
type QueryError struct {
	Query string
	Err   error
}

func (e *QueryError) Error() string {
	return fmt.Sprintf("query %q: %v (bleve query string syntax: words, \"a phrase\", +must, -must-not, title:word)", e.Query, e.Err)
}

// Search runs q, bleve's query string syntax, against the index in dir.
func Search(dir, q string, opt Options) (*Result, error) {
	if opt.Top <= 0 {
		opt.Top = 10
	}
	qs := bleve.NewQueryStringQuery(q)
	if _, err := qs.Parse(); err != nil || strings.TrimSpace(q) == "" {
		if err == nil {
			err = fmt.Errorf("empty")
		}
		return nil, &QueryError{q, err}
	}
	idx, err := open(dir)
	if err != nil {
		return nil, err
	}
	defer idx.Close()
	pages, err := idx.DocCount()
	if err != nil {
		return nil, err
	}
	var match query.Query = qs
	if opt.Only != nil {
		match = bleve.NewConjunctionQuery(qs, bleve.NewDocIDQuery(opt.Only))
	}
	req := bleve.NewSearchRequestOptions(match, maxCandidates, 0, false)
	req.Fields = []string{fieldTitle, fieldPageRank, fieldLength}
	req.IncludeLocations = true
	res, err := idx.Search(req)
	if err != nil {
		return nil, &QueryError{q, err}
	}
	sc, err := newScorer(idx, pages)
	if err != nil {
		return nil, err
	}
	out := &Result{Query: q, Total: res.Total, Pages: pages}
	for _, h := range res.Hits {
		bm25, inTitle, err := sc.score(h)
		if err != nil {
			return nil, err
		}
		pr, _ := h.Fields[fieldPageRank].(float64)
		title, _ := h.Fields[fieldTitle].(string)
		text := bm25 + opt.TitleBoost*inTitle
		out.Hits = append(out.Hits, Hit{Page: h.ID, Title: title, BM25: bm25, TitleFit: opt.TitleBoost * inTitle, PageRank: pr,
			Score: text * (1 + opt.RankWeight*math.Log1p(float64(pages)*pr))})
	}
	slices.SortStableFunc(out.Hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Page, b.Page))
	})
	out.Hits = out.Hits[:min(opt.Top, len(out.Hits))]
	if opt.Highlight != "" && len(out.Hits) > 0 {
		err = snippets(idx, qs, out.Hits, opt.Highlight)
	}
	return out, err
}

// snippets fills in the hits' snippets: fragments of the body (or the
// title) with the matched words marked.
func snippets(idx bleve.Index, q query.Query, hits []Hit, style string) error {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.Page
	}
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(q, bleve.NewDocIDQuery(ids)), len(ids), 0, false)
	req.Highlight = bleve.NewHighlightWithStyle(style)
	req.Highlight.AddField(fieldBody)
	req.Highlight.AddField(fieldTitle)
	res, err := idx.Search(req)
	if err != nil {
		return err
	}
	frags := map[string][]string{}
	for _, h := range res.Hits {
		frags[h.ID] = h.Fragments[fieldBody]
		if len(frags[h.ID]) == 0 { // the title alone matched
			frags[h.ID] = h.Fragments[fieldTitle]
		}
	}
	for i := range hits {
		for _, f := range frags[hits[i].Page] {
			if style == "html" {
				hits[i].Marked = append(hits[i].Marked, Tidy(f))
				f = html.UnescapeString(strings.NewReplacer("<mark>", "", "</mark>", "").Replace(f))
			}
			hits[i].Snippets = append(hits[i].Snippets, Tidy(f))
		}
	}
	return nil
}

// Tidy collapses a fragment's white space and takes out the spaces the
// article's text has before punctuation and inside brackets (its words
// are joined at every tag: "King County , Washington ( state )").
func Tidy(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = spaceBefore.ReplaceAllString(s, "$1")
	return spaceAfter.ReplaceAllString(s, "$1")
}

var (
	spaceBefore = regexp.MustCompile(` ([,.;:!?)\]»])`)
	spaceAfter  = regexp.MustCompile(`([(\[«]) `)
)

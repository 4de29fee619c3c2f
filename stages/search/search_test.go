package search

import (
	"cmp"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/text"
)

// bm25 is Okapi BM25 written plainly from its definition (k1 1.2, b 0.75,
// Lucene's idf), over each document's title and text as one field.
func bm25(docs []Doc, query string) map[string]float64 {
	const k1, b = 1.2, 0.75
	tf := make([]map[string]int, len(docs))
	length := make([]float64, len(docs))
	df := map[string]int{}
	total := 0.0
	for i, d := range docs {
		tf[i] = map[string]int{}
		text.ForEachWord([]byte(d.Title+" "+d.Text), func(w []byte) {
			if t := text.Term(string(w)); t != "" {
				tf[i][t]++
				length[i]++
			}
		})
		for t := range tf[i] {
			df[t]++
		}
		total += length[i]
	}
	avg := total / float64(len(docs))
	var terms []string
	for _, w := range text.Words(query) {
		if t := text.Term(w); t != "" && !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	scores := map[string]float64{}
	for i, d := range docs {
		s, matched := 0.0, 0
		for _, t := range terms {
			f := float64(tf[i][t])
			if f == 0 {
				continue
			}
			matched++
			n := float64(df[t])
			idf := math.Log(1 + (float64(len(docs))-n+0.5)/(n+0.5))
			s += idf * f * (k1 + 1) / (f + k1*(1-b+b*length[i]/avg))
		}
		if matched > 0 {
			scores[d.Page] = s
		}
	}
	return scores
}

// shared is the index the tests share: 400 real pages and Space Needle's,
// built once (building is most of these tests' time).
var shared struct {
	once sync.Once
	dir  string
	docs []Doc
	err  error
}

func buildCorpus(t *testing.T) (string, []Doc) {
	t.Helper()
	wikitest.Corpus(t) // skips without ../shared, before the once is spent
	shared.once.Do(func() {
		shared.docs = corpusDocs(t, 400, "Space_Needle")
		dir, err := os.MkdirTemp("", "topicrank-search-test-")
		if err == nil {
			shared.dir = filepath.Join(dir, "index")
			err = Build(shared.dir, shared.docs)
		}
		shared.err = err
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.dir, shared.docs
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(filepath.Dir(shared.dir))
	}
	os.Exit(code)
}

// With no title boost and no PageRank weight, the top 10 are BM25's:
// each hit's independent score is the independent ranking's score at its
// position (equal up to bleve's float32 field lengths).
func TestPlainBM25MatchesIndependentBM25(t *testing.T) {
	dir, docs := buildCorpus(t)
	for _, q := range []string{"seattle", "puget sound ferry", "university research students"} {
		res, err := Search(dir, q, Options{Top: 10})
		if err != nil {
			t.Fatal(err)
		}
		want := bm25(docs, q)
		var ranked []float64
		for _, s := range want {
			ranked = append(ranked, s)
		}
		slices.SortFunc(ranked, func(a, b float64) int { return cmp.Compare(b, a) })
		if len(res.Hits) != min(10, len(ranked)) || int(res.Total) != len(want) {
			t.Fatalf("%q: %d hits of %d; independently %d match", q, len(res.Hits), res.Total, len(want))
		}
		for i, h := range res.Hits {
			if got := want[h.Page]; math.Abs(got-ranked[i]) > 1e-9*ranked[i] || math.Abs(h.BM25-got) > 1e-9*got {
				t.Errorf("%q #%d: %s scores %.5f independently; the independent #%d scores %.5f", q, i+1, h.Page, got, i+1, ranked[i])
			}
		}
	}
}

// The defaults find the article a query names first, and PageRank
// weighs in by its formula.
func TestDefaultsAndRankWeight(t *testing.T) {
	dir, docs := buildCorpus(t)
	res, err := Search(dir, "space needle", Options{RankWeight: DefaultRankWeight, TitleBoost: DefaultTitleBoost, Highlight: "html"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Page != "/wiki/Space_Needle" {
		t.Fatalf("space needle: %+v", res.Hits)
	}
	if s := strings.Join(res.Hits[0].Marked, " "); !strings.Contains(s, "<mark>Space</mark> <mark>Needle</mark>") {
		t.Errorf("snippets do not mark the words: %q", s)
	}
	if s := strings.Join(res.Hits[0].Snippets, " "); !strings.Contains(s, "Space Needle is") || strings.ContainsAny(s, "<&") {
		t.Errorf("plain snippets hold markup: %q", s)
	}
	ansi, err := Search(dir, "space needle", Options{Top: 1, Highlight: "ansi"})
	if err != nil || len(ansi.Hits) == 0 || !strings.Contains(strings.Join(ansi.Hits[0].Snippets, " "), "\x1b[") {
		t.Errorf("terminal snippets: %v, %+v", err, ansi)
	}
	for _, h := range res.Hits {
		want := (h.BM25 + h.TitleFit) * (1 + DefaultRankWeight*math.Log1p(float64(len(docs))*h.PageRank))
		if math.Abs(h.Score-want) > 1e-12*want {
			t.Errorf("%s: score %v, want %v", h.Page, h.Score, want)
		}
	}
}

// Phrases need their words adjacent; - excludes, + requires.
func TestQuerySyntax(t *testing.T) {
	dir, docs := buildCorpus(t)
	// has reports whether the page's words (stop words dropped, as
	// phrases see them) hold phrase.
	has := func(page, phrase string) bool {
		for _, d := range docs {
			if d.Page == page {
				var words []string
				for _, w := range text.Words(d.Title + " . " + d.Text) {
					if text.Term(w) != "" {
						words = append(words, w)
					}
				}
				return strings.Contains(" "+strings.Join(words, " ")+" ", " "+phrase+" ")
			}
		}
		return false
	}
	res, err := Search(dir, `"puget sound"`, Options{Top: 1000})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("phrase: %v %v", res, err)
	}
	for _, h := range res.Hits {
		if !has(h.Page, "puget sound") {
			t.Errorf("%s matches \"puget sound\" without the phrase", h.Page)
		}
	}
	if all, _ := Search(dir, `puget sound`, Options{Top: 1000}); all.Total <= res.Total {
		t.Errorf("the words match %d pages, the phrase %d: the phrase should match fewer", all.Total, res.Total)
	}
	res, err = Search(dir, `seattle -washington`, Options{Top: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if has(h.Page, "washington") {
			t.Errorf("%s holds washington despite -washington", h.Page)
		}
	}
}

// A query that does not parse and a missing index are errors that say so.
func TestSearchErrors(t *testing.T) {
	dir, _ := buildCorpus(t)
	for _, q := range []string{`"unclosed`, `a:`, `foo^bar`, ` `, `body:/[/`} {
		var qe *QueryError
		if _, err := Search(dir, q, Options{}); !errors.As(err, &qe) {
			t.Errorf("%q: err %v, want a QueryError", q, err)
		}
	}
	if _, err := Search(filepath.Join(t.TempDir(), "index"), "x", Options{}); !errors.Is(err, ErrNoIndex) {
		t.Errorf("no index: %v", err)
	}
}

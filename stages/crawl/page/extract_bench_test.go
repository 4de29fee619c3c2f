package page

import (
	"runtime"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/text"
)

// corpus returns the real article pages of the 2018 corpus (skips when
// ../shared is absent).
func corpus(t testing.TB) [][]byte {
	var pages [][]byte
	for _, p := range wikitest.Corpus(t) {
		pages = append(pages, p.HTML)
	}
	return pages
}

// sample returns the corpus pages a test checks: all of them, or every
// tenth under the race detector.
func sample(t testing.TB) [][]byte {
	pages := corpus(t)
	if !raceBuild {
		return pages
	}
	var s [][]byte
	for i := 0; i < len(pages); i += 10 {
		s = append(s, pages[i])
	}
	return s
}

var benchTopics = NewTopics([]string{"tennis", "grand slam", "french open", "australian open", "wimbledon", "us open", "masters"})

// BenchmarkExtract measures link extraction with topic weights on real
// Wikipedia pages: MB/s of HTML and, via pages/s, the cost per page.
func BenchmarkExtract(b *testing.B) {
	pages := corpus(b)[:300]
	var size int64
	for _, p := range pages {
		size += int64(len(p))
	}
	b.SetBytes(size / int64(len(pages)))
	runtime.GC() // the unpacked corpus is garbage now
	b.ResetTimer()
	links := 0
	for i := 0; i < b.N; i++ {
		links += len(Extract(pages[i%len(pages)], []string{"en.wikipedia.org"}, ScopeBody, benchTopics).Links)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// TestExtractRealPages checks extraction on every real page of the corpus:
// canonical link found, body links found, no sidebar links.
func TestExtractRealPages(t *testing.T) {
	pages := sample(t)
	noCanonical, noLinks := 0, 0
	for _, p := range pages {
		doc := Extract(p, []string{"en.wikipedia.org"}, ScopeBody, benchTopics)
		// Titles with ':' (UTC−07:00) are not article keys, by DESIGN.md's rule.
		if doc.Canonical == "" && !strings.Contains(doc.Title, ":") {
			noCanonical++
			t.Errorf("no canonical link found in %q", doc.Title)
		}
		if len(doc.Links) == 0 {
			noLinks++
		}
		for _, l := range doc.Links {
			if l.Key == "/wiki/Main_Page" {
				t.Errorf("%s: Main_Page linked from the body", doc.Canonical)
			}
			if l.Weight < 0 || l.Weight > 1 {
				t.Errorf("%s: weight %v", l.Key, l.Weight)
			}
		}
	}
	if len(corpus(t)) < 2300 || noCanonical > 0 || noLinks > 20 {
		t.Errorf("%d pages: %d without canonical link, %d without body links", len(pages), noCanonical, noLinks)
	}
}

// BenchmarkExtractProse measures what a crawl does per page by default:
// the prose scope (goquery's parse), relevance and the weighted
// strategy's link weights.
func BenchmarkExtractProse(b *testing.B) {
	pages := corpus(b)[:300]
	x := Extractor{Hosts: []string{"en.wikipedia.org"}, Scope: ScopeProse, Topics: benchTopics,
		Topic: text.NewTopic([]string{"tennis", "grand slam", "wimbledon"}, nil)}
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Extract(pages[i%len(pages)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

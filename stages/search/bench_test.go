package search

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/text"
)

// corpusDocs are the first n pages of the 2018 corpus as index documents,
// and the pages named in also.
func corpusDocs(tb testing.TB, n int, also ...string) []Doc {
	pages := wikitest.Corpus(tb)
	var docs []Doc
	for i, p := range pages {
		if i < n || slices.Contains(also, p.Title) {
			docs = append(docs, Doc{Page: "/wiki/" + p.Title, Title: p.Title, Text: text.Parse(p.HTML).Text()})
		}
	}
	for i := range docs {
		docs[i].PageRank = float64(i%7+1) / float64(4*len(docs)) // varied, for the rank weight
	}
	return docs
}

// BenchmarkBuild indexes 1,000 real pages, the size of a default run.
func BenchmarkBuild(b *testing.B) {
	docs := corpusDocs(b, 1000)
	b.ResetTimer()
	for i := range b.N {
		if err := Build(filepath.Join(b.TempDir(), "index", string(rune('a'+i%26))), docs); err != nil {
			b.Fatal(err)
		}
	}
}

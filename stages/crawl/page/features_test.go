package page

import (
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/text"
)

// TestSectionFeatures: the learned strategy's features hold the stems of
// the link's section heading, or the lead's one feature.
func TestSectionFeatures(t *testing.T) {
	has := func(f []uint32, prefix, term string) bool { return slices.Contains(f, HashFeature(prefix, term)) }
	f := sectionFeatures("Professional sports")
	if !has(f, "s|", "profession") || !has(f, "s|", "sport") || has(f, "s|", "") || len(f) != 2 {
		t.Errorf("features of the section \"Professional sports\": %v", f)
	}
	if f := sectionFeatures(""); len(f) != 1 || !has(f, "s|", "") {
		t.Errorf("features of the lead: %v", f)
	}
}

// TestSectionsApartFromTerms: under the learned strategy a link's section
// features sit in Document.Sections, apart from the term features that
// relevance feedback's cosine reads; other strategies have none.
func TestSectionsApartFromTerms(t *testing.T) {
	page := wikitest.Page(t, "Seattle")
	topic := text.NewTopic([]string{"sports"}, nil)
	x := Extractor{Hosts: []string{"en.wikipedia.org"}, Scope: ScopeProse, Topic: topic, Strategy: StrategyLearned, Feedback: true}
	doc := x.Extract(page)
	i := slices.IndexFunc(doc.Links, func(l Link) bool { return l.Key == "/wiki/CenturyLink_Field" })
	if i < 0 || len(doc.Sections) != len(doc.Links) || len(doc.Features) != len(doc.Links) {
		t.Fatalf("link at %d; %d links, %d sections, %d features", i, len(doc.Links), len(doc.Sections), len(doc.Features))
	}
	section := sectionFeatures("Professional sports")
	if !slices.Equal(doc.Sections[i], section) {
		t.Errorf("section features %v, want %v", doc.Sections[i], section)
	}
	for _, f := range section {
		if slices.Contains(doc.Features[i], f) {
			t.Errorf("term features %v hold section feature %d", doc.Features[i], f)
		}
	}
	x.Strategy = StrategySimilarity
	if doc := x.Extract(page); doc.Sections != nil || doc.Features == nil {
		t.Errorf("similarity with feedback: %d sections, %d features; want none and some", len(doc.Sections), len(doc.Features))
	}
}

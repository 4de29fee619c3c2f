package search

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Options.Only keeps a search to the pages given, within which every
// match is a candidate: the five weakest of more than maxCandidates
// matching pages are all found, where the best maxCandidates by BM25
// would leave them out. An empty set finds nothing.
func TestOnlyPages(t *testing.T) {
	var docs []Doc
	var weakest []string
	for i := range maxCandidates + 50 {
		d := Doc{Page: fmt.Sprintf("/wiki/P%05d", i), Title: fmt.Sprintf("P%05d", i), Text: "tennis court"}
		if i%2011 == 7 { // tennis once among many words: the lowest BM25
			d.Text = "tennis " + strings.Repeat("filler words go here ", 50)
			weakest = append(weakest, d.Page)
		}
		docs = append(docs, d)
	}
	dir := filepath.Join(t.TempDir(), "index")
	if err := Build(dir, docs); err != nil {
		t.Fatal(err)
	}
	all, err := Search(dir, "tennis", Options{Top: len(docs)})
	if err != nil {
		t.Fatal(err)
	}
	if all.Total != uint64(len(docs)) || len(all.Hits) != maxCandidates ||
		slices.ContainsFunc(all.Hits, func(h Hit) bool { return slices.Contains(weakest, h.Page) }) {
		t.Fatalf("without Only: %d matches, %d candidates: want the weakest left out", all.Total, len(all.Hits))
	}
	res, err := Search(dir, "tennis", Options{Only: weakest, Top: 10})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.Page)
	}
	slices.Sort(got)
	if res.Total != uint64(len(weakest)) || !slices.Equal(got, weakest) {
		t.Errorf("only %q: total %d, hits %q", weakest, res.Total, got)
	}
	if res, err := Search(dir, "tennis", Options{Only: []string{}}); err != nil || res.Total != 0 || len(res.Hits) != 0 {
		t.Errorf("only no page: %+v, %v", res, err)
	}
}

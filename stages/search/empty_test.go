package search

import (
	"path/filepath"
	"testing"
)

// A run whose every fetch failed has an empty index: searching it finds
// nothing, without an error.
func TestEmptyIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	if err := Build(dir, []Doc{{Page: "/wiki/Failed"}}); err != nil {
		t.Fatal(err)
	}
	res, err := Search(dir, "anything", Options{Highlight: "html"})
	if err != nil || res.Total != 0 || len(res.Hits) != 0 || res.Pages != 0 {
		t.Errorf("empty index: %+v, %v", res, err)
	}
	if _, err := Search(dir, "seat*", Options{}); err != nil {
		t.Errorf("wildcard on an empty index: %v", err)
	}
}

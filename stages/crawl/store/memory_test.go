package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl"
)

// A state keeps the memory and the link model of the KeepDigests topics
// used last, whatever the number of topics a job has had: a topic edited
// every night does not grow the file night after night.
func TestMemoryKeepsNewestDigests(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.sqlite")
	for night := 1; night <= KeepDigests+3; night++ {
		s, err := Open(path, fmt.Sprintf("r%02d", night))
		if err != nil {
			t.Fatal(err)
		}
		digest := fmt.Sprintf("topic-%d", night)
		if night == KeepDigests+3 {
			digest = "topic-4" // taken back to an earlier topic: its rows are the newest again
		}
		if _, err := s.Memory(digest, 0.1); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveLinkModel(digest, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if err := s.Finish("complete"); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(path, "r99")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Finish("complete")
	want := []string{"topic-3", "topic-4", "topic-5", "topic-6"} // 1, 2, 3, 4, 5, 6, then 4 again
	for _, table := range []string{"memory", "models"} {
		rows, err := s.db.Query(`SELECT digest FROM ` + table + ` ORDER BY digest`)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var d string
			rows.Scan(&d)
			got = append(got, d)
		}
		rows.Close()
		if !slices.Equal(got, want) {
			t.Errorf("%s keeps %q, want %q", table, got, want)
		}
	}
}

// Hand-checked: of an article's stored titles, the last night's vertex
// stands for it, else the article's own title; the others are aliases. A
// vertex is never one, and a title alone with its article is not either.
func TestMarkAliases(t *testing.T) {
	known := map[string]crawl.Known{
		"/wiki/A": {}, "/wiki/A_alias": {}, // the article's own title stands
		"/wiki/B": {}, "/wiki/B_alias": {Vertex: true}, // the vertex stands
		"/wiki/C_alias": {}, "/wiki/C_other": {}, // no title stands
		"/wiki/D": {Vertex: true},
	}
	article := map[string]string{
		"/wiki/A": "/wiki/A", "/wiki/A_alias": "/wiki/A",
		"/wiki/B": "/wiki/B", "/wiki/B_alias": "/wiki/B",
		"/wiki/C_alias": "/wiki/C", "/wiki/C_other": "/wiki/C",
		"/wiki/D": "/wiki/D",
	}
	markAliases(known, article)
	var got []string
	for k, kn := range known {
		if kn.Alias {
			got = append(got, k)
		}
	}
	slices.Sort(got)
	if want := []string{"/wiki/A_alias", "/wiki/B"}; !slices.Equal(got, want) {
		t.Errorf("aliases %v, want %v", got, want)
	}
}

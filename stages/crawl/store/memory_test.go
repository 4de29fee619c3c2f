package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
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

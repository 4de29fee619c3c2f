package store

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
)

func stored(hash string, structure uint64) crawl.Stored {
	return crawl.Stored{ETag: `W/"` + hash + `"`, Hash: hash, Bytes: 10,
		Doc: page.Document{Canonical: "/wiki/A", Title: "A", Structure: structure, Links: []page.Link{{Key: "/wiki/B", Weight: 0.5}}}}
}

func TestSaveLoadAndCounters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.sqlite")
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save("/wiki/A", "d1", stored("h1", 7)); err != nil {
		t.Fatal(err)
	}
	got, replay, ok := s.Load("/wiki/A", "d1")
	if !ok || replay || got.ETag != `W/"h1"` || got.Doc.Links[0].Weight != 0.5 || got.Doc.Structure != 7 {
		t.Errorf("Load = %+v, replay %v, ok %v", got, replay, ok)
	}
	if _, _, ok := s.Load("/wiki/A", "other-settings"); ok {
		t.Error("links stored under other extraction settings were offered")
	}
	s.Save("/wiki/A", "d1", stored("h2", 7)) // text changed
	s.Save("/wiki/A", "d1", stored("h3", 8)) // elements changed
	s.Touch("/wiki/A", "")                   // a 304
	if f, c, st, err := s.Counters("/wiki/A"); err != nil || f != 4 || c != 2 || st != 1 {
		t.Errorf("counters = %d fetches, %d content, %d structure changes (%v); want 4, 2, 1", f, c, st, err)
	}
	if err := s.Finish("complete"); err != nil {
		t.Fatal(err)
	}

	// A finished run is not resumed.
	s, err = Open(path, "r2")
	if err != nil {
		t.Fatal(err)
	}
	if s.Resumes() != "" {
		t.Errorf("after a complete run, resumes %q", s.Resumes())
	}
	s.Save("/wiki/C", "d1", stored("c", 1))
	s.Save("/wiki/D", "d1", stored("d", 1))
	s.sync() // a batch committed, as every batchWrites writes
	s.Save("/wiki/E", "d1", stored("e", 1))
	// r2 is killed: no Finish, E's write not yet committed (what a dying
	// process leaves: the open transaction is gone, the file unlocked). The
	// next run replays r2's committed pages only, and fetches E again.
	kill(s)
	s, err = Open(path, "r3")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Finish("complete")
	if s.Resumes() != "r2" {
		t.Fatalf("after a killed run, resumes %q, want r2", s.Resumes())
	}
	if _, replay, _ := s.Load("/wiki/C", "d1"); !replay {
		t.Error("a page the killed run fetched is not replayed")
	}
	if _, _, ok := s.Load("/wiki/E", "d1"); ok {
		t.Error("an uncommitted write of the killed run survived")
	}
	if _, replay, ok := s.Load("/wiki/A", "d1"); !ok || replay {
		t.Error("a page of an earlier run is replayed")
	}
}

// A state file of another schema version is rebuilt, not misread.
func TestOtherSchemaIsRebuilt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.sqlite")
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	s.Save("/wiki/A", "d", stored("h", 1))
	s.sync()
	s.db.Exec(`PRAGMA user_version = 99`)
	s.Finish("complete")
	s, err = Open(path, "r2")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Finish("complete")
	if _, _, ok := s.Load("/wiki/A", "d"); ok {
		t.Error("a page survived the rebuild of a state file of another version")
	}
}

// kill leaves s as a killed process would: the open transaction gone, the
// file and its lock released, no end recorded.
func kill(s *Store) {
	if s.tx != nil {
		s.tx.Rollback()
	}
	s.db.Close()
	s.lock.unlock()
}

// A write that vanishes without an error (here another connection takes
// the row back, as a -wal removed or replaced beside the run would) is
// found when the run reads back what it wrote: the run is not complete.
func TestErrReadsBackWhatTheRunWrote(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.sqlite")
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Finish("complete")
	s.Save("/wiki/A", "d1", stored("h1", 7))
	s.Save("/wiki/B", "d1", stored("h2", 7))
	if err := s.Err(); err != nil {
		t.Fatalf("every write in the file: %v", err)
	}
	other, err := sql.Open("sqlite", fileURI(path)+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Exec(`DELETE FROM pages WHERE key = '/wiki/B'`); err != nil {
		t.Fatal(err)
	}
	other.Close()
	if err := s.Err(); err == nil || !strings.Contains(err.Error(), "1 of the 2 pages this run wrote are not in it") {
		t.Errorf("a vanished write: %v", err)
	}
}

package store

import (
	"database/sql"
	"errors"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// Each run is a tick; a page's history counts its visits and changes,
// its intervals, and the Last-Modified dates it gave, by run.
func TestHistoriesAcrossRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.sqlite")
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lm := func(d int) string { return day.AddDate(0, 0, d).Format(http.TimeFormat) }
	for i, visit := range []func(*Store) error{
		func(s *Store) error { p := stored("h1", 7); p.LastModified = lm(0); return s.Save("/wiki/A", "d", p) },
		func(s *Store) error { return s.Touch("/wiki/A", lm(0)) },                                               // unchanged
		func(s *Store) error { p := stored("h2", 8); p.LastModified = lm(2); return s.Save("/wiki/A", "d", p) }, // changed, structure too
	} {
		s, err := Open(path, "r"+string(rune('1'+i)))
		if err != nil {
			t.Fatal(err)
		}
		if s.Tick() != i {
			t.Errorf("run %d: tick %d", i+1, s.Tick())
		}
		if err := visit(s); err != nil {
			t.Fatal(err)
		}
		if err := s.Finish("complete"); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(path, "r4")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Finish("complete")
	hs, err := s.Histories()
	if err != nil || len(hs) != 1 {
		t.Fatalf("histories %v, %v", hs, err)
	}
	h := hs[0]
	if h.Visits != 3 || h.Textual != 1 || h.Structural != 1 || h.LastVisit != 2 || h.LastChange != 2 || h.Unchanged != 1 || h.Changed[1] != 1 {
		t.Errorf("history %+v", h)
	}
	if len(h.Eras) != 2 || h.Eras[0].Tick != 1 || h.Eras[1].Tick != 2 {
		t.Errorf("Last-Modified eras %+v", h.Eras)
	}
	clock, err := s.ServerClock()
	if err != nil || clock == nil || clock.DaysPerTick != 1 {
		t.Errorf("server clock %+v, %v: want a day a tick (day 0, 0, 2 over ticks 0..2)", clock, err)
	}
}

// A state of schema version 1 keeps its pages: they gain histories at
// their next visit and are planned meanwhile.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.sqlite")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE runs (run_id TEXT PRIMARY KEY, started TEXT NOT NULL, finished TEXT, status TEXT NOT NULL)`,
		`CREATE TABLE pages (key TEXT PRIMARY KEY, run_id TEXT NOT NULL, fetched_at TEXT NOT NULL, digest TEXT NOT NULL,
			etag TEXT NOT NULL, last_modified TEXT NOT NULL, content_hash TEXT NOT NULL, structure TEXT NOT NULL,
			bytes INTEGER NOT NULL, doc TEXT NOT NULL, fetches INTEGER NOT NULL DEFAULT 1,
			content_changes INTEGER NOT NULL DEFAULT 0, structure_changes INTEGER NOT NULL DEFAULT 0)`,
		`INSERT INTO runs VALUES ('r0', '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 'complete')`,
		`INSERT INTO pages VALUES ('/wiki/Old', 'r0', '2026-01-01T00:00:30Z', 'd', '', '', 'h', '7', 10, '{"Title":"Old"}', 1, 0, 0)`,
		`PRAGMA user_version = 1`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Finish("complete")
	if _, _, ok := s.Load("/wiki/Old", "d"); !ok {
		t.Error("the version-1 page was lost")
	}
	hs, err := s.Histories()
	if err != nil || len(hs) != 1 || hs[0].Key != "/wiki/Old" || hs[0].LastVisit != 0 {
		t.Errorf("histories %+v, %v", hs, err)
	}
	if s.Tick() != 1 {
		t.Errorf("tick %d after one earlier run, want 1", s.Tick())
	}
}

// An upgrade stopped after any of its statements leaves the old schema whole:
// the next open migrates it, and every stored copy is kept and sound
// (issue: an upgrade killed midway left a half-migrated state that the
// next run called damaged and moved aside).
func TestUpgradeIsAtomic(t *testing.T) {
	for stop := 0; ; stop++ {
		path := filepath.Join(t.TempDir(), "state.sqlite")
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`CREATE TABLE runs (run_id TEXT PRIMARY KEY, started TEXT NOT NULL, finished TEXT, status TEXT NOT NULL,
				tick INTEGER NOT NULL DEFAULT 0, requests INTEGER NOT NULL DEFAULT 0, server_now REAL NOT NULL DEFAULT 0)`,
			`CREATE TABLE pages (key TEXT PRIMARY KEY, run_id TEXT NOT NULL, fetched_at TEXT NOT NULL, digest TEXT NOT NULL,
				etag TEXT NOT NULL, last_modified TEXT NOT NULL, content_hash TEXT NOT NULL, structure TEXT NOT NULL,
				bytes INTEGER NOT NULL, doc TEXT NOT NULL, fetches INTEGER NOT NULL DEFAULT 1,
				content_changes INTEGER NOT NULL DEFAULT 0, structure_changes INTEGER NOT NULL DEFAULT 0,
				history TEXT NOT NULL DEFAULT '')`,
			`INSERT INTO runs VALUES ('r0', '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 'complete', 1, 0, 0)`,
			`INSERT INTO pages VALUES ('/wiki/Old', 'r0', '2026-01-01T00:00:30Z', 'd', '', '', 'h', '7', 10, '{"Title":"Old"}', 1, 0, 0, '')`,
			`INSERT INTO pages VALUES ('/wiki/Older', 'r0', '2026-01-01T00:00:31Z', 'd', '', '', 'h', '7', 10, '{"Title":"Older"}', 1, 0, 0, '')`,
			`PRAGMA user_version = 2`,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		db.SetMaxOpenConns(1)
		s := &Store{db: db}
		upgradeFault = func(n int) error {
			if n == stop {
				return errors.New("killed")
			}
			return nil
		}
		err = s.upgrade(2)
		upgradeFault = nil
		if err == nil { // fewer statements than stop: the upgrade went through
			db.Close()
			if stop < 6 { // 2 columns, 2 checksums, the schema, the version
				t.Errorf("the upgrade went through after %d statements, want 6", stop)
			}
			break
		}
		var version, checksums int
		db.QueryRow(`PRAGMA user_version`).Scan(&version)
		db.QueryRow(`SELECT count(*) FROM pragma_table_info('pages') WHERE name = 'checksum'`).Scan(&checksums)
		db.Close()
		if version != 2 || checksums != 0 {
			t.Errorf("stopped after statement %d: version %d, checksum column %d: want the old schema whole", stop, version, checksums)
		}
		st, err := Open(path, "r1")
		if err != nil {
			t.Fatalf("stopped after statement %d, the next open: %v", stop, err)
		}
		if st.Damage() != nil {
			t.Errorf("stopped after statement %d: the state was called damaged: %v", stop, st.Damage().Err)
		}
		if _, _, ok := st.Load("/wiki/Old", "d"); !ok {
			t.Errorf("stopped after statement %d: the stored copy was lost", stop)
		}
		if bad, err := st.verifyAll(); err != nil || bad != 0 {
			t.Errorf("stopped after statement %d: %d copies fail their checksum (%v)", stop, bad, err)
		}
		st.Finish("complete")
	}
}

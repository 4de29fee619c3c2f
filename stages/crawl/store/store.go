// Package store is the crawl state kept across runs of one job: an
// embedded SQLite database (modernc.org/sqlite, pure Go, so the runner
// still builds with CGO_ENABLED=0) holding, per page, the last fetch time,
// ETag, content hash, extracted links and change counters, and the runs
// that used it.
//
// It implements crawl.State: a re-crawl sends conditional requests and
// reuses the stored links of unchanged pages, and a run that was killed is
// resumed by the next one, which replays the pages the killed run fetched
// instead of requesting them again.
package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	_ "modernc.org/sqlite"

	"github.com/topicrank/topicrank/stages/crawl"
)

const schema = `
CREATE TABLE IF NOT EXISTS runs (
	run_id   TEXT PRIMARY KEY,
	started  TEXT NOT NULL,
	finished TEXT,              -- NULL while running, or if the run was killed
	status   TEXT NOT NULL,     -- running, complete, partial
	tick     INTEGER NOT NULL DEFAULT 0, -- the revisit clock: runs before this one (package revisit)
	requests INTEGER NOT NULL DEFAULT 0, -- requests spent, those of the run it resumes included
	server_now REAL NOT NULL DEFAULT 0   -- the newest Last-Modified date the run saw, days since 1970
);
CREATE TABLE IF NOT EXISTS pages (
	key           TEXT PRIMARY KEY,
	run_id        TEXT NOT NULL,   -- the run that last fetched it
	fetched_at    TEXT NOT NULL,
	digest        TEXT NOT NULL,   -- extraction settings the links were made with
	etag          TEXT NOT NULL,
	last_modified TEXT NOT NULL,
	content_hash  TEXT NOT NULL,
	structure     TEXT NOT NULL,   -- Document.Structure, hex
	bytes         INTEGER NOT NULL,
	doc           TEXT NOT NULL,   -- JSON: canonical, title, weighted links
	fetches       INTEGER NOT NULL DEFAULT 1,
	content_changes   INTEGER NOT NULL DEFAULT 0,
	structure_changes INTEGER NOT NULL DEFAULT 0,
	history TEXT NOT NULL DEFAULT '' -- JSON revisit.History: visits, changes, intervals
);
CREATE TABLE IF NOT EXISTS missing (
	key        TEXT PRIMARY KEY,  -- a page whose last answer was 404 or 410
	status     INTEGER NOT NULL,
	fetched_at TEXT NOT NULL
);`

// Run statuses in the runs table. A run still "running" was killed.
const (
	StatusRunning     = "running"
	StatusInterrupted = "interrupted" // stopped by a signal: the next run resumes it
)

// MaxResumeAge bounds how old an interrupted run may be and still be
// resumed: replaying pages fetched long ago would pass stale content off as
// tonight's.
const MaxResumeAge = 12 * time.Hour

// Store is one job's crawl state.
type Store struct {
	db      *sql.DB
	runID   string
	resumes string  // the interrupted run this one continues, or ""
	tick    int     // the revisit clock: this run's tick
	spent   int     // requests spent before this run began (by the run it resumes)
	latest  float64 // the newest Last-Modified date seen this run (days since 1970), under mu

	// Statements are prepared once: preparing on every call was most of
	// a re-crawl's SQLite time.
	load, save, touch, missing, saveMissing, found, counters *sql.Stmt
	history, requests, serverNow                             *sql.Stmt

	// Writes are batched in one transaction, committed every batchWrites
	// writes and when the run finishes; every use of the one connection
	// goes through it while it is open.
	mu     sync.Mutex
	tx     *sql.Tx
	began  time.Time // of tx
	writes int
}

// A transaction holds at most batchWrites writes and batchAge of
// crawling. A run killed before a commit loses the state of the pages
// since: the run that resumes it fetches them again (and gives the same
// graph).
const (
	batchWrites = 64
	batchAge    = 5 * time.Second
)

// write runs a write statement in the open transaction, beginning one if
// none is, and commits every batchWrites writes.
func (s *Store) write(st *sql.Stmt, args ...any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tx == nil {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		s.tx, s.began = tx, time.Now()
	}
	if _, err := s.tx.Stmt(st).Exec(args...); err != nil {
		return err
	}
	if s.writes++; s.writes >= batchWrites || time.Since(s.began) >= batchAge {
		return s.commit()
	}
	return nil
}

// sync commits the writes so far.
func (s *Store) sync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commit()
}

// read runs a query of one row, in the open transaction if there is one,
// and scans it.
func (s *Store) read(st *sql.Stmt, args []any, dest ...any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tx != nil {
		st = s.tx.Stmt(st)
	}
	return st.QueryRow(args...).Scan(dest...)
}

// commit commits the open transaction, if any; s.mu is held.
func (s *Store) commit() error {
	if s.tx == nil {
		return nil
	}
	err := s.tx.Commit()
	s.tx, s.writes = nil, 0
	return err
}

// prepare prepares the statements of s.
func (s *Store) prepare() error {
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.load, `SELECT run_id, fetched_at, etag, last_modified, content_hash, bytes, doc FROM pages WHERE key = ? AND digest = ?`},
		{&s.history, `SELECT content_hash, structure, history FROM pages WHERE key = ?`},
		{&s.requests, `UPDATE runs SET requests = ? WHERE run_id = ?`},
		{&s.serverNow, `UPDATE runs SET server_now = max(server_now, ?) WHERE run_id = ?`},
		{&s.save, saveSQL},
		{&s.touch, `UPDATE pages SET run_id = ?, fetched_at = ?, fetches = fetches + 1, history = ? WHERE key = ?`},
		{&s.missing, `SELECT status, fetched_at FROM missing WHERE key = ?`},
		{&s.saveMissing, `INSERT INTO missing (key, status, fetched_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET status = excluded.status, fetched_at = excluded.fetched_at`},
		{&s.found, `DELETE FROM missing WHERE key = ?`},
		{&s.counters, `SELECT fetches, content_changes, structure_changes FROM pages WHERE key = ?`},
	} {
		st, err := s.db.Prepare(p.sql)
		if err != nil {
			return err
		}
		*p.stmt = st
	}
	return nil
}

// Open opens (creating if needed) the state file at path and starts run
// runID in it. If the previous run never finished, this run resumes it.
func Open(path, runID string) (*Store, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // SQLite writes one at a time anyway
	s := &Store{db: db, runID: runID}
	if err := s.begin(); err == nil {
		err = s.prepare()
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("crawl state %s: %w", path, err)
	}
	return s, nil
}

// schemaVersion is kept in SQLite's user_version. The state is a cache of
// what the web said: a file of an unknown version is rebuilt; version 1
// gains the columns of change history (its pages start their history at
// their next visit).
const schemaVersion = 2

var migrations = map[int]string{
	1: `ALTER TABLE pages ADD COLUMN history TEXT NOT NULL DEFAULT '';
		ALTER TABLE runs ADD COLUMN tick INTEGER NOT NULL DEFAULT 0;
		ALTER TABLE runs ADD COLUMN requests INTEGER NOT NULL DEFAULT 0;
		ALTER TABLE runs ADD COLUMN server_now REAL NOT NULL DEFAULT 0;`,
}

func (s *Store) begin() error {
	var version int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return err
	}
	if m, ok := migrations[version]; ok {
		if _, err := s.db.Exec(m); err != nil {
			return err
		}
	} else if version != schemaVersion {
		if _, err := s.db.Exec(`DROP TABLE IF EXISTS pages; DROP TABLE IF EXISTS runs;`); err != nil {
			return err
		}
	}
	if _, err := s.db.Exec(schema); err != nil {
		return err
	}
	if _, err := s.db.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return err
	}
	var last, status, started string
	var tick, requests int
	err := s.db.QueryRow(`SELECT run_id, status, started, tick, requests FROM runs ORDER BY started DESC, run_id DESC LIMIT 1`).
		Scan(&last, &status, &started, &tick, &requests)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		tick, requests = -1, 0
	case err != nil:
		return err
	case status == StatusRunning || status == StatusInterrupted:
		if t, err := time.Parse(time.RFC3339Nano, started); err == nil && time.Since(t) < MaxResumeAge {
			s.resumes = last
		}
	}
	// A run that resumes another is the same tick of the revisit clock and
	// has already spent what the other spent; any other is the next tick.
	if s.resumes == "" {
		tick, requests = tick+1, 0
	}
	s.tick, s.spent = tick, requests
	_, err = s.db.Exec(`INSERT INTO runs (run_id, started, status, tick, requests) VALUES (?, ?, ?, ?, ?)`,
		s.runID, time.Now().UTC().Format(time.RFC3339Nano), StatusRunning, tick, requests)
	return err
}

// Resumes returns the interrupted run this run continues ("" if none).
func (s *Store) Resumes() string { return s.resumes }

// Finish records how the run ended (StatusInterrupted, or any other word
// such as "complete") and closes the store.
func (s *Store) Finish(status string) error {
	err := s.sync()
	if err == nil {
		_, err = s.db.Exec(`UPDATE runs SET finished = ?, status = ? WHERE run_id = ?`,
			time.Now().UTC().Format(time.RFC3339Nano), status, s.runID)
	}
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	return err
}

// Load implements crawl.State.
func (s *Store) Load(key, digest string) (crawl.Stored, bool, bool) {
	var st crawl.Stored
	var run, at, doc string
	err := s.read(s.load, []any{key, digest}, &run, &at, &st.ETag, &st.LastModified, &st.Hash, &st.Bytes, &doc)
	if err != nil || json.Unmarshal([]byte(doc), &st.Doc) != nil {
		return crawl.Stored{}, false, false
	}
	st.FetchedAt, _ = time.Parse(time.RFC3339Nano, at)
	replay := s.resumes != "" && run == s.resumes
	return st, replay, true
}

// Save implements crawl.State: it stores the page as fetched by this run
// and counts content and structure changes against what was stored.
func (s *Store) Save(key, digest string, st crawl.Stored) error {
	doc, err := json.Marshal(st.Doc)
	if err != nil {
		return err
	}
	if err := s.write(s.found, key); err != nil {
		return err
	}
	h, err := s.observe(key, st.Hash, strconv.FormatUint(st.Doc.Structure, 16), st.Doc.Relevance, st.LastModified)
	if err != nil {
		return err
	}
	return s.write(s.save, key, s.runID, time.Now().UTC().Format(time.RFC3339Nano), digest, st.ETag, st.LastModified, st.Hash,
		strconv.FormatUint(st.Doc.Structure, 16), st.Bytes, string(doc), h)
}

const saveSQL = `
INSERT INTO pages (key, run_id, fetched_at, digest, etag, last_modified, content_hash, structure, bytes, doc, history)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET
	run_id = excluded.run_id, fetched_at = excluded.fetched_at, digest = excluded.digest,
	etag = excluded.etag, last_modified = excluded.last_modified, bytes = excluded.bytes, doc = excluded.doc,
	history = excluded.history,
	fetches = fetches + 1,
	content_changes = content_changes + (content_hash != excluded.content_hash),
	structure_changes = structure_changes + (structure != excluded.structure),
	content_hash = excluded.content_hash, structure = excluded.structure`

// Touch implements crawl.State: this run found key unchanged (a 304
// giving lastModified).
func (s *Store) Touch(key, lastModified string) error {
	h, err := s.observe(key, "", "", math.NaN(), lastModified)
	if err != nil {
		return err
	}
	return s.write(s.touch, s.runID, time.Now().UTC().Format(time.RFC3339Nano), h, key)
}

// Requests implements crawl.State: the run has spent n requests so far,
// those of the run it resumes included.
func (s *Store) Requests(n int) error { return s.write(s.requests, n, s.runID) }

// Missing implements crawl.State.
func (s *Store) Missing(key string) (int, time.Time, bool) {
	var status int
	var at string
	if s.read(s.missing, []any{key}, &status, &at) != nil {
		return 0, time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	return status, t, err == nil
}

// SaveMissing implements crawl.State.
func (s *Store) SaveMissing(key string, status int) error {
	return s.write(s.saveMissing, key, status, time.Now().UTC().Format(time.RFC3339Nano))
}

// Counters returns a page's fetch and change counts.
func (s *Store) Counters(key string) (fetches, contentChanges, structureChanges int, err error) {
	err = s.read(s.counters, []any{key}, &fetches, &contentChanges, &structureChanges)
	return
}

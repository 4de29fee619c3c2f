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
//
// The state is a cache of what the wiki and the published runs already
// hold, so it is never a reason to crash or to lie:
//
//   - Open takes a lock beside the file (runs sharing a state are
//     refused with ErrBusy, whatever their output folder), checks the file
//     (SQLite's quick_check), and moves a damaged one aside, starting a
//     fresh state: Store.Damage says what was moved and why.
//   - Every stored copy carries a checksum checked on read: a copy that
//     fails it is missing (fetched again), never used.
//   - A write that fails is counted, never dropped silently: Store.Err
//     says how many writes were lost and why, and the run that sees it is
//     not complete.
package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite"

	"github.com/topicrank/topicrank/internal/access"
)

const schema = `
CREATE TABLE IF NOT EXISTS runs (
	run_id   TEXT PRIMARY KEY,
	started  TEXT NOT NULL,
	finished TEXT,              -- NULL while running, or if the run was killed
	status   TEXT NOT NULL,     -- running, interrupted, complete, partial, failed
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
	history TEXT NOT NULL DEFAULT '', -- JSON revisit.History: visits, changes, intervals
	checksum TEXT NOT NULL DEFAULT '', -- of the stored copy (checksum in pages.go)
	revision INTEGER NOT NULL DEFAULT 0 -- the stored copy's MediaWiki revision id (0: unknown)
);
CREATE TABLE IF NOT EXISTS memory (
	digest TEXT PRIMARY KEY,   -- the topic and extraction settings pages were judged under
	run_id TEXT NOT NULL,      -- the run that began with it
	known  TEXT NOT NULL       -- JSON: key -> crawl.Known, as that run began (memory.go)
);
CREATE TABLE IF NOT EXISTS models (
	digest TEXT PRIMARY KEY,   -- the topic and extraction settings
	run_id TEXT NOT NULL,      -- the complete run that ended with it
	model  BLOB NOT NULL       -- the learned strategy's link model (learn.Learner.Model)
);
CREATE TABLE IF NOT EXISTS vertices (
	digest TEXT PRIMARY KEY,   -- the topic and extraction settings
	run_id TEXT NOT NULL,      -- the complete run whose vertices these are
	keys   TEXT NOT NULL       -- JSON: key -> true if that run admitted it by exploring (memory.go)
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
	StatusFailed      = "failed"      // ended by an error: not resumed
)

// MaxResumeAge bounds how old an interrupted run may be and still be
// resumed: replaying pages fetched long ago would pass stale content off as
// tonight's.
const MaxResumeAge = 12 * time.Hour

// Store is one job's crawl state.
type Store struct {
	path    string
	db      *sql.DB
	lock    *lockFile
	ended   [2]string // the run and status the lock file recorded at Open
	damage  *Damage
	runID   string
	resumes string  // the interrupted run this one continues, or ""
	tick    int     // the revisit clock: this run's tick
	spent   int     // requests spent before this run began (by the run it resumes)
	latest  float64 // the newest Last-Modified date seen this run (days since 1970), under mu

	// Statements are prepared once: preparing on every call was most of
	// a re-crawl's SQLite time.
	load, save, touch, missing, saveMissing, found, counters *sql.Stmt
	history, requests, serverNow                             *sql.Stmt

	// Writes are batched in one transaction (write.go); every use of the
	// one connection goes through mu while it is open.
	mu      sync.Mutex
	tx      *sql.Tx
	began   time.Time // of tx
	writes  int
	lost    int             // writes that never reached the file
	lostErr error           // the first cause
	corrupt error           // the first sign of a damaged file seen while running
	bad     map[string]bool // stored copies that failed their checksum (badcopies.go), under mu
	written map[string]bool // pages this run saved or touched, under mu: Err checks the file has them
}

// Damage describes a state file found damaged and moved aside.
type Damage struct {
	Aside string // where the damaged file now is
	Err   error  // what was wrong with it
}

// Open opens (creating if needed) the state file at path and starts run
// runID in it. If the previous run was killed or interrupted, this run
// resumes it. A damaged file is moved aside and a fresh state started
// (Damage reports it); a state locked by another run is ErrBusy.
func Open(path, runID string) (*Store, error) {
	// Every file of the state at once: fixing only the one SQLite names
	// sends the operator back for the next.
	if err := access.Check(path, path+"-wal", path+"-shm", path+"-journal", path+".lock"); err != nil {
		return nil, fmt.Errorf("crawl state %s: %w", path, err)
	}
	l, err := lock(path)
	if err != nil {
		return nil, err
	}
	var ended [2]string
	ended[0], ended[1] = l.ended()
	s, err := open(path, runID, ended)
	if cause := err; err != nil && unsound(err) {
		var aside string
		if aside, err = moveAside(path, time.Now()); err == nil {
			if s, err = open(path, runID, ended); err == nil {
				s.damage = &Damage{Aside: aside, Err: cause}
			}
		}
	}
	if err == nil {
		if err = l.record(runID, StatusRunning); err != nil {
			s.db.Close()
		}
	}
	if err != nil {
		l.unlock()
		return nil, fmt.Errorf("crawl state %s: %w", path, describe(err))
	}
	s.lock = l
	return s, nil
}

// open opens the file at path, checks it and starts the run.
func open(path, runID string, ended [2]string) (*Store, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a file")
	}
	db, err := sql.Open("sqlite", fileURI(path)+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // SQLite writes one at a time anyway
	s := &Store{path: path, db: db, runID: runID, ended: ended, bad: map[string]bool{}}
	err = s.check()
	if err == nil {
		err = s.begin()
	}
	if err == nil {
		err = s.prepare()
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// fileURI is path as a file: URI for the driver: a '#' or '?' in a
// folder's name would otherwise end the path (and open another file).
func fileURI(path string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
}

// Damage reports the damaged file Open moved aside (nil if none).
func (s *Store) Damage() *Damage { return s.damage }

// Path is the state file's path.
func (s *Store) Path() string { return s.path }

// prepare prepares the statements of s.
func (s *Store) prepare() error {
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.load, `SELECT run_id, fetched_at, etag, last_modified, content_hash, structure, bytes, doc, checksum FROM pages WHERE key = ? AND digest = ?`},
		{&s.history, `SELECT content_hash, structure, history, revision FROM pages WHERE key = ?`},
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

func (s *Store) begin() error {
	var version int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return err
	}
	if err := s.upgrade(version); err != nil {
		return err
	}
	// The last run is the last inserted, whatever the clock said.
	var last, status, started string
	var tick, requests int
	err := s.db.QueryRow(`SELECT run_id, status, started, tick, requests FROM runs ORDER BY rowid DESC LIMIT 1`).
		Scan(&last, &status, &started, &tick, &requests)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		tick, requests = -1, 0
	case err != nil:
		return err
	case (status == StatusRunning || status == StatusInterrupted) && s.ended[0] == last &&
		s.ended[1] != StatusRunning && s.ended[1] != StatusInterrupted:
		// The run ended, but its end never reached the file (a full
		// disk): the lock file has it. It is not resumed.
		if _, err := s.db.Exec(`UPDATE runs SET status = ? WHERE run_id = ?`, s.ended[1], last); err != nil {
			return err
		}
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
	// A run id seen before (a clock stepped back) starts afresh.
	_, err = s.db.Exec(`INSERT INTO runs (run_id, started, status, tick, requests) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (run_id) DO UPDATE SET started = excluded.started, finished = NULL, status = excluded.status,
			tick = excluded.tick, requests = excluded.requests, server_now = 0`,
		s.runID, time.Now().UTC().Format(time.RFC3339Nano), StatusRunning, tick, requests)
	return err
}

// Resumes returns the interrupted run this run continues ("" if none).
func (s *Store) Resumes() string { return s.resumes }

// Finish records how the run ended (StatusInterrupted, StatusFailed, or
// any other word such as "complete") and closes the store. A store that
// showed signs of damage while running is moved aside once closed, so the
// next run starts from a fresh one instead of failing the same way.
func (s *Store) Finish(status string) error {
	s.mu.Lock()
	s.dropBad()
	s.mu.Unlock()
	// The lock file first: its bytes are allocated, so a full disk cannot
	// keep the next run from knowing how this one ended.
	err := s.lock.record(s.runID, status)
	if serr := s.sync(); err == nil {
		err = serr
	}
	if err == nil {
		err = s.exec(`UPDATE runs SET finished = ?, status = ? WHERE run_id = ?`,
			time.Now().UTC().Format(time.RFC3339Nano), status, s.runID)
	}
	if err != nil {
		err = fmt.Errorf("crawl state %s: recording the run's end: %w", s.path, describe(err))
	}
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	if s.corrupt != nil {
		if aside, merr := moveAside(s.path, time.Now()); merr == nil {
			s.damage = &Damage{Aside: aside, Err: s.corrupt}
		}
	}
	if s.lock != nil {
		s.lock.unlock()
		s.lock = nil
	}
	return err
}

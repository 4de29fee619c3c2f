package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"

	"modernc.org/sqlite"
)

// ErrRollback says a state has a journal left by a write that was
// stopped (a kill, a crash, a full disk): SQLite reads the file only once
// the journal is rolled back, which a read-only open cannot do. Nothing
// committed is lost; the next run rolls it back, as Recover does.
var ErrRollback = errors.New("a journal left by a stopped write must be rolled back before the state can be read")

// SQLite's extended result codes for a read-only open that needs to
// write first: a hot rollback journal, a WAL to recover.
const (
	sqliteReadonlyRollback = 776
	sqliteReadonlyRecovery = 264
)

// needsWrite says err is SQLite refusing to read, read-only, a file it
// must first roll back or recover.
func needsWrite(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && (e.Code() == sqliteReadonlyRollback || e.Code() == sqliteReadonlyRecovery)
}

// rollbackError names the journal beside path and what to do.
func rollbackError(path string) error {
	j := path + "-journal"
	if _, err := os.Stat(j); err != nil {
		j = path + "-wal"
	}
	size := int64(-1)
	if fi, err := os.Stat(j); err == nil {
		size = fi.Size()
	}
	return fmt.Errorf("%w: %s (%d bytes); the next run rolls it back, or 'runner verify -repair' does now", ErrRollback, j, size)
}

// Recover rolls back the journal a stopped write left beside the state
// at path (runner verify -repair): it takes the state's lock, so never
// while a run uses it (ErrBusy), and opens the file for writing, which
// makes SQLite roll the journal back. A journal that is not SQLite's
// (random bytes) rolls back nothing and is removed by SQLite.
func Recover(path string) error {
	return locked(path, func(s *Store) error {
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
			return fmt.Errorf("crawl state %s: rolling back its journal: %w", path, describe(err))
		}
		return nil
	})
}

// locked takes the state's lock at path, opens it for writing and calls
// f: the tools that mend a state (Recover, DropBad) never touch one a run
// is using (ErrBusy).
func locked(path string, f func(*Store) error) error {
	l, err := lock(path)
	if err != nil {
		return err
	}
	defer l.unlock()
	db, err := sql.Open("sqlite", fileURI(path)+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	return f(&Store{path: path, db: db})
}

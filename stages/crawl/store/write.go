package store

import (
	"database/sql"
	"fmt"
	"time"
)

// A transaction holds at most batchWrites writes and batchAge of
// crawling. A run killed before a commit loses the state of the pages
// since: the run that resumes it fetches them again (and gives the same
// graph). A commit that fails loses its whole batch: every write of it is
// counted as lost (Err).
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
			return s.failed(1, err)
		}
		s.tx, s.began = tx, time.Now()
	}
	if _, err := s.tx.Stmt(st).Exec(args...); err != nil {
		// SQLite may have rolled the whole transaction back (a full disk
		// does): its earlier writes are lost with this one.
		s.tx.Rollback()
		n := s.writes + 1
		s.tx, s.writes = nil, 0
		return s.failed(n, err)
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

// commit commits the open transaction, if any; s.mu is held.
func (s *Store) commit() error {
	if s.tx == nil {
		return nil
	}
	err := s.tx.Commit()
	n := s.writes
	s.tx, s.writes = nil, 0
	if err != nil {
		return s.failed(n, err)
	}
	return nil
}

// exec runs a statement outside any batch, after committing the batch.
func (s *Store) exec(query string, args ...any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.commit(); err != nil {
		return err
	}
	_, err := s.db.Exec(query, args...)
	s.noteCorrupt(err)
	return err
}

// read runs a query of one row, in the open transaction if there is one,
// and scans it. A damaged file is noted (Finish moves it aside).
func (s *Store) read(st *sql.Stmt, args []any, dest ...any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tx != nil {
		st = s.tx.Stmt(st)
	}
	err := st.QueryRow(args...).Scan(dest...)
	s.noteCorrupt(err)
	return err
}

// failed counts n lost writes and returns their cause, described; s.mu
// is held.
func (s *Store) failed(n int, err error) error {
	s.noteCorrupt(err)
	err = describe(err)
	s.lost += n
	if s.lostErr == nil {
		s.lostErr = err
	}
	return err
}

// noteCorrupt remembers the first error that says the file is damaged.
func (s *Store) noteCorrupt(err error) {
	if err != nil && s.corrupt == nil && isDamage(err) {
		s.corrupt = err
	}
}

// Err reports the writes this run lost (a full disk, a damaged file), or
// nil if every write reached the file. It commits what is pending first,
// so that it counts every write made so far.
//
// It also reads back how many of the pages this run wrote the file holds
// as this run's: a write can vanish without an error (the -wal removed or
// replaced beside the run), and a run must not call itself complete then.
func (s *Store) Err() error {
	s.sync()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lost > 0 {
		return fmt.Errorf("crawl state %s: %d %s lost: %w", s.path, s.lost, plural(s.lost, "write"), s.lostErr)
	}
	if len(s.written) == 0 {
		return nil
	}
	var held int
	if err := s.db.QueryRow(`SELECT count(*) FROM pages WHERE run_id = ?`, s.runID).Scan(&held); err != nil {
		return fmt.Errorf("crawl state %s: reading back this run's pages: %w", s.path, err)
	}
	if held < len(s.written) {
		return fmt.Errorf("crawl state %s: %d of the %d pages this run wrote are not in it (was its -wal removed or replaced while the run wrote?)",
			s.path, len(s.written)-held, len(s.written))
	}
	return nil
}

// Damaged is the error that showed the file damaged while running (nil
// if none); Finish moves such a file aside.
func (s *Store) Damaged() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.corrupt
}

// Rejected is the number of stored copies that failed their checksum this
// run: treated as missing, and dropped when the run ends (badcopies.go).
func (s *Store) Rejected() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bad)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

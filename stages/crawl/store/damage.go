package store

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"modernc.org/sqlite"

	"github.com/topicrank/topicrank/internal/flock"
)

// ErrBusy is returned by Open when another run holds the state.
var ErrBusy = errors.New("the crawl state is in use by another run")

// lockFile is path+".lock": held exclusively while a run uses the state,
// so that two runs never share a state, whatever their output folders
// (the lock dies with the process). It also records the last run's end,
// "<run id> <status>", overwritten in place: a run that cannot record its
// end in the database (a full disk) still records it here, where the
// bytes are already allocated, so the next run does not resume a run
// that failed.
type lockFile struct{ f *os.File }

const endRecord = 64 // bytes: a run id, a status, padding

func lock(path string) (*lockFile, error) {
	f, err := flock.TryLock(path + ".lock")
	if errors.Is(err, flock.ErrHeld) {
		return nil, fmt.Errorf("crawl state %s: %w (its lock %s is held: another run of this job, perhaps with another -out, is under way; wait for it, or give this run a state_dir of its own)",
			path, ErrBusy, path+".lock")
	}
	if err != nil {
		return nil, fmt.Errorf("crawl state %s: %w", path, err)
	}
	return &lockFile{f}, nil
}

// ended returns the run and status the file records ("" if none).
func (l *lockFile) ended() (runID, status string) {
	b := make([]byte, endRecord)
	n, _ := l.f.ReadAt(b, 0)
	fields := strings.Fields(string(b[:n]))
	if len(fields) != 2 {
		return "", ""
	}
	return fields[0], fields[1]
}

// record overwrites the record with runID's status.
func (l *lockFile) record(runID, status string) error {
	b := []byte(fmt.Sprintf("%-*s", endRecord-1, runID+" "+status) + "\n")
	if len(b) != endRecord {
		return fmt.Errorf("run id %q too long", runID)
	}
	if _, err := l.f.WriteAt(b, 0); err != nil {
		return err
	}
	return l.f.Sync()
}

func (l *lockFile) unlock() { l.f.Close() }

// SQLite's primary result codes that say a file is not a sound database.
const (
	sqliteCorrupt = 11
	sqliteFull    = 13
	sqliteNotADB  = 26
)

func code(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code() & 0xff
	}
	return 0
}

// isDamage says whether err shows the file damaged (rather than, say, a
// full disk or a permission problem).
func isDamage(err error) bool {
	var c checkError
	return errors.As(err, &c) || code(err) == sqliteCorrupt || code(err) == sqliteNotADB
}

// unsound says whether an error opening a state shows the file itself
// unsound, so that moving it aside is the cure: any error but those of
// the machine (permissions, a full disk, locks, I/O, memory).
func unsound(err error) bool {
	if isDamage(err) {
		return true
	}
	if errors.Is(err, os.ErrPermission) {
		return false
	}
	switch code(err) {
	case 0, 3, 5, 6, 7, 8, 10, sqliteFull, 14: // PERM BUSY LOCKED NOMEM READONLY IOERR FULL CANTOPEN
		return false
	}
	return true
}

// describe adds what an operator can do to SQLite's terse errors.
func describe(err error) error {
	switch {
	case err == nil:
		return nil
	case code(err) == sqliteFull || errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("the disk is full: %w", err)
	case isDamage(err):
		return fmt.Errorf("the file is damaged: %w", err)
	}
	return err
}

// checkError is a failed quick_check.
type checkError struct{ problems []string }

func (e checkError) Error() string {
	return "integrity check failed: " + strings.Join(e.problems, "; ")
}

// check runs SQLite's quick_check: the b-trees, their pages and records
// are sound (linear in the file's size, a fraction of a second for a
// state of tens of thousands of pages).
func (s *Store) check() error {
	if err := checkHeader(s.path); err != nil {
		return err
	}
	rows, err := s.db.Query(`PRAGMA quick_check(5)`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return err
		}
		if p != "ok" {
			problems = append(problems, p)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		return checkError{problems}
	}
	return nil
}

// checkHeader reads the file format versions in the database header
// (bytes 18 and 19): SQLite writes 1 (legacy) or 2 (WAL). Any other
// write version makes SQLite open the file read-only and any other read
// version refuses it, errors quick_check does not report: the file is
// damaged. A file too short for a header is left to SQLite.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	var v [2]byte
	if _, err := f.ReadAt(v[:], 18); err != nil {
		return nil
	}
	if v[0] < 1 || v[0] > 2 || v[1] < 1 || v[1] > 2 {
		return checkError{[]string{fmt.Sprintf("header: file format versions %d and %d, not 1 or 2", v[0], v[1])}}
	}
	return nil
}

// Check opens the state file at path read-only and reports whether it is
// sound: SQLite's integrity check and every stored copy's checksum. It
// takes no lock and changes nothing (runner verify).
// ErrOlderSchema says a state is sound but of an older schema: the next
// run migrates it (one transaction), keeping every stored copy.
var ErrOlderSchema = errors.New("older schema, migrated on the next run")

func Check(path string) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	s, err := openReadOnly(path)
	if err != nil {
		return err
	}
	defer s.db.Close()
	if err := s.check(); needsWrite(err) {
		return rollbackError(path)
	} else if err != nil {
		return describe(err)
	}
	var version int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return describe(err)
	}
	if version == 0 { // a state being made (a run beside creates it): nothing in it yet
		var tables int
		if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&tables); err == nil && tables == 0 {
			return nil
		}
	}
	if _, older := migrations[version]; older {
		return fmt.Errorf("%w (version %d, this program's is %d)", ErrOlderSchema, version, schemaVersion)
	}
	bad, err := s.verifyAll()
	if err != nil {
		return describe(err)
	}
	if bad > 0 {
		return badCopiesError(bad)
	}
	return nil
}

// moveAside renames a damaged state file (and its WAL and shared-memory
// files) to path.damaged-<time>, out of the way of a fresh one. It never
// deletes: the operator may want to look at it.
func moveAside(path string, now time.Time) (string, error) {
	aside := path + ".damaged-" + now.UTC().Format("20060102T150405.000Z")
	if err := os.Rename(path, aside); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("moving the damaged state aside: %w", err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+suffix, aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("moving the damaged state aside: %w", err)
		}
	}
	return aside, nil
}

// MoveAside moves the state file at path aside (runner verify -repair),
// as Open does with one it finds damaged, and returns where it went. It
// takes the state's lock: a state in use is ErrBusy.
func MoveAside(path string) (string, error) {
	l, err := lock(path)
	if err != nil {
		return "", err
	}
	defer l.unlock()
	return moveAside(path, time.Now())
}

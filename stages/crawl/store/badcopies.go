package store

import (
	"errors"
	"fmt"
	"maps"
)

// A stored copy whose checksum fails is worth nothing: its page cannot be
// trusted, so it is never used (Load, Memory). It is dropped rather than
// kept: by the run that found it, once the run ends, and by
// 'runner verify -repair' (DropBad). Its page is fetched anew on its next
// visit, and its change history starts again there.

// ErrBadCopies says some stored copies failed their checksums; the rest
// of the state is sound and kept.
var ErrBadCopies = errors.New("failed their checksums")

// badCopiesError counts the bad copies and says what becomes of them.
func badCopiesError(n int) error {
	return fmt.Errorf("%d of its stored copies %w: the next run drops those it meets, or 'runner verify -repair' drops them now (each page is fetched anew on its next visit)",
		n, ErrBadCopies)
}

// findBad returns the keys of the stored copies that where (with args)
// selects and whose checksum fails.
func (s *Store) findBad(where string, args ...any) (map[string]bool, error) {
	bad := map[string]bool{}
	err := s.eachStored(where, args, func(r storedRow) error {
		if r.sum != r.checksum() {
			bad[r.key] = true
		}
		return nil
	})
	return bad, err
}

// dropCopies deletes the copies of the pages in bad that still fail their
// checksum (a page stored again since is sound).
func (s *Store) dropCopies(bad map[string]bool) error {
	for key := range bad {
		still, err := s.findBad(`key = ?`, key)
		if err == nil && still[key] {
			_, err = s.db.Exec(`DELETE FROM pages WHERE key = ?`, key)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// noteBad notes the copies stored under digest whose checksum fails, to
// be dropped when the run ends. Memory does this for a resumed run, whose
// memory comes from the run it resumes; s.mu is held.
func (s *Store) noteBad(digest string) error {
	bad, err := s.findBad(`digest = ?`, digest)
	maps.Copy(s.bad, bad)
	return err
}

// dropBad drops the copies this run found bad; s.mu is held. It is
// tidying, not the run's work: a failure (a full disk) leaves them for
// the next run and loses no write of this one.
func (s *Store) dropBad() {
	if len(s.bad) > 0 && s.commit() == nil {
		s.noteCorrupt(s.dropCopies(s.bad))
	}
}

// verifyAll counts the stored copies whose checksum fails.
func (s *Store) verifyAll() (int, error) {
	bad, err := s.findBad(`1`)
	return len(bad), err
}

// DropBad deletes every stored copy at path whose checksum fails, under
// whichever topic it was stored (runner verify -repair), and returns how
// many it dropped. It takes the state's lock, so never while a run uses
// it (ErrBusy).
func DropBad(path string) (int, error) {
	var n int
	err := locked(path, func(s *Store) error {
		bad, err := s.findBad(`1`)
		if err == nil {
			n, err = len(bad), s.dropCopies(bad)
		}
		if err != nil {
			return fmt.Errorf("crawl state %s: dropping the copies that failed their checksums: %w", path, describe(err))
		}
		return nil
	})
	return n, err
}

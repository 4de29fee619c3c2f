// Package flock takes an exclusive lock on a file without waiting: what
// keeps two runs of one job, or two runs on one crawl state, apart. The
// lock dies with the process, so a killed run leaves none behind.
package flock

import (
	"errors"
	"os"
	"syscall"

	"github.com/topicrank/topicrank/internal/access"
)

// ErrHeld says another open file (in this process or another) holds the
// lock.
var ErrHeld = errors.New("the lock is held")

// TryLock opens (creating if needed) the file at path and locks it, or
// returns ErrHeld at once. Closing the file releases the lock.
func TryLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, access.Explain(err, path) // whose it is, and the fix
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrHeld
		}
		return nil, err
	}
	return f, nil
}

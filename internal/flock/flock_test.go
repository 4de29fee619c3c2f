package flock

import (
	"errors"
	"path/filepath"
	"testing"
)

// A held lock is refused at once, and free again once its file closes.
func TestTryLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	f, err := TryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryLock(path); !errors.Is(err, ErrHeld) {
		t.Errorf("a second lock: %v, want ErrHeld", err)
	}
	f.Close()
	g, err := TryLock(path)
	if err != nil {
		t.Fatalf("after the first closed: %v", err)
	}
	g.Close()
	if _, err := TryLock(filepath.Join(t.TempDir(), "no", "such", "x.lock")); err == nil || errors.Is(err, ErrHeld) {
		t.Errorf("a lock in a missing folder: %v", err)
	}
}

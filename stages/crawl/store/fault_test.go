package store

import (
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
)

// bigStored returns a stored copy of 20 links, about 1 KB.
func bigStored(i int) crawl.Stored {
	links := make([]page.Link, 20)
	for j := range links {
		links[j] = page.Link{Key: fmt.Sprintf("/wiki/Page_%d_%d", i, j), Weight: 0.5}
	}
	return crawl.Stored{ETag: fmt.Sprintf(`"e%d"`, i), Hash: fmt.Sprintf("h%d", i), Bytes: 1000,
		Doc: page.Document{Canonical: fmt.Sprintf("/wiki/Page_%d", i), Title: "Page", Structure: uint64(i), Links: links}}
}

// writeState makes a finished state of n pages at path.
func writeState(t testing.TB, path string, n int) {
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := s.Save(fmt.Sprintf("/wiki/Page_%d", i), "d", bigStored(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Finish("complete"); err != nil {
		t.Fatal(err)
	}
}

// A damaged file (cut in half, random bytes at its start or in its
// middle) is moved aside with its time, and the run goes on from a fresh
// state; nothing panics and no call fails for it.
func TestOpenDamagedState(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(b []byte) []byte
	}{
		{"cut in half", func(b []byte) []byte { return b[:len(b)/2] }},
		{"random first 3 KB", func(b []byte) []byte { fill(b[:3072], 1); return b }},
		{"random 64 KiB in the middle", func(b []byte) []byte { fill(b[len(b)/2-32768:len(b)/2+32768], 2); return b }},
		{"not a database", func([]byte) []byte { return []byte("hello, world\n") }},
		// SQLite opens a file whose header's write version it does not
		// know read-only, and refuses one whose read version it does not
		// know; quick_check sees neither (FuzzOpenState found the first).
		{"header's write version 48", func(b []byte) []byte { b[18] = '0'; return b }},
		{"header's read version 3", func(b []byte) []byte { b[19] = 3; return b }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.sqlite")
			writeState(t, path, 400)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) < 256<<10 {
				t.Fatalf("state of %d bytes: too small for the test", len(b))
			}
			os.WriteFile(path, tc.damage(b), 0o644)
			s, err := Open(path, "r2")
			if err != nil {
				t.Fatalf("Open of a damaged state: %v", err)
			}
			d := s.Damage()
			if d == nil || !strings.HasPrefix(d.Aside, path+".damaged-") {
				t.Fatalf("damage = %+v, want the file moved aside", d)
			}
			if _, err := os.Stat(d.Aside); err != nil {
				t.Errorf("the damaged file is not kept: %v", err)
			}
			if _, _, ok := s.Load("/wiki/Page_1", "d"); ok {
				t.Error("a fresh state has a page")
			}
			if err := s.Save("/wiki/New", "d", bigStored(1)); err != nil {
				t.Error(err)
			}
			if _, err := s.Histories(); err != nil {
				t.Error(err)
			}
			if err := s.Finish("complete"); err != nil {
				t.Error(err)
			}
			if err := Check(path); err != nil {
				t.Errorf("the fresh state: %v", err)
			}
		})
	}
}

func fill(b []byte, seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// One byte changed in a stored link list, which SQLite's own checks
// cannot see, makes the copy missing: fetched again, never used. The run
// drops the bad copies it met (through Load or Memory) when it ends and
// keeps a bad copy it stored again; DropBad drops the rest (under any
// topic) and keeps every sound copy.
func TestStoredCopyChecksum(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.sqlite")
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	st := stored("h", 1)
	st.Doc.Links = []page.Link{{Key: "/wiki/Port", Weight: 1}}
	for _, key := range []string{"/wiki/Seattle", "/wiki/Tacoma", "/wiki/Unseen", "/wiki/Elsewhere"} {
		s.Save(key, "d", st)
	}
	s.Save("/wiki/Other", "d", stored("o", 1))
	s.Save("/wiki/Elsewhere", "d2", st) // under another topic
	s.Finish("complete")
	alter := func(keys ...string) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, key := range keys {
			if _, err := db.Exec(`UPDATE pages SET doc = replace(doc, '/wiki/Port', '/wiki/Pork') WHERE key = ?`, key); err != nil {
				t.Fatal(err)
			}
		}
	}
	alter("/wiki/Seattle", "/wiki/Tacoma", "/wiki/Unseen", "/wiki/Elsewhere")
	if err := Check(path); !errors.Is(err, ErrBadCopies) || !strings.HasPrefix(err.Error(), "4 of its stored copies") {
		t.Errorf("Check = %v, want four copies failing", err)
	}

	s, err = Open(path, "r2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Memory("d", 0.25); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.Load("/wiki/Seattle", "d"); ok {
		t.Error("a stored copy that fails its checksum was used")
	}
	if _, _, ok := s.Load("/wiki/Other", "d"); !ok {
		t.Error("a sound copy was refused")
	}
	s.Save("/wiki/Tacoma", "d", st) // fetched anew
	if s.Rejected() != 3 {
		t.Errorf("Rejected = %d, want 3 (Seattle, Tacoma, Unseen)", s.Rejected())
	}
	s.Finish("complete")
	if err := Check(path); err == nil || !strings.HasPrefix(err.Error(), "1 of its stored copies") {
		t.Errorf("Check = %v, want only the copy under the other topic failing", err)
	}
	if n, err := DropBad(path); n != 1 || err != nil {
		t.Errorf("DropBad = %d, %v; want 1", n, err)
	}
	if err := Check(path); err != nil {
		t.Errorf("Check after DropBad = %v", err)
	}
	s, err = Open(path, "r3")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Finish("complete")
	for key, want := range map[string]bool{"/wiki/Seattle": false, "/wiki/Unseen": false, "/wiki/Tacoma": true, "/wiki/Other": true} {
		if _, _, ok := s.Load(key, "d"); ok != want {
			t.Errorf("%s stored: %v, want %v", key, ok, want)
		}
	}
	if _, _, ok := s.Load("/wiki/Elsewhere", "d2"); ok {
		t.Error("the bad copy under another topic was kept")
	}
}

// A second run on the same state is refused while the first holds it.
func TestStateLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.sqlite")
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, "r2"); !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), path) {
		t.Errorf("second Open: %v, want ErrBusy naming the file", err)
	}
	s.Finish("complete")
	s, err = Open(path, "r3")
	if err != nil {
		t.Fatalf("after the first finished: %v", err)
	}
	if s.Resumes() != "" {
		t.Errorf("resumes %q", s.Resumes())
	}
	s.Finish("complete")
}

// A full disk loses writes; every one is counted and the cause named.
func TestFullDiskCountsLostWrites(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v", err)
	}
	defer syscall.Unmount(dir, 0)
	path := filepath.Join(dir, "state.sqlite")
	filler := filepath.Join(dir, "filler")
	if err := os.WriteFile(filler, make([]byte, 64<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for i := range 1000 {
		if err := s.Save(fmt.Sprintf("/wiki/Page_%d", i), "d", bigStored(i)); err != nil {
			failed++
		}
	}
	err = s.Err()
	if err == nil || !strings.Contains(err.Error(), "disk is full") || !strings.Contains(err.Error(), path) {
		t.Fatalf("Err = %v, want the disk full, naming the file", err)
	}
	if failed == 0 || s.lost < failed {
		t.Errorf("%d Saves failed but %d writes counted lost", failed, s.lost)
	}
	s.Finish(StatusFailed)
	// What the state kept is whole, and the run is not resumed.
	os.Remove(filler)
	if err := Check(path); err != nil {
		t.Errorf("after a full disk: %v", err)
	}
	s, err = Open(path, "r2")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Finish("complete")
	var status string
	s.db.QueryRow(`SELECT status FROM runs WHERE run_id = 'r1'`).Scan(&status)
	if s.Resumes() != "" || status != StatusFailed {
		t.Errorf("after a failed run: resumes %q, its status %q", s.Resumes(), status)
	}
}

// A run whose end reached the lock file but not the database (the
// database's write failed on a full disk) is not resumed; a killed run,
// whose lock file still says running, is.
func TestEndInLockFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.sqlite")
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	s.Save("/wiki/A", "d", stored("a", 1))
	s.sync()
	s.lock.record("r1", StatusFailed) // Finish's first step; the rest failed
	kill(s)
	if s, err = Open(path, "r2"); err != nil {
		t.Fatal(err)
	}
	if s.Resumes() != "" {
		t.Errorf("a failed run is resumed")
	}
	kill(s) // killed: the lock file says r2 running
	if s, err = Open(path, "r3"); err != nil {
		t.Fatal(err)
	}
	defer s.Finish("complete")
	if s.Resumes() != "r2" {
		t.Errorf("a killed run is not resumed: resumes %q", s.Resumes())
	}
}

// A folder named with '#' or '?' (a URI's fragment and query) holds its
// own state: the driver's file: URI once stopped at them and opened
// another file.
func TestStatePathWithURIMarks(t *testing.T) {
	base := t.TempDir()
	for _, dir := range []string{"a#1", "b?x=1", "c%41"} {
		path := filepath.Join(base, dir, "state.sqlite")
		os.MkdirAll(filepath.Dir(path), 0o755)
		writeState(t, path, 2)
		if err := Check(path); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
	}
	for _, stray := range []string{"a", "b", "cA"} {
		if _, err := os.Stat(filepath.Join(base, stray)); err == nil {
			t.Errorf("a state was written to %s", stray)
		}
	}
}

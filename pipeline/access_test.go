package pipeline

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/internal/nobody"
	"github.com/topicrank/topicrank/stages/crawl/store"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// A job lock another user owns (root, from a run as root) is refused
// with its owner, its mode and the command that fixes it, not only
// "permission denied".
func TestJobLockOfAnotherUser(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "job")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777) // past the umask: only the lock is not writable
	lock := filepath.Join(dir, lockFile)
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	nobody.Reachable(t, dir)
	out := nobody.Run(t, "TestJobLockChild", dir, dir)
	for _, want := range []string{lock + " (owner uid 0", "-rw-r--r--", "chown 65534:65534", "or run as uid 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out)
		}
	}
}

// TestJobLockChild is TestJobLockOfAnotherUser's child, run as nobody.
func TestJobLockChild(t *testing.T) {
	dir, ok := nobody.Arg()
	if !ok {
		t.Skip("the child of TestJobLockOfAnotherUser")
	}
	if _, err := lockJob(dir); err != nil {
		fmt.Println("lock:", err)
	} else {
		t.Fatal("locked a file this user may not write")
	}
}

// An output folder another user owns names the folder a run would have
// to write (the one that exists), its owner and mode, and the chown.
func TestOutputFolderOfAnotherUser(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o777) // for the child's copy of the test binary
	outputs := filepath.Join(dir, "outputs")
	if err := os.Mkdir(outputs, 0o755); err != nil {
		t.Fatal(err)
	}
	nobody.Reachable(t, dir)
	out := nobody.Run(t, "TestOutputFolderChild", filepath.Join(outputs, "tennis"), dir)
	for _, want := range []string{outputs + "/tennis is not writable by uid 65534", outputs + " (owner uid 0", "drwxr-xr-x", "chown 65534:65534"} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out)
		}
	}
}

// TestOutputFolderChild is TestOutputFolderOfAnotherUser's child, run as
// nobody.
func TestOutputFolderChild(t *testing.T) {
	dir, ok := nobody.Arg()
	if !ok {
		t.Skip("the child of TestOutputFolderOfAnotherUser")
	}
	if err := Writable(dir, "output folder"); err != nil {
		fmt.Println("writable:", err)
	} else {
		t.Fatal("a folder this user may not make passed")
	}
}

// Random bytes in the state's -journal (a write stopped mid-way leaves a
// journal): verify says so as a note, not "readonly database" nor
// damage; -repair rolls it back, and the state, with every stored page,
// stays where it is.
func TestVerifyJournalLeftBehind(t *testing.T) {
	w := wikitest.New(t, 60)
	r := testRunner(t, w.URL())
	if _, err := r.Run(context.Background(), testJob("tennis", 20)); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(r.OutDir, "tennis", stateFile)
	stored := storedPages(t, state)
	journal := make([]byte, 4096)
	rand.Read(journal)
	if err := os.WriteFile(state+"-journal", journal, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Verify(r.OutDir, "tennis", state, false, r.Log)
	if err != nil || len(f) != 1 || !f[0].Note || !strings.Contains(f[0].Problem, state+"-journal") ||
		!strings.Contains(f[0].Problem, "verify -repair") || damage(f) {
		t.Fatalf("verify: %+v, %v", f, err)
	}
	f, err = Verify(r.OutDir, "tennis", state, true, r.Log)
	if err != nil || len(f) != 1 || f[0].Repaired != "journal rolled back" || damage(f) {
		t.Fatalf("verify -repair: %+v, %v", f, err)
	}
	if err := store.Check(state); err != nil {
		t.Errorf("after the roll-back: %v", err)
	}
	if aside, _ := filepath.Glob(state + ".damaged-*"); len(aside) != 0 {
		t.Errorf("the state was moved aside: %q", aside)
	}
	if n := storedPages(t, state); n != stored || n == 0 {
		t.Errorf("%d stored pages after the roll-back, %d before", n, stored)
	}
}

// storedPages counts the pages a crawl state holds.
func storedPages(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM pages`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

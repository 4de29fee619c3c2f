package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/internal/nobody"
)

// A state this user may not write is refused with every file of it
// named, each with its owner and mode, and the command that fixes them
// (issue: only the main file was named, and SQLite had made the -wal
// read-only too).
func TestOpenNamesEveryUnwritableFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.sqlite")
	s, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	s.Finish("complete")
	if err := os.WriteFile(path+"-wal", nil, 0o644); err != nil { // as a run killed mid-way leaves it
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777) // the folder is writable: only the files are not
	nobody.Reachable(t, dir)
	out := nobody.Run(t, "TestOpenUnwritableChild", path, dir)
	for _, want := range []string{
		path + " (owner uid 0", path + "-wal (owner uid 0", path + ".lock (owner uid 0", "-rw-r--r--",
		"this process (uid 65534", "chown 65534:65534", "or run as uid 0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out)
		}
	}
}

// TestOpenUnwritableChild is TestOpenNamesEveryUnwritableFile's child,
// run as nobody: it prints what Open says.
func TestOpenUnwritableChild(t *testing.T) {
	path, ok := nobody.Arg()
	if !ok {
		t.Skip("the child of TestOpenNamesEveryUnwritableFile")
	}
	_, err := Open(path, "r2")
	if err == nil {
		t.Fatal("opened a state this user may not write")
	}
	fmt.Println("open:", err)
}

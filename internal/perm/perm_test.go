package perm

import (
	"os"
	"path/filepath"
	"testing"
)

// A private folder (0700, as bleve and os.MkdirTemp make them) and its
// files take the parent's permissions.
func TestLike(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "run")
	os.Mkdir(parent, 0o750)
	os.Chmod(parent, 0o750)
	private, err := os.MkdirTemp(parent, "index-")
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(private, "store"), 0o700)
	os.WriteFile(filepath.Join(private, "store", "seg.zap"), []byte("x"), 0o600)
	if err := Like(private); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		private: 0o750, filepath.Join(private, "store"): 0o750, filepath.Join(private, "store", "seg.zap"): 0o640,
	} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", path, fi.Mode().Perm(), err, want)
		}
	}
}

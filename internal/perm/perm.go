// Package perm gives folders that libraries create private (bleve's
// index, os.MkdirTemp) the permissions of the folder that holds them, so
// that every file of a published run is as readable as the rest of it:
// another user (a host user reading what a container wrote) can read it
// where they can read the run.
package perm

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Like gives root and everything under it the permissions of root's
// parent folder: folders its mode, files its mode without execute bits.
func Like(root string) error {
	fi, err := os.Stat(filepath.Dir(root))
	if err != nil {
		return err
	}
	dirMode := fi.Mode().Perm()
	fileMode := dirMode &^ 0o111
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(path, dirMode)
		}
		return os.Chmod(path, fileMode)
	})
}

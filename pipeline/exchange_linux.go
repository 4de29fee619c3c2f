package pipeline

import "golang.org/x/sys/unix"

// exchange swaps two directories in one step (renameat2 RENAME_EXCHANGE):
// a reader sees one or the other at each path, never neither.
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

//go:build !linux

package pipeline

import "os"

// exchange swaps two directories. Without Linux's RENAME_EXCHANGE it takes
// two renames: for a moment neither is at b.
func exchange(a, b string) error {
	tmp := b + ".swap"
	if err := os.Rename(b, tmp); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		os.Rename(tmp, b)
		return err
	}
	return os.Rename(tmp, a)
}

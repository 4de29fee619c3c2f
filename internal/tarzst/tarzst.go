// Package tarzst walks a zstd-compressed tar archive, the form of the
// 2018 Wikipedia corpus and of the demo's snapshot.
package tarzst

import (
	"archive/tar"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Walk calls f with the name and contents of each entry of the archive r,
// in archive order; an error from f, or from reading, ends the walk. f
// reads what it wants of the contents before it returns.
func Walk(r io.Reader, f func(name string, contents io.Reader) error) error {
	zr, err := zstd.NewReader(r)
	if err != nil {
		return err
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(h.Name, tr); err != nil {
			return err
		}
	}
}

// Package decompress reads gzip and zstd streams with what they may cost
// bounded, whatever they hold: their expansion (a compression bomb
// expands a million-fold, and reading it would take unbounded time) and
// zstd's window (the memory decoding takes). A truncated stream is named
// for what it is. Edge lists (rank -graph) and Wikipedia's SQL dumps
// (rank -dump) are read through it.
package decompress

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

const (
	// MaxExpansion and Floor are a Reader's default bound: past Floor
	// bytes, the decompressed stream may be at most MaxExpansion times
	// what was read compressed. Edge lists and SQL dumps compress 4 to
	// 20-fold.
	MaxExpansion = 1000
	Floor        = 256 << 20
	// MaxZstdWindow bounds a zstd frame's window (the format asks
	// decoders to accept at least 8 MiB; writers at fast levels use less).
	MaxZstdWindow = 128 << 20
)

// Format names the compression an input's first bytes announce: "gzip",
// "zstd" or "" for none.
func Format(magic []byte) string {
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		return "gzip"
	case len(magic) >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd:
		return "zstd"
	}
	return ""
}

// A Reader reads a compressed stream's decompressed bytes, failing once
// they exceed Floor and Ratio times the compressed bytes read.
type Reader struct {
	Floor, Ratio int64 // the expansion bound: Floor and MaxExpansion unless changed

	format string // "gzip" or "zstd", for messages
	what   string // what the stream holds, for messages ("an edge list")
	r      io.Reader
	in     *countingReader
	out    int64
	close  func()
}

// NewReader returns a Reader of r, compressed in format ("gzip" or
// "zstd"). what names what the stream should hold, for the error a bomb
// gets ("an edge list").
func NewReader(r io.Reader, format, what string) (*Reader, error) {
	d := &Reader{Floor: Floor, Ratio: MaxExpansion, format: format, what: what, in: &countingReader{r: r}, close: func() {}}
	switch format {
	case "gzip":
		z, err := gzip.NewReader(d.in)
		if err != nil {
			return nil, fmt.Errorf("not gzip: %w", err)
		}
		d.r = z
	case "zstd":
		// A frame may ask for a window of any size: refuse those past
		// what a writer would use, so that memory stays bounded.
		z, err := zstd.NewReader(d.in, zstd.WithDecoderMaxWindow(MaxZstdWindow))
		if err != nil {
			return nil, err
		}
		d.r, d.close = z.IOReadCloser(), z.Close
	default:
		return nil, fmt.Errorf("unknown compression %q", format)
	}
	return d, nil
}

func (d *Reader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.out += int64(n)
	if in := d.in.n.Load(); d.out > d.Floor && d.out > d.Ratio*in {
		return n, fmt.Errorf("%s input expands more than %d-fold (%d MiB from %d KiB): not %s (a compression bomb?)",
			d.format, d.Ratio, d.out>>20, in>>10, d.what)
	}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = fmt.Errorf("the %s stream is truncated (unexpected end of input)", d.format)
	case errors.Is(err, zstd.ErrWindowSizeExceeded):
		err = fmt.Errorf("the zstd stream asks for a window over %d MiB, more memory than reading %s may take: recompress it at a lower level",
			MaxZstdWindow>>20, d.what)
	}
	return n, err
}

// Counts returns the compressed bytes read so far (some perhaps not yet
// decoded) and the decompressed bytes given.
func (d *Reader) Counts() (in, out int64) { return d.in.n.Load(), d.out }

// Close releases the decoder (zstd's goroutines); it does not close the
// underlying reader.
func (d *Reader) Close() error {
	d.close()
	return nil
}

// countingReader counts what a decompressor has read. The count is
// atomic: zstd's decoder reads ahead from goroutines of its own.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

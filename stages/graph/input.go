package graph

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

// Guards on what an input may cost, whatever it holds.
const (
	// maxExpansion and expansionFloor bound decompression: past
	// expansionFloor bytes, the decompressed stream may be at most
	// maxExpansion times what was read compressed. Edge lists compress 4
	// to 20-fold; a gzip or zstd bomb expands a million-fold.
	maxExpansion   = 1000
	expansionFloor = 256 << 20
)

// OpenInput opens an edge-list input for ReadEdgeList: path "-" is stdin,
// gzip- or zstd-compressed input (SNAP ships .txt.gz; rank -out writes
// graph.txt.gz or graph.txt.zst when asked) is decompressed as it is
// read, with its expansion bounded, and reading stops with ctx's error
// once ctx is done (SIGINT, SIGTERM). A plain file comes back as the
// *os.File itself when ctx can never be done, so that ReadEdgeList can
// report progress against its size.
func OpenInput(ctx context.Context, path string, stdin io.Reader) (io.Reader, func() error, error) {
	var r io.Reader
	var magic []byte
	closeInput := func() error { return nil }
	if path == "-" {
		br := bufio.NewReader(stdin)
		r = br
		magic, _ = br.Peek(4)
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		magic = make([]byte, 4)
		n, _ := f.ReadAt(magic, 0)
		r, magic, closeInput = f, magic[:n], f.Close
	}
	format := compression(magic)
	if format == "" {
		return watch(ctx, r), closeInput, nil
	}
	counted := &countingReader{r: r}
	var zr io.Reader
	var err error
	switch format {
	case "gzip":
		zr, err = gzip.NewReader(counted)
	case "zstd":
		var d *zstd.Decoder
		// A frame may ask for a window of any size: refuse those past
		// what a writer would use, so that memory stays bounded.
		d, err = zstd.NewReader(counted, zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err == nil {
			zr = d.IOReadCloser()
			inner := closeInput
			closeInput = func() error { d.Close(); return inner() }
		}
	}
	if err != nil {
		closeInput()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return watch(ctx, &decompressed{format: format, r: zr, in: counted, floor: expansionFloor, ratio: maxExpansion}), closeInput, nil
}

// maxZstdWindow bounds a zstd frame's window, the memory decoding it
// takes (the format asks decoders to accept at least 8 MiB; writers at
// fast levels use less).
const maxZstdWindow = 128 << 20

// compression names the compression an input's first bytes announce:
// "gzip", "zstd" or "" for none.
func compression(magic []byte) string {
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		return "gzip"
	case len(magic) >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd:
		return "zstd"
	}
	return ""
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

// decompressed bounds the expansion of a compressed stream and names a
// truncated one for what it is.
type decompressed struct {
	format       string // "gzip" or "zstd", for messages
	r            io.Reader
	in           *countingReader
	out          int64
	floor, ratio int64
}

func (d *decompressed) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.out += int64(n)
	if in := d.in.n.Load(); d.out > d.floor && d.out > d.ratio*in {
		return n, fmt.Errorf("%s input expands more than %d-fold (%d MiB from %d KiB): not an edge list (a compression bomb?)",
			d.format, d.ratio, d.out>>20, in>>10)
	}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = fmt.Errorf("the %s stream is truncated (unexpected end of input)", d.format)
	case errors.Is(err, zstd.ErrWindowSizeExceeded):
		err = fmt.Errorf("the zstd stream asks for a window over %d MiB, more memory than reading an edge list may take: recompress it at a lower level", maxZstdWindow>>20)
	}
	return n, err
}

// watch returns r, made to fail with ctx's error once ctx is done.
func watch(ctx context.Context, r io.Reader) io.Reader {
	if ctx.Done() == nil {
		return r
	}
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, fmt.Errorf("interrupted: %w", err)
	}
	return c.r.Read(p)
}

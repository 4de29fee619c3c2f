package graph

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/topicrank/topicrank/internal/decompress"
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
	format := decompress.Format(magic)
	if format == "" {
		return watch(ctx, r), closeInput, nil
	}
	d, err := decompress.NewReader(r, format, "an edge list")
	if err != nil {
		closeInput()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	closeAll := func() error { d.Close(); return closeInput() }
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return watch(ctx, &compressedFile{d, fi.Size()}), closeAll, nil
		}
	}
	return watch(ctx, d), closeAll, nil
}

// compressedFile is a compressed file being decompressed. How much of
// the file gave how many bytes tells how many the whole will give, so
// that the reader can reserve its edge arrays once, as for a plain file:
// grown as they are read instead, they were copied and, for a moment,
// held twice (3.9 GB instead of 2.3 for a graph of 155 M edges).
type compressedFile struct {
	*decompress.Reader
	size int64
}

// expectedSize returns the decompressed size the whole file is likely to
// have, or 0 until 256 MB have come out of it: decoders read ahead (zstd's
// by megabytes, on goroutines of its own), which early on makes the ratio
// look smaller than it is. 10% more than the ratio says, for it varies
// along a file, and room never used costs address space, not memory.
func (c *compressedFile) expectedSize(int64) int64 {
	in, out := c.Counts()
	if out < 256<<20 || in == 0 {
		return 0
	}
	return int64(float64(out) / float64(in) * float64(c.size) * 1.10)
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

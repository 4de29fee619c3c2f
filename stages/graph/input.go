package graph

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// Guards on what an input may cost, whatever it holds.
const (
	// maxExpansion and expansionFloor bound gzip: past expansionFloor
	// bytes, the decompressed stream may be at most maxExpansion times
	// what was read compressed. Edge lists compress 4 to 20-fold; a gzip
	// bomb expands a million-fold.
	maxExpansion   = 1000
	expansionFloor = 256 << 20
)

// OpenInput opens an edge-list input for ReadEdgeList: path "-" is stdin,
// gzip-compressed input (SNAP ships .txt.gz) is decompressed as it is
// read, with its expansion bounded, and reading stops with ctx's error
// once ctx is done (SIGINT, SIGTERM). A plain file comes back as the
// *os.File itself when ctx can never be done, so that ReadEdgeList can
// report progress against its size.
func OpenInput(ctx context.Context, path string, stdin io.Reader) (io.Reader, func() error, error) {
	var r io.Reader
	closeInput := func() error { return nil }
	if path == "-" {
		br := bufio.NewReader(stdin)
		r = br
		if magic, _ := br.Peek(2); !isGzip(magic) {
			return watch(ctx, r), closeInput, nil
		}
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		magic := make([]byte, 2)
		if n, _ := f.ReadAt(magic, 0); !isGzip(magic[:n]) {
			return watch(ctx, f), f.Close, nil
		}
		r, closeInput = f, f.Close
	}
	counted := &countingReader{r: r}
	zr, err := gzip.NewReader(counted)
	if err != nil {
		closeInput()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return watch(ctx, &gunzipReader{zr: zr, in: counted, floor: expansionFloor, ratio: maxExpansion}), closeInput, nil
}

func isGzip(magic []byte) bool { return len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b }

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// gunzipReader bounds the expansion of a gzip stream and names a
// truncated one for what it is.
type gunzipReader struct {
	zr           *gzip.Reader
	in           *countingReader
	out          int64
	floor, ratio int64
}

func (g *gunzipReader) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	g.out += int64(n)
	if g.out > g.floor && g.out > g.ratio*g.in.n {
		return n, fmt.Errorf("gzip input expands more than %d-fold (%d MiB from %d KiB): not an edge list (a gzip bomb?)",
			g.ratio, g.out>>20, g.in.n>>10)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("the gzip stream is truncated (unexpected end of input)")
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

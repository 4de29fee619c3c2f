package graph

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// pipe yields n bytes of c in 64 KiB reads, as a pipe does, and counts
// what was taken from it.
type pipe struct {
	c    byte
	left int64
	read int64
}

func (p *pipe) Read(b []byte) (int, error) {
	if p.left == 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(b)), 64<<10, p.left))
	for i := range n {
		b[i] = p.c
	}
	p.left -= int64(n)
	p.read += int64(n)
	return n, nil
}

// Hostile inputs end with a clear error after reading little: a line with
// no end (a 128 MB one from a pipe, or /dev/zero), a header far beyond
// the edges.
func TestHostileInputs(t *testing.T) {
	long := &pipe{c: 'a', left: 128 << 20}
	_, _, err := ReadEdgeList(long, ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "line 1: longer than") || long.read > 3*MaxLine {
		t.Errorf("128 MB line: %v after reading %d bytes", err, long.read)
	}
	long = &pipe{c: 'a', left: 128 << 20}
	_, _, err = ReadEdgeList(io.MultiReader(strings.NewReader("3\na b\n"), long), ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "line 3: longer than") || long.read > 3*MaxLine {
		t.Errorf("long edge line: %v after reading %d bytes", err, long.read)
	}
	for _, in := range []string{"4000000000\n", "100000000\na b\nb c\n"} {
		_, _, err := ReadEdgeList(strings.NewReader(in), ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), "the header says") {
			t.Errorf("%q: err = %v, want the header refused", in, err)
		}
		g, st, err := ReadEdgeList(strings.NewReader(in), ReadOptions{Lenient: true})
		if err != nil || !st.HeaderIgnored || g.NumVertices() > 3 {
			t.Errorf("%q with Lenient: %v, %+v", in, err, st)
		}
	}
	// A header a little above the names gives isolated vertices, as before.
	if g, _, err := ReadEdgeList(strings.NewReader("5\na b\n"), ReadOptions{}); err != nil || g.NumVertices() != 5 {
		t.Errorf("isolated vertices: %v", err)
	}
}

// A gzip bomb stops at the expansion bound; a truncated stream says so
// (not "vertex beyond the header"); a done context stops reading.
func TestInputGuards(t *testing.T) {
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zw.Write([]byte("1000\n"))
	for range 1 << 10 {
		zw.Write(bytes.Repeat([]byte("a b\n"), 1<<14)) // 64 MiB in all
	}
	zw.Close()
	counted := &countingReader{r: bytes.NewReader(bomb.Bytes())}
	zr, _ := gzip.NewReader(counted)
	_, _, err := ReadEdgeList(&gunzipReader{zr: zr, in: counted, floor: 1 << 20, ratio: 100}, ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "expands more than 100-fold") {
		t.Errorf("bomb: %v", err)
	}

	var gz bytes.Buffer
	zw = gzip.NewWriter(&gz)
	zw.Write([]byte("2\na b\nb a\n"))
	zw.Close()
	for cut := 12; cut < gz.Len(); cut++ {
		r, done, err := OpenInput(context.Background(), "-", bytes.NewReader(gz.Bytes()[:cut]))
		if err != nil {
			continue // the header itself is cut
		}
		_, _, err = ReadEdgeList(r, ReadOptions{})
		done()
		if err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("cut at %d of %d: %v, want a truncated gzip stream", cut, gz.Len(), err)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, done, err := OpenInput(ctx, "-", strings.NewReader("2\na b\n"))
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if _, _, err := ReadEdgeList(r, ReadOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

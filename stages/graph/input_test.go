package graph

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/topicrank/topicrank/internal/decompress"
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

// compressors make gzip and zstd streams, as SNAP ships edge lists and
// rank -out -edge-list gzip|zstd writes them.
var compressors = map[string]func(w io.Writer, best bool) io.WriteCloser{
	"gzip": func(w io.Writer, best bool) io.WriteCloser {
		zw, _ := gzip.NewWriterLevel(w, map[bool]int{false: gzip.DefaultCompression, true: gzip.BestCompression}[best])
		return zw
	},
	"zstd": func(w io.Writer, best bool) io.WriteCloser {
		zw, _ := zstd.NewWriter(w, zstd.WithEncoderLevel(map[bool]zstd.EncoderLevel{false: zstd.SpeedFastest, true: zstd.SpeedBestCompression}[best]))
		return zw
	},
}

// OpenInput reads gzip and zstd through internal/decompress: a bomb
// stops at the expansion bound; a truncated stream says so; either
// format is read as it is; a done context stops reading.
func TestInputGuards(t *testing.T) {
	for format, compress := range compressors {
		var bomb bytes.Buffer
		zw := compress(&bomb, true)
		zw.Write([]byte("1000\n"))
		for range 1 << 10 {
			zw.Write(bytes.Repeat([]byte("a b\n"), 1<<14)) // 64 MiB in all
		}
		zw.Close()
		r, done, err := OpenInput(context.Background(), "-", bytes.NewReader(bomb.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		d := r.(*decompress.Reader)
		d.Floor, d.Ratio = 1<<20, 100
		_, _, err = ReadEdgeList(r, ReadOptions{})
		done()
		if err == nil || !strings.Contains(err.Error(), format+" input expands more than 100-fold") {
			t.Errorf("%s bomb: %v", format, err)
		}

		var z bytes.Buffer
		zw = compress(&z, false)
		zw.Write([]byte("3\na b\nb a\nc a\n"))
		zw.Close()
		r, done, err = OpenInput(context.Background(), "-", bytes.NewReader(z.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := ReadEdgeList(r, ReadOptions{})
		done()
		if err != nil || g.NumEdges() != 3 || g.Name(2) != "c" {
			t.Errorf("%s: %v", format, err)
		}
		// Cut short, it says so through ReadEdgeList (not "vertex beyond
		// the header"); internal/decompress tests every cut.
		r, done, err = OpenInput(context.Background(), "-", bytes.NewReader(z.Bytes()[:z.Len()-4]))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = ReadEdgeList(r, ReadOptions{})
		done()
		if err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("%s cut short: %v, want a truncated stream", format, err)
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

// A compressed file's decompressed size is unknown until read; once 256
// MB have come out, the reader's estimate is within its margin of the
// truth, in both formats, so the edge arrays are reserved once.
func TestCompressedFileExpectedSize(t *testing.T) {
	if testing.Short() {
		t.Skip("compresses 280 MB")
	}
	var plain bytes.Buffer
	for i := 0; plain.Len() < 280<<20; i++ {
		fmt.Fprintf(&plain, "/wiki/Article_%d /wiki/Article_%d\n", i*7919%1000003, i%65537)
	}
	gz, zs := new(bytes.Buffer), new(bytes.Buffer)
	zw := gzip.NewWriter(gz)
	zw.Write(plain.Bytes())
	zw.Close()
	ze, _ := zstd.NewWriter(zs, zstd.WithEncoderLevel(zstd.SpeedFastest))
	ze.Write(plain.Bytes())
	ze.Close()
	for name, data := range map[string][]byte{"gzip": gz.Bytes(), "zstd": zs.Bytes()} {
		path := filepath.Join(t.TempDir(), "g."+name)
		os.WriteFile(path, data, 0o644)
		r, closeInput, err := OpenInput(context.Background(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		size := inputSize(r)
		buf := make([]byte, 1<<20)
		read := int64(0)
		for read < 256<<20 {
			if size(read) != 0 {
				t.Fatalf("%s: an estimate after only %d MB", name, read>>20)
			}
			n, _ := io.ReadFull(r, buf)
			read += int64(n)
		}
		io.ReadFull(r, buf) // decoders read ahead: one more read past the threshold
		got, want := size(read), int64(plain.Len())
		if float64(got) < 1.0*float64(want) || float64(got) > 1.2*float64(want) {
			t.Errorf("%s: expected %d MB, want %d MB to 1.2 times that", name, got>>20, want>>20)
		}
		closeInput()
	}
}

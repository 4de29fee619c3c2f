package graph

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/topicrank/topicrank/internal/names"
)

// ReadOptions control how an edge-list file is read.
type ReadOptions struct {
	// Lenient accepts vertices beyond the header's count instead of
	// failing, and ignores a header that names far more vertices than the
	// edges do (see MaxIsolated).
	Lenient bool
	// NoHeader reads lists without a vertex-count line (SNAP, Wikispeedia):
	// the vertex count is the number of distinct names.
	NoHeader bool
	// Progress, if set, is called with the bytes parsed so far and the
	// total, every few megabytes and once at the end, when the input is a
	// regular file of more than a few megabytes. It is called on
	// ReadEdgeList's goroutine, between windows of the input.
	Progress func(done, total int64)
}

// ReadStats describes what ReadEdgeList saw besides the graph itself.
type ReadStats struct {
	Lines      int // edge lines read
	Duplicates int // repeated edges, dropped
	SelfLoops  int // u u lines, dropped (a crawl never records them either)
	Header     int // the header's vertex count (-1 without a header)
	Unnamed    int // header vertices never mentioned by an edge
	// HeaderIgnored: with Lenient, a header beyond MaxIsolated was
	// ignored and the vertex count is the number of names.
	HeaderIgnored bool
}

// MaxIsolated bounds how many more vertices a header may name than the
// edges do (vertices without edges): as many as the edges name, or a
// million, whichever is more. An 11-byte file whose header says four
// billion would otherwise take the memory of four billion vertices.
func MaxIsolated(named int) int { return max(named, 1<<20) }

// SyntaxError reports a malformed line of an edge-list file.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ReadEdgeList reads the edge-list format: a first line with the number of
// vertices, then one "u v" edge per line. Lines may end in LF, CRLF or CR
// alone; trailing blanks, blank lines, a UTF-8 BOM and comment lines (whose
// first character after any blanks is '#') are ignored. Vertex names are
// taken literally.
//
// When the header names more vertices than the edges mention, the rest are
// isolated vertices named "#<id>" so that PageRank sees the header's N.
//
// The input is read a few megabytes at a time and parsed on every core
// (see edgeReader): memory holds each distinct name once and the edges,
// never the whole file.
func ReadEdgeList(r io.Reader, opt ReadOptions) (*Graph, ReadStats, error) {
	return readEdgeList(r, opt, sizes{windowSize, pieceSize, progressStep})
}

// sizes are the reader's units of work and progress; tests make them
// tiny.
type sizes struct {
	window, piece int
	progress      int64 // bytes between progress calls
}

func readEdgeList(r io.Reader, opt ReadOptions, sz sizes) (*Graph, ReadStats, error) {
	st := ReadStats{Header: -1}
	lr := newLineReader(r, chunkSize)
	if !opt.NoHeader {
		var err error
		if st.Header, err = header(lr); err != nil {
			return nil, st, err
		}
	}
	size := inputSize(r)
	er := newEdgeReader(st.Header, opt.Lenient, lr.lineNo, size)
	er.pieceSize = sz.piece
	err := er.readAll(newWindowReader(lr, sz.window), progress(opt.Progress, size(0), sz.progress)) // progress against a plain file's size
	st.Lines = len(er.src)
	if err != nil {
		return nil, st, err
	}
	Release(len(er.src)) // what the tables' growth left behind
	names, src, dst := er.finish(st.Header)
	if st.Header > len(names)+MaxIsolated(len(names)) {
		if !opt.Lenient {
			return nil, st, &SyntaxError{1, fmt.Sprintf("the header says %d vertices but the edges name %d: check the count (or pass -lenient to ignore it)", st.Header, len(names))}
		}
		st.HeaderIgnored, st.Header = true, len(names)
	}
	for len(names) < st.Header {
		st.Unnamed++
		names = append(names, "#"+strconv.Itoa(len(names)))
	}
	gb := &Builder{names: names, src: src, dst: dst}
	g, err := gb.Build()
	st.Duplicates, st.SelfLoops = gb.Duplicates, gb.SelfLoops
	return g, st, err
}

// progressStep is how many bytes of input pass between progress calls.
const progressStep = 8 << 20

// progress returns what to call as input is read: f, every step bytes
// and at the end, if the input's size is known and not under a step.
func progress(f func(done, total int64), total, step int64) func(done int64) {
	reported := int64(0)
	return func(done int64) {
		if f == nil || total < step {
			return
		}
		if done == total || done-reported >= step {
			reported = done
			f(done, total)
		}
	}
}

// readAll reads the windows of w, reporting each window's end. The next
// window is read while one is parsed.
func (er *edgeReader) readAll(w *windowReader, report func(done int64)) error {
	type window struct {
		data []byte
		done int64
	}
	windows, stop := make(chan window), make(chan struct{})
	defer close(stop)
	go func() {
		defer close(windows)
		for data := w.next(); data != nil; data = w.next() {
			select {
			case windows <- window{data, w.done + int64(len(data))}:
			case <-stop:
				return
			}
		}
	}()
	for win := range windows {
		if err := er.window(win.data); err != nil {
			return err
		}
		report(win.done)
	}
	if w.tooLong {
		return &SyntaxError{er.lines + 1, fmt.Sprintf("longer than %d bytes: not an edge list?", MaxLine)}
	}
	return w.err
}

// inputSize returns what r's size is likely to be once read bytes of it
// have been read: a regular file's size, a compressed file's estimate,
// else 0 (unknown).
func inputSize(r io.Reader) func(read int64) int64 {
	if c, ok := r.(*ctxReader); ok {
		r = c.r
	}
	switch r := r.(type) {
	case *os.File:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return func(int64) int64 { return fi.Size() }
		}
	case *compressedFile:
		return r.expectedSize
	}
	return func(int64) int64 { return 0 }
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}

// WriteEdgeList writes g in the edge-list format: the vertex count, then
// each edge as "u v", grouped by source in vertex-id order. Lines are
// appended to a buffer and written 64 KiB at a time: a write per name
// through bufio cost more than everything else.
func WriteEdgeList(w io.Writer, g *Graph) error {
	safe := make([]string, g.NumVertices()) // shares the names that need no change
	for i, n := range g.names {
		safe[i] = names.Safe(n)
	}
	const flushAt = 64 << 10
	buf := make([]byte, 0, flushAt+2*MaxLine)
	buf = append(strconv.AppendInt(buf, int64(g.NumVertices()), 10), '\n')
	var batch [64]string
	for u := range g.NumVertices() {
		su := safe[u]
		for out := g.Out(uint32(u)); len(out) > 0; {
			// Gather a batch of names before copying them: the loads are
			// independent, so the cache misses of random destinations
			// overlap (10 M edges: 0.62 s -> 0.43 s).
			n := min(len(out), len(batch))
			for i, v := range out[:n] {
				batch[i] = safe[v]
			}
			for _, s := range batch[:n] {
				buf = append(buf, su...)
				buf = append(buf, ' ')
				buf = append(buf, s...)
				buf = append(buf, '\n')
				if len(buf) >= flushAt {
					if _, err := w.Write(buf); err != nil {
						return err
					}
					buf = buf[:0]
				}
			}
			out = out[n:]
		}
	}
	_, err := w.Write(buf)
	return err
}

package graph

import (
	"bufio"
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
	// regular file of more than a few megabytes. It is called from a
	// goroutine of its own, one call at a time.
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
// The input is read a megabyte at a time: memory holds each distinct name
// once and the edges, never the whole file.
func ReadEdgeList(r io.Reader, opt ReadOptions) (*Graph, ReadStats, error) {
	st := ReadStats{Header: -1}
	lr := newLineReader(r, chunkSize)
	if !opt.NoHeader {
		var err error
		if st.Header, err = header(lr); err != nil {
			return nil, st, err
		}
	}
	size := inputSize(r)
	edges := int(size / 24)                                              // a guess: lines of about two dozen bytes
	in := newInterner(max(min(st.Header, max(edges/8, 1<<20)), edges/8)) // never trust the header with memory
	p := &producer{lines: lr, hash: in.hash, progress: opt.Progress, total: size}
	src, dst, err := internEdges(p, in, st.Header, opt.Lenient, edges)
	st.Lines = len(src)
	if err != nil {
		return nil, st, err
	}
	names := in.strings()
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

// internEdges turns the remaining lines into edges between interned
// names. The producer parses and hashes the lines on a second goroutine, a
// few batches ahead, so that this one spends its time on the interning
// table alone: on a large file that table's cache misses are most of the
// cost.
func internEdges(p *producer, in *interner, header int, lenient bool, capacity int) (src, dst []uint32, err error) {
	const depth = 4
	full, free := make(chan *batch, depth), make(chan *batch, depth)
	for range depth {
		free <- new(batch)
	}
	stop := make(chan struct{})
	defer close(stop)
	go p.run(free, full, stop)

	src, dst = make([]uint32, 0, capacity), make([]uint32, 0, capacity)
	for b := range full {
		for i := range 2 * b.n {
			in.touch(b.hash[i])
		}
		for i := range b.n {
			src = append(src, in.id(b.name(2*i), b.hash[2*i]))
			dst = append(dst, in.id(b.name(2*i+1), b.hash[2*i+1]))
			if header >= 0 && in.len() > header && !lenient {
				return src, dst, &SyntaxError{b.lineNo[i], fmt.Sprintf("vertex %d is beyond the header's count of %d (use -lenient to accept)", in.len(), header)}
			}
		}
		if in.err != nil {
			return src, dst, in.err
		}
		if b.err != nil {
			return src, dst, b.err
		}
		free <- b
	}
	return src, dst, nil
}

// inputSize returns the size of r if it is a regular file, else 0.
func inputSize(r io.Reader) int64 {
	if c, ok := r.(*ctxReader); ok {
		r = c.r
	}
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	}
	return 0
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}

// WriteEdgeList writes g in the edge-list format: the vertex count, then
// each edge as "u v", grouped by source in vertex-id order.
func WriteEdgeList(w io.Writer, g *Graph) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "%d\n", g.NumVertices())
	safe := make([]string, g.NumVertices()) // shares the names that need no change
	for i, n := range g.names {
		safe[i] = names.Safe(n)
	}
	for u := range g.NumVertices() {
		for _, v := range g.Out(uint32(u)) {
			bw.WriteString(safe[u])
			bw.WriteByte(' ')
			bw.WriteString(safe[v])
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

package graph

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
)

// ReadOptions control how an edge-list file is read.
type ReadOptions struct {
	// Lenient accepts vertices beyond the header's count instead of failing.
	Lenient bool
	// NoHeader reads lists without a vertex-count line (SNAP, Wikispeedia):
	// the vertex count is the number of distinct names.
	NoHeader bool
}

// ReadStats describes what ReadEdgeList saw besides the graph itself.
type ReadStats struct {
	Lines      int // edge lines read
	Duplicates int // repeated edges, dropped
	SelfLoops  int // u u lines, dropped (a crawl never records them either)
	Header     int // the header's vertex count (-1 without a header)
	Unnamed    int // header vertices never mentioned by an edge
}

// SyntaxError reports a malformed line of an edge-list file.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ReadEdgeList reads the edge-list format: a first line with the number of
// vertices, then one "u v" edge per line. Lines may end in LF, CRLF or CR
// alone; trailing blanks, blank lines, a UTF-8 BOM and '#' comment lines are
// ignored. Vertex names are taken literally.
//
// When the header names more vertices than the edges mention, the rest are
// isolated vertices named "#<id>" so that PageRank sees the header's N.
func ReadEdgeList(r io.Reader, opt ReadOptions) (*Graph, ReadStats, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, ReadStats{}, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	st := ReadStats{Header: -1}
	p := parser{data: data}
	var in *interner
	var b batch
	for p.next() {
		line := p.line
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if st.Header < 0 && !opt.NoHeader {
			n, err := strconv.Atoi(string(bytes.TrimSpace(line)))
			if err != nil || n < 0 {
				return nil, st, &SyntaxError{p.lineNo, fmt.Sprintf("want the vertex count as the first line, got %q (header-less lists need -no-header)", clip(line))}
			}
			st.Header = n
			continue
		}
		if in == nil {
			edges := len(data) / 24 // a guess: lines of about two dozen bytes
			in = newInterner(data, max(st.Header, edges/8))
			b.src, b.dst = make([]uint32, 0, edges), make([]uint32, 0, edges)
		}
		uOff, uLen, vOff, vLen, ok := p.fields()
		if !ok {
			return nil, st, &SyntaxError{p.lineNo, fmt.Sprintf("want \"u v\", got %q", clip(line))}
		}
		st.Lines++
		if b.add(uOff, uLen, vOff, vLen, p.lineNo) {
			if err := b.flush(in, st.Header, opt.Lenient); err != nil {
				return nil, st, err
			}
		}
	}
	if in != nil {
		if err := b.flush(in, st.Header, opt.Lenient); err != nil {
			return nil, st, err
		}
	}
	src, dst := b.src, b.dst
	if st.Header < 0 && !opt.NoHeader {
		return nil, st, &SyntaxError{p.lineNo, "empty file: want the vertex count as the first line"}
	}
	var names []string
	if in != nil {
		names = in.strings()
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

// batch holds edges parsed but not yet interned. Interning a batch at a
// time lets the table's cache misses overlap (see interner.touch).
type batch struct {
	n        int
	off, len [2 * batchSize]int
	lineNo   [batchSize]int
	hash     [2 * batchSize]uint64
	src, dst []uint32
}

const batchSize = 64

// add queues an edge and reports whether the batch is full.
func (b *batch) add(uOff, uLen, vOff, vLen, lineNo int) bool {
	b.off[2*b.n], b.len[2*b.n], b.off[2*b.n+1], b.len[2*b.n+1] = uOff, uLen, vOff, vLen
	b.lineNo[b.n] = lineNo
	b.n++
	return b.n == batchSize
}

// flush interns the queued edges in order and appends them.
func (b *batch) flush(in *interner, header int, lenient bool) error {
	var sink byte
	for i := range 2 * b.n {
		b.hash[i] = in.hash(b.off[i], b.len[i])
		sink += in.touch(b.hash[i])
	}
	_ = sink
	for i := range b.n {
		b.src = append(b.src, in.id(b.off[2*i], b.len[2*i], b.hash[2*i]))
		b.dst = append(b.dst, in.id(b.off[2*i+1], b.len[2*i+1], b.hash[2*i+1]))
		if header >= 0 && in.len() > header && !lenient {
			return &SyntaxError{b.lineNo[i], fmt.Sprintf("vertex %d is beyond the header's count of %d (use -lenient to accept)", in.len(), header)}
		}
	}
	b.n = 0
	return nil
}

// readAll reads r whole, in one allocation when r is a file.
func readAll(r io.Reader) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			data := make([]byte, fi.Size())
			adviseHugePages(data)
			n, err := io.ReadFull(f, data)
			if err == io.ErrUnexpectedEOF {
				err = nil // the file shrank
			}
			return data[:n], err
		}
	}
	return io.ReadAll(r)
}

// parser walks the lines of an edge list. Lines end in LF, CRLF or CR.
type parser struct {
	data   []byte
	pos    int    // start of the next line
	start  int    // offset of line in data
	line   []byte // the current line, trailing blanks removed
	lineNo int
}

func (p *parser) next() bool {
	if p.pos >= len(p.data) {
		return false
	}
	rest := p.data[p.pos:]
	end := bytes.IndexByte(rest, '\n')
	if end < 0 {
		end = len(rest)
	}
	step := end + 1
	if cr := bytes.IndexByte(rest[:end], '\r'); cr >= 0 {
		end, step = cr, cr+1 // CR alone, or the CR of CRLF
		if cr+1 < len(rest) && rest[cr+1] == '\n' {
			step++
		}
	}
	p.start = p.pos
	p.line = bytes.TrimRight(rest[:end], " \t")
	p.pos += step
	p.lineNo++
	return true
}

// fields splits the current line "u v" (blanks or tabs between) into the
// offsets and lengths of its two names.
func (p *parser) fields() (uOff, uLen, vOff, vLen int, ok bool) {
	l := p.line
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	u := i
	for i < len(l) && l[i] != ' ' && l[i] != '\t' {
		i++
	}
	uEnd := i
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	v := i
	for i < len(l) && l[i] != ' ' && l[i] != '\t' {
		i++
	}
	if uEnd == u || i == v || i != len(l) {
		return 0, 0, 0, 0, false
	}
	return p.start + u, uEnd - u, p.start + v, i - v, true
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
	for u := range g.NumVertices() {
		for _, v := range g.Out(uint32(u)) {
			bw.WriteString(g.names[u])
			bw.WriteByte(' ')
			bw.WriteString(g.names[v])
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

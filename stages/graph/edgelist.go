package graph

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
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
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, ReadStats{}, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	st := ReadStats{Header: -1}
	b := NewBuilder()
	lineNo := 0
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		lineNo++
		line = bytes.TrimRight(line, " \t")
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if st.Header < 0 && !opt.NoHeader {
			n, err := strconv.Atoi(string(bytes.TrimSpace(line)))
			if err != nil || n < 0 {
				return nil, st, &SyntaxError{lineNo, fmt.Sprintf("want the vertex count as the first line, got %q (header-less lists need -no-header)", clip(line))}
			}
			st.Header = n
			continue
		}
		u, v, ok := splitEdge(line)
		if !ok {
			return nil, st, &SyntaxError{lineNo, fmt.Sprintf("want \"u v\", got %q", clip(line))}
		}
		st.Lines++
		uid, vid := b.Vertex(string(u)), b.Vertex(string(v))
		if st.Header >= 0 && b.NumVertices() > st.Header && !opt.Lenient {
			return nil, st, &SyntaxError{lineNo, fmt.Sprintf("vertex %d is beyond the header's count of %d (use -lenient to accept)", b.NumVertices(), st.Header)}
		}
		b.AddEdge(uid, vid)
	}
	if st.Header < 0 && !opt.NoHeader {
		return nil, st, &SyntaxError{lineNo, "empty file: want the vertex count as the first line"}
	}
	for b.NumVertices() < st.Header {
		st.Unnamed++
		b.Vertex("#" + strconv.Itoa(b.NumVertices()))
	}
	g, err := b.Build()
	st.Duplicates, st.SelfLoops = b.Duplicates, b.SelfLoops
	return g, st, err
}

// nextLine splits off the first line, accepting LF, CRLF and CR endings.
func nextLine(data []byte) (line, rest []byte) {
	i := bytes.IndexAny(data, "\r\n")
	if i < 0 {
		return data, nil
	}
	line, rest = data[:i], data[i+1:]
	if data[i] == '\r' && len(rest) > 0 && rest[0] == '\n' {
		rest = rest[1:]
	}
	return line, rest
}

// splitEdge splits "u v" (blanks or tabs between) into its two names.
func splitEdge(line []byte) (u, v []byte, ok bool) {
	line = bytes.TrimLeft(line, " \t")
	i := bytes.IndexAny(line, " \t")
	if i <= 0 {
		return nil, nil, false
	}
	u, v = line[:i], bytes.TrimLeft(line[i:], " \t")
	if len(v) == 0 || bytes.ContainsAny(v, " \t") {
		return nil, nil, false
	}
	return u, v, true
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

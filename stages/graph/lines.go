package graph

import (
	"bytes"
	"fmt"
	"io"
)

// lineReader splits an input into lines ending in LF, CRLF or CR alone,
// reading it a chunk at a time so that a file never has to fit in memory.
// ReadEdgeList reads the header line with it, then hands what it has read
// to a windowReader for the edges.
type lineReader struct {
	r    io.Reader
	buf  []byte
	head int   // buf[head:tail] is read but not yet split into lines
	tail int   // end of the bytes read into buf
	nl   int   // index in buf of the next '\n' at or after head; -1 none before tail; -2 not yet searched
	eof  bool  // r has nothing more
	err  error // why r stopped, if not io.EOF
	done int64 // bytes of input before buf[head]

	line   []byte // the current line, trailing blanks removed; valid until next
	lineNo int
}

// chunkSize is the size of the reads and of the buffer, which grows only
// for a longer line.
const chunkSize = 1 << 20

// MaxLine bounds a line: an edge names two pages, and a longer line (or
// an input with no line breaks at all, such as /dev/zero) is not an edge
// list. The bound keeps memory, and the time spent looking for the line's
// end, small.
const MaxLine = 1 << 20

// newLineReader returns a lineReader over r with a buffer of size bytes,
// past a UTF-8 byte-order mark if r starts with one.
func newLineReader(r io.Reader, size int) *lineReader {
	lr := &lineReader{r: r, buf: make([]byte, size), nl: -2}
	for lr.tail < 3 && !lr.eof { // enough to see a BOM
		lr.fill()
	}
	if bytes.HasPrefix(lr.buf[:lr.tail], []byte("\xef\xbb\xbf")) {
		lr.head, lr.done = 3, 3
	}
	return lr
}

// next advances to the next line and reports whether there is one. At the
// end, err tells whether the input ended or failed.
func (lr *lineReader) next() bool {
	for {
		if lr.nl == -2 || lr.nl >= 0 && lr.nl < lr.head {
			lr.nl = -1
			if i := bytes.IndexByte(lr.buf[lr.head:lr.tail], '\n'); i >= 0 {
				lr.nl = lr.head + i
			}
		}
		// The line ends at the first CR or LF. Searching for CR only up to
		// the next LF, whose place is remembered, keeps a file of CR-only
		// lines from being rescanned to its end for every line.
		rest := lr.buf[lr.head:lr.tail]
		limit := len(rest)
		if lr.nl >= 0 {
			limit = lr.nl - lr.head
		}
		end, step := -1, 0
		if cr := bytes.IndexByte(rest[:limit], '\r'); cr >= 0 && (cr+1 < len(rest) || lr.eof) {
			end, step = cr, cr+1 // CR alone, or the CR of CRLF
			if cr+1 < len(rest) && rest[cr+1] == '\n' {
				step++
			}
		} else if cr < 0 && lr.nl >= 0 {
			end, step = limit, limit+1
		} else if cr < 0 && lr.eof && len(rest) > 0 && lr.err == nil {
			end, step = len(rest), len(rest) // the last line has no ending (a failed read's is cut short: dropped)
		}
		if end >= 0 {
			lr.line = bytes.TrimRight(rest[:end], " \t")
			lr.head += step
			lr.done += int64(step)
			lr.lineNo++
			return true
		}
		if lr.eof {
			return false
		}
		lr.fill()
	}
}

// fill moves the unsplit bytes to the front of the buffer, growing it if a
// line fills it whole, and reads more.
func (lr *lineReader) fill() {
	n := copy(lr.buf, lr.buf[lr.head:lr.tail])
	lr.head, lr.tail, lr.nl = 0, n, -2
	if n >= MaxLine {
		lr.eof, lr.err = true, &SyntaxError{lr.lineNo + 1, fmt.Sprintf("longer than %d bytes: not an edge list?", MaxLine)}
		return
	}
	if n == len(lr.buf) {
		lr.buf = append(lr.buf, make([]byte, min(len(lr.buf), MaxLine))...)
	}
	for !lr.eof && lr.tail < len(lr.buf) {
		m, err := lr.r.Read(lr.buf[lr.tail:])
		lr.tail += m
		if err != nil {
			lr.eof = true
			if err != io.EOF {
				lr.err = err
			}
		}
		if m > 0 {
			return
		}
	}
}

package graph

import (
	"bytes"
	"io"
)

// windowReader hands out the input a window of whole lines at a time:
// the lines of a window are parsed in parallel, and memory holds two
// windows, never the whole file. A window stays valid until the next but
// one call of next, so that the next window can be read while one is
// parsed.
type windowReader struct {
	r     io.Reader
	buf   []byte
	spare []byte // the buffer of the window before
	size  int    // the bytes a window aims at
	n     int    // buf[:n] is read
	cut   int    // buf[:cut] was the last window
	done  int64  // input bytes before buf[0]

	eof      bool  // r has nothing more
	err      error // why r stopped, if not io.EOF
	tooLong  bool  // the line after the last window is MaxLine bytes or longer
	finished bool  // the last window was handed out
}

// newWindowReader continues where lr stopped (after the header, if any),
// with windows of about size bytes.
func newWindowReader(lr *lineReader, size int) *windowReader {
	rest := lr.buf[lr.head:lr.tail]
	w := &windowReader{r: lr.r, buf: make([]byte, max(size, 2*len(rest), 64)), size: size, eof: lr.eof, err: lr.err, done: lr.done}
	w.n = copy(w.buf, rest)
	return w
}

// next returns the next window: whole lines, each with its ending, but
// for the input's last line, which may lack one. A line cut short by a
// read error is dropped, as is a line of MaxLine bytes or more, which ends
// the input (tooLong). next returns nil once the input is done.
func (w *windowReader) next() []byte {
	if w.finished {
		return nil
	}
	w.done += int64(w.cut)
	last := w.buf
	if len(w.spare) < len(last) {
		w.spare = make([]byte, len(last))
	}
	w.buf, w.spare = w.spare, last
	w.n = copy(w.buf, last[w.cut:w.n])
	w.cut = 0
	ends := lineEnds(w.buf[:w.n]) // buf[:ends] is whole lines
	// Read until the window is full, holds a whole line and does not end
	// in a CR whose LF may be next.
	for !w.eof && (w.n < w.size || ends == 0 || w.buf[w.n-1] == '\r') {
		if w.n == len(w.buf) {
			w.buf = append(w.buf, make([]byte, len(w.buf))...)
		}
		m, err := w.r.Read(w.buf[w.n:])
		if e := lineEnds(w.buf[w.n : w.n+m]); e > 0 {
			ends = w.n + e
		}
		w.n += m
		if err != nil {
			w.eof = true
			if err != io.EOF {
				w.err = err
			}
		}
		if w.n-ends >= MaxLine {
			w.tooLong, w.finished, w.cut = true, true, ends
			return w.buf[:ends]
		}
	}
	switch {
	case !w.eof:
		w.cut = ends
	case w.err != nil: // the line a failed read cut short is dropped
		w.cut, w.finished = ends, true
	default:
		w.cut, w.finished = w.n, true
	}
	if w.cut == 0 && w.finished {
		return nil
	}
	return w.buf[:w.cut]
}

// lineEnds returns the index after the last CR or LF in b, 0 if none. A
// CR is looked for only after the last LF, so that a file of LF lines is
// not searched to its start for one.
func lineEnds(b []byte) int {
	lf := bytes.LastIndexByte(b, '\n')
	return max(lf, lf+1+bytes.LastIndexByte(b[lf+1:], '\r')) + 1
}

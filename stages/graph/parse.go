package graph

import (
	"bytes"
	"fmt"
	"strconv"
)

// parser walks the lines of an edge list. Lines end in LF, CRLF or CR.
type parser struct {
	data   []byte
	pos    int    // start of the next line
	start  int    // offset of line in data
	line   []byte // the current line, trailing blanks removed
	lineNo int

	progress   func(done, total int64) // see ReadOptions.Progress
	reportedAt int                     // pos at the last progress call
}

// progressStep is how many bytes of input pass between progress calls.
const progressStep = 8 << 20

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

// header reads the vertex-count line, the first that is neither blank nor
// a comment.
func (p *parser) header() (int, error) {
	for p.next() {
		if len(p.line) == 0 || p.line[0] == '#' {
			continue
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(p.line)))
		if err != nil || n < 0 {
			return 0, &SyntaxError{p.lineNo, fmt.Sprintf("want the vertex count as the first line, got %q (header-less lists need -no-header)", clip(p.line))}
		}
		return n, nil
	}
	return 0, &SyntaxError{p.lineNo, "empty file: want the vertex count as the first line"}
}

// batch holds edges parsed and hashed but not yet interned. Interning a
// batch at a time lets the table's cache misses overlap (interner.touch).
type batch struct {
	n        int
	off, len [2 * batchSize]int
	hash     [2 * batchSize]uint64
	lineNo   [batchSize]int
	err      error // a malformed line after the n edges; it ends the input
}

const batchSize = 256

// produce parses the remaining lines into batches taken from free, hashes
// their names and sends them on full, which it closes at the end of the
// input or after a batch carrying an error. It returns early once stop is
// closed.
func (p *parser) produce(hash func(off, n int) uint64, free <-chan *batch, full chan<- *batch, stop <-chan struct{}) {
	defer close(full)
	var b *batch
	send := func() bool {
		select {
		case full <- b:
			b = nil
			return true
		case <-stop:
			return false
		}
	}
	for p.next() {
		if len(p.line) == 0 || p.line[0] == '#' {
			continue
		}
		if b == nil {
			select {
			case b = <-free:
				b.n, b.err = 0, nil
			case <-stop:
				return
			}
		}
		uOff, uLen, vOff, vLen, ok := p.fields()
		if !ok {
			b.err = &SyntaxError{p.lineNo, fmt.Sprintf("want \"u v\", got %q", clip(p.line))}
			send()
			return
		}
		i := 2 * b.n
		b.off[i], b.len[i], b.hash[i] = uOff, uLen, hash(uOff, uLen)
		b.off[i+1], b.len[i+1], b.hash[i+1] = vOff, vLen, hash(vOff, vLen)
		b.lineNo[b.n] = p.lineNo
		b.n++
		if b.n == batchSize {
			if !send() {
				return
			}
			p.report()
		}
	}
	if b != nil && !send() {
		return
	}
	if len(p.data) >= progressStep { // a small input reports nothing
		p.reportedAt = -progressStep
		p.report()
	}
}

// report calls the progress function when progressStep bytes have passed.
func (p *parser) report() {
	if p.progress != nil && p.pos-p.reportedAt >= progressStep {
		p.reportedAt = p.pos
		p.progress(int64(p.pos), int64(len(p.data)))
	}
}

package graph

import (
	"bytes"
	"fmt"
	"strconv"
)

// header reads the vertex-count line, the first that is neither blank nor
// a comment.
func header(lr *lineReader) (int, error) {
	for lr.next() {
		if skip(lr.line) {
			continue
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(lr.line)))
		if err != nil || n < 0 {
			return 0, &SyntaxError{lr.lineNo, fmt.Sprintf("want the vertex count as the first line, got %q (header-less lists need -no-header)", clip(lr.line))}
		}
		return n, nil
	}
	if lr.err != nil {
		return 0, lr.err
	}
	return 0, &SyntaxError{lr.lineNo, "empty file: want the vertex count as the first line"}
}

// skip reports whether a line is blank or a comment: its first byte
// that is not a blank or tab is '#'. So no name read can start with '#',
// and graph.txt, whose lines start with a name, never holds a line that
// reads back as a comment.
func skip(l []byte) bool {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	return i == len(l) || l[i] == '#'
}

// fields splits a line "u v" (blanks or tabs between) into its two names.
func fields(l []byte) (u, v []byte, ok bool) {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	uStart := i
	for i < len(l) && l[i] != ' ' && l[i] != '\t' {
		i++
	}
	uEnd := i
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	vStart := i
	for i < len(l) && l[i] != ' ' && l[i] != '\t' {
		i++
	}
	if uEnd == uStart || i == vStart || i != len(l) {
		return nil, nil, false
	}
	return l[uStart:uEnd], l[vStart:i], true
}

// batch holds edges parsed and hashed but not yet interned, with copies of
// their names. Interning a batch at a time lets the table's cache misses
// overlap (interner.touch).
type batch struct {
	n      int                   // edges
	names  []byte                // their names, back to back
	end    [2 * batchSize]int    // name i is names[end[i-1]:end[i]]
	hash   [2 * batchSize]uint64 // of name i
	lineNo [batchSize]int        // of edge k
	err    error                 // a malformed line or read error after the n edges; it ends the input
}

const batchSize = 256

// name returns the i'th name of the batch: 2k and 2k+1 are edge k's ends.
func (b *batch) name(i int) []byte {
	start := 0
	if i > 0 {
		start = b.end[i-1]
	}
	return b.names[start:b.end[i]]
}

// progressStep is how many bytes of input pass between progress calls.
const progressStep = 8 << 20

// producer parses lines into batches for internEdges, on a goroutine of
// its own.
type producer struct {
	lines    *lineReader
	hash     func([]byte) uint64
	progress func(done, total int64) // see ReadOptions.Progress
	total    int64                   // the input's size; 0 if unknown
	reported int64                   // bytes done at the last progress call
}

// run parses the remaining lines into batches taken from free, hashes
// their names and sends them on full, which it closes at the end of the
// input or after a batch carrying an error. It returns early once stop is
// closed.
func (p *producer) run(free <-chan *batch, full chan<- *batch, stop <-chan struct{}) {
	defer close(full)
	var b *batch
	send := func() bool {
		select {
		case full <- b:
			b = nil
			p.report(false)
			return true
		case <-stop:
			return false
		}
	}
	lr := p.lines
	for lr.next() {
		if skip(lr.line) {
			continue
		}
		if b == nil {
			select {
			case b = <-free:
				b.n, b.names, b.err = 0, b.names[:0], nil
			case <-stop:
				return
			}
		}
		u, v, ok := fields(lr.line)
		if !ok {
			b.err = &SyntaxError{lr.lineNo, fmt.Sprintf("want \"u v\", got %q", clip(lr.line))}
			send()
			return
		}
		i := 2 * b.n
		b.names = append(b.names, u...)
		b.end[i], b.hash[i] = len(b.names), p.hash(u)
		b.names = append(b.names, v...)
		b.end[i+1], b.hash[i+1] = len(b.names), p.hash(v)
		b.lineNo[b.n] = lr.lineNo
		b.n++
		if b.n == batchSize && !send() {
			return
		}
	}
	if lr.err != nil {
		if b == nil {
			b = &batch{}
		}
		b.err = lr.err
	}
	if b != nil && !send() {
		return
	}
	p.report(true)
}

// report calls the progress function when progressStep bytes have passed
// since the last call, or at the end.
func (p *producer) report(end bool) {
	if p.progress == nil || p.total < progressStep {
		return // unknown or small inputs report nothing
	}
	if done := p.lines.done; end || done-p.reported >= progressStep {
		p.reported = done
		p.progress(done, p.total)
	}
}

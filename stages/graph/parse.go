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

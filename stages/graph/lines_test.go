package graph

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// splitLines is the line splitting of lineReader done plainly, on the whole
// input at once.
func splitLines(in string) []string {
	in = strings.TrimPrefix(in, "\xef\xbb\xbf")
	var lines []string
	for len(in) > 0 {
		i := strings.IndexAny(in, "\r\n")
		if i < 0 {
			lines = append(lines, strings.TrimRight(in, " \t"))
			break
		}
		lines = append(lines, strings.TrimRight(in[:i], " \t"))
		if strings.HasPrefix(in[i:], "\r\n") {
			i++
		}
		in = in[i+1:]
	}
	return lines
}

func readLines(t *testing.T, r io.Reader, size int) []string {
	t.Helper()
	lr := newLineReader(r, size)
	var lines []string
	for lr.next() {
		lines = append(lines, string(lr.line))
		if lr.lineNo != len(lines) {
			t.Fatalf("line %d numbered %d", len(lines), lr.lineNo)
		}
	}
	if lr.err != nil {
		t.Fatal(lr.err)
	}
	return lines
}

// Every buffer size, from one byte up, splits like the plain version: line
// endings, a CRLF or a BOM cut by a chunk boundary, lines longer than the
// buffer, a last line without an ending.
func TestLineReaderChunkBoundaries(t *testing.T) {
	inputs := []string{
		"",
		"3\na b\nb c\n",
		"3\r\na b\r\nb c\r\n",
		"3\ra b\rb c\r",
		"3\ra b\r\rc a\r",
		"\xef\xbb\xbf2\na b  \t\n\n# comment\nb a",
		"a\r\n\r\n\n\r\rb\r",
		"x\r",
		strings.Repeat("long-name-", 40) + " v\r\nu v\n",
	}
	for _, in := range inputs {
		want := splitLines(in)
		for size := 1; size <= 24; size++ {
			got := readLines(t, strings.NewReader(in), size)
			if !slices.Equal(got, want) {
				t.Fatalf("%q at buffer size %d: lines %q, want %q", in, size, got, want)
			}
		}
		// A reader that returns one byte a time.
		if got := readLines(t, iotest.OneByteReader(strings.NewReader(in)), 8); !slices.Equal(got, want) {
			t.Fatalf("%q one byte a read: lines %q, want %q", in, got, want)
		}
	}
}

func TestLineReaderReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("2\na b\n"), iotest.ErrReader(boom))
	_, _, err := ReadEdgeList(r, ReadOptions{})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want the read error", err)
	}
	lr := newLineReader(bytes.NewReader(nil), 4)
	if lr.next() || lr.err != nil {
		t.Error("empty input: want no lines and no error")
	}
}

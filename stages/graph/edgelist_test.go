package graph

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func read(t *testing.T, s string, opt ReadOptions) (*Graph, ReadStats) {
	t.Helper()
	g, st, err := ReadEdgeList(strings.NewReader(s), opt)
	if err != nil {
		t.Fatalf("ReadEdgeList(%q): %v", s, err)
	}
	return g, st
}

func edges(g *Graph) []string {
	var out []string
	for u := range g.NumVertices() {
		for _, v := range g.Out(uint32(u)) {
			out = append(out, g.Name(uint32(u))+">"+g.Name(v))
		}
	}
	return out
}

func TestReadLineEndingsAndBlanks(t *testing.T) {
	want := []string{"a>b", "a>c", "b>c"}
	for name, s := range map[string]string{
		"LF":       "3\na b\na c\nb c\n",
		"CRLF":     "3\r\na b\r\na c\r\nb c\r\n",
		"CR":       "3\ra b\ra c\rb c",
		"trailing": "3 \na b  \na\tc\t\n\nb c \n",
		"BOM":      "\xef\xbb\xbf3\na b\na c\nb c\n",
	} {
		g, st := read(t, s, ReadOptions{})
		if got := edges(g); !reflect.DeepEqual(got, want) || st.Lines != 3 || g.NumVertices() != 3 {
			t.Errorf("%s: edges %v, lines %d, vertices %d", name, got, st.Lines, g.NumVertices())
		}
	}
}

func TestReadDuplicatesAndSelfLoops(t *testing.T) {
	g, st := read(t, "3\na b\na a\nb c\na b\nc c\nb c\na c\n", ReadOptions{})
	if got := edges(g); !reflect.DeepEqual(got, []string{"a>b", "a>c", "b>c"}) {
		t.Errorf("edges = %v", got)
	}
	if st.Duplicates != 2 || st.SelfLoops != 2 || st.Lines != 7 {
		t.Errorf("stats = %+v, want 2 duplicates, 2 self-loops, 7 lines", st)
	}
	if g.InDegree(2) != 2 || g.OutDegree(0) != 2 || !reflect.DeepEqual(g.InEdges().In(2), []uint32{0, 1}) {
		t.Errorf("degrees: in(c) %d out(a) %d In(c) %v", g.InDegree(2), g.OutDegree(0), g.InEdges().In(2))
	}
}

func TestReadErrorsNameTheLine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		line int
		msg  string
	}{
		{"", 0, "empty file"},
		{"a b\n", 1, "vertex count"},
		{"x3\na b\n", 1, "vertex count"},
		{"2\na b\nb\n", 3, `want "u v"`},
		{"2\na b\nb c d\n", 3, `want "u v"`},
		{"2\r\na b\r\nb c\r\n", 3, "beyond the header's count of 2"},
		{"2\ra b\r\rc a\r", 4, "beyond the header's count of 2"},
		// Errors far into the file, past several batches in flight: the
		// first error in line order wins.
		{"10000\n" + chain(9000) + "x\n" + chain(3000), 9002, `want "u v"`},
		{"50\n" + chain(9000) + "x\n", 51, "beyond the header's count of 50"},
	} {
		_, _, err := ReadEdgeList(strings.NewReader(tt.in), ReadOptions{})
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("%q: err = %v, want line %d %q", tt.in, err, tt.line, tt.msg)
		}
	}
}

func TestReadProgress(t *testing.T) {
	in := "100001\n" + chain(100000) // about 1.2 MB: in steps of 256 KiB, calls on the way, one at the end
	sz := sizes{window: 64 << 10, piece: 4 << 10, progress: 256 << 10}
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls [][2]int64
	opt := ReadOptions{Progress: func(done, total int64) { calls = append(calls, [2]int64{done, total}) }}
	if _, _, err := readEdgeList(f, opt, sz); err != nil {
		t.Fatal(err)
	}
	total := int64(len(in))
	if len(calls) < 2 || calls[len(calls)-1] != [2]int64{total, total} {
		t.Fatalf("progress calls %v, want some on the way and %d of %d at the end", calls, total, total)
	}
	for i, c := range calls[:len(calls)-1] {
		prev := int64(0)
		if i > 0 {
			prev = calls[i-1][0]
		}
		if c[0]-prev < sz.progress || c[1] != total {
			t.Errorf("progress calls %v: call %d is less than %d bytes after the one before", calls, i, sz.progress)
		}
	}
	// A reader of unknown size reports nothing.
	calls = nil
	if _, _, err := readEdgeList(strings.NewReader(in), opt, sz); err != nil || len(calls) != 0 {
		t.Errorf("unknown size: err %v, progress calls %v", err, calls)
	}
}

// chain returns the lines "0 1", "1 2", ..., n of them.
func chain(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d %d\n", i, i+1)
	}
	return b.String()
}

func TestReadLenientAndUnnamed(t *testing.T) {
	g, _ := read(t, "2\na b\nb c\n", ReadOptions{Lenient: true})
	if g.NumVertices() != 3 {
		t.Errorf("lenient: %d vertices, want 3", g.NumVertices())
	}
	g, st := read(t, "4\na b\n", ReadOptions{})
	if g.NumVertices() != 4 || st.Unnamed != 2 {
		t.Errorf("header 4, 2 named: %d vertices, %d unnamed", g.NumVertices(), st.Unnamed)
	}
	g, _ = read(t, "# comment\na\tb\n# more\nb\tc\n", ReadOptions{NoHeader: true})
	if g.NumVertices() != 3 || g.NumEdges() != 2 {
		t.Errorf("no header: %d vertices %d edges", g.NumVertices(), g.NumEdges())
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	g, _ := read(t, "3\nx y\ny z\nz x\nx z\n", ReadOptions{})
	var b strings.Builder
	if err := WriteEdgeList(&b, g); err != nil {
		t.Fatal(err)
	}
	if b.String() != "3\nx y\nx z\ny z\nz x\n" {
		t.Errorf("written:\n%s", b.String())
	}
	g2, _ := read(t, b.String(), ReadOptions{Lenient: false})
	if !reflect.DeepEqual(edges(g), edges(g2)) || g2.NumVertices() != 3 {
		t.Errorf("round trip changed the graph")
	}
}

// The real files in ../shared/data/graphs, with their documented quirks.
// The expected counts were made independently with a few lines of Python
// (split on any line ending, strip blanks, count in a set). Every u u line
// counts as a self-loop, never as a duplicate: the data README's 1,388
// duplicates include 88 repeated self-loops.
func TestReadRealFiles(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "graphs")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s absent", dir)
	}
	for _, tt := range []struct {
		file                 string
		opt                  ReadOptions
		vertices, edges      int
		duplicates, selfLoop int
	}{
		{"wikiTennis-2017.txt", ReadOptions{}, 1000, 46794, 0, 0},
		{"wikiTennis-2017-trailing-space.txt", ReadOptions{}, 1000, 46794, 0, 0},
		{"PavanWikiTennis-2015.txt", ReadOptions{}, 100, 2707, 0, 0},
		{"student-crawl-cr-line-endings.txt", ReadOptions{}, 1000, 25030 - 27, 27, 0},
		{"student-crawl-duplicates-selfloops.txt", ReadOptions{}, 100, 3434 - 1300 - 176, 1300, 176},
		{"snap-wiki-Vote.txt", ReadOptions{NoHeader: true}, 7115, 103689, 0, 0},
		{"wikispeedia-links.tsv", ReadOptions{NoHeader: true}, 4589, 119879 - 110, 0, 110},
	} {
		f, err := os.Open(filepath.Join(dir, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		g, st, err := ReadEdgeList(f, tt.opt)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if g.NumVertices() != tt.vertices || g.NumEdges() != tt.edges || st.Duplicates != tt.duplicates || st.SelfLoops != tt.selfLoop {
			t.Errorf("%s: %d vertices, %d edges, %d duplicates, %d self-loops; want %d, %d, %d, %d", tt.file,
				g.NumVertices(), g.NumEdges(), st.Duplicates, st.SelfLoops, tt.vertices, tt.edges, tt.duplicates, tt.selfLoop)
		}
	}
}

package graph

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readPlainly is the edge-list format read the plain way, the whole input
// at once, lines split by splitLines and names interned in a map: what
// the parallel reader must match exactly. errLine is -1 if the input is
// good.
func readPlainly(in string, lenient bool) (names []string, src, dst []uint32, errLine int) {
	lines := splitLines(in)
	ids := map[string]uint32{}
	header := -1
	for i, l := range lines {
		if skip([]byte(l)) {
			continue
		}
		if header < 0 {
			n, err := strconv.Atoi(strings.TrimSpace(l))
			if err != nil || n < 0 {
				return nil, nil, nil, i + 1
			}
			header = n
			continue
		}
		f := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' })
		if len(f) != 2 {
			return nil, nil, nil, i + 1
		}
		var e [2]uint32
		for j, name := range f {
			id, ok := ids[name]
			if !ok {
				id = uint32(len(names))
				ids[name] = id
				names = append(names, name)
			}
			e[j] = id
		}
		if len(names) > header && !lenient {
			return nil, nil, nil, i + 1
		}
		src, dst = append(src, e[0]), append(dst, e[1])
	}
	if header < 0 {
		return nil, nil, nil, len(lines)
	}
	return names, src, dst, -1
}

// randomEdgeList writes a header and lines of a few names with every
// kind of line ending, blanks, comments and, sometimes, a bad line.
func randomEdgeList(rng *rand.Rand) string {
	var b strings.Builder
	endings := []string{"\n", "\r\n", "\r"}
	blanks := []string{" ", "\t", "  ", " \t"}
	lines := rng.IntN(60)
	fmt.Fprintf(&b, "%d%s", rng.IntN(40), endings[rng.IntN(3)])
	for range lines {
		switch r := rng.IntN(40); {
		case r == 0:
			b.WriteString("# a comment")
		case r == 1:
			b.WriteString(blanks[rng.IntN(4)])
		case r == 2 && rng.IntN(4) == 0:
			b.WriteString("lonely")
		case r == 3 && rng.IntN(4) == 0:
			b.WriteString("a b c")
		default:
			if rng.IntN(5) == 0 {
				b.WriteString(blanks[rng.IntN(4)])
			}
			fmt.Fprintf(&b, "v%d%s%sw%d", rng.IntN(25), strings.Repeat("x", rng.IntN(12)), blanks[rng.IntN(4)], rng.IntN(25))
			if rng.IntN(5) == 0 {
				b.WriteString(blanks[rng.IntN(4)])
			}
		}
		b.WriteString(endings[rng.IntN(3)])
	}
	return b.String()
}

// checkAgainstPlain reads in at the given window and piece sizes and
// compares the graph, or the error's line, with readPlainly's.
func checkAgainstPlain(t *testing.T, in string, lenient bool, window, piece int) {
	t.Helper()
	names, src, dst, errLine := readPlainly(in, lenient)
	g, _, err := readEdgeList(strings.NewReader(in), ReadOptions{Lenient: lenient}, sizes{window, piece, progressStep})
	var se *SyntaxError
	switch {
	case errLine >= 0:
		if !errors.As(err, &se) || se.Line != errLine {
			t.Fatalf("%q (window %d, piece %d): err %v, want an error on line %d", in, window, piece, err, errLine)
		}
		return
	case err != nil:
		if errors.As(err, &se) && strings.Contains(se.Msg, "the header says") {
			return // the header's guard, checked elsewhere
		}
		t.Fatalf("%q (window %d, piece %d): %v", in, window, piece, err)
	}
	want, err := (&Builder{names: names, src: src, dst: dst}).Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Names()[:len(names)]; !slices.Equal(got, names) {
		t.Fatalf("%q (window %d, piece %d): names %q, want %q", in, window, piece, got, names)
	}
	gotIn, wantIn := g.InEdges(), want.InEdges()
	for v := range want.NumVertices() {
		if !slices.Equal(g.Out(uint32(v)), want.Out(uint32(v))) || !slices.Equal(gotIn.In(uint32(v)), wantIn.In(uint32(v))) {
			t.Fatalf("%q (window %d, piece %d): vertex %s has out %v in %v, want %v and %v", in, window, piece,
				names[v], g.Out(uint32(v)), gotIn.In(uint32(v)), want.Out(uint32(v)), wantIn.In(uint32(v)))
		}
	}
}

// The parallel reader, cut into windows and pieces of every small size,
// reads random lists exactly as the plain reading does: the same names in
// the same order, the same edges, the same first bad line.
func TestReadMatchesPlainReading(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		in := randomEdgeList(rng)
		lenient := rng.IntN(3) == 0
		for _, sizes := range [][2]int{{1, 1}, {7, 3}, {16, 5}, {64, 17}, {1 << 20, 1 << 10}, {windowSize, pieceSize}} {
			checkAgainstPlain(t, in, lenient, sizes[0], sizes[1])
		}
	}
}

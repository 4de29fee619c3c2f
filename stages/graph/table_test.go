package graph

import (
	"fmt"
	"testing"
)

// TestTableTagCollisions interns names whose tags are all equal: the
// check hash alone tells them apart, a name seen again keeps its id, and
// the table grows past its first size without losing one.
func TestTableTagCollisions(t *testing.T) {
	tb := newTable()
	const n = 3000 // past 1,024 slots: the table grows twice
	for round := range 2 {
		for i := range n {
			name := []byte{byte(i >> 8), byte(i)}
			if id := tb.id(name, tag(0), uint64(i)*0x9e3779b97f4a7c15, uint64(i)); id != uint32(i) {
				t.Fatalf("round %d: name %d got id %d", round, i, id)
			}
		}
	}
	if len(tb.names) != n || len(tb.arena) != 2*n {
		t.Errorf("%d names in %d bytes, want %d in %d", len(tb.names), len(tb.arena), n, 2*n)
	}
	for i, s := range tb.names {
		if got := tb.arena[s.off : s.off+s.n]; got[0] != byte(i>>8) || got[1] != byte(i) || tb.first[i] != uint64(i) {
			t.Fatalf("name %d stored as %v, first named by %d", i, got, tb.first[i])
		}
	}
}

// Names numbers names by first Intern, finds them again by Lookup (and
// not names never interned, even with tags like theirs), and gives each
// back as interned, past the table's growth.
func TestNames(t *testing.T) {
	n := NewNames()
	const count = 5000
	for round := range 2 {
		for i := range count {
			if id := n.Intern(fmt.Appendf(nil, "/wiki/T%d", i)); id != uint32(i) {
				t.Fatalf("round %d: name %d got id %d", round, i, id)
			}
		}
	}
	for i := range count {
		name := fmt.Appendf(nil, "/wiki/T%d", i)
		if id, ok := n.Lookup(name); !ok || id != uint32(i) || string(n.Name(id)) != string(name) {
			t.Fatalf("lookup %s: %d, %v, named %q", name, id, ok, n.Name(id))
		}
		if _, ok := n.Lookup(fmt.Appendf(nil, "/wiki/U%d", i)); ok {
			t.Fatalf("found /wiki/U%d, never interned", i)
		}
	}
	if n.Len() != count || n.Err() != nil {
		t.Errorf("%d names, %v", n.Len(), n.Err())
	}
}

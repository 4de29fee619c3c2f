package graph

import (
	"hash/maphash"
	"unsafe"
)

// Names interns names: each distinct name is kept once, in one arena, and
// numbered 0, 1, ... in order of first Intern. It is the edge-list
// reader's table (see table): slots without pointers, names compared by
// two independent hashes. A map of millions of strings costs about three
// times the memory, and the collector scans all of it at every cycle.
type Names struct {
	t           table
	seed, check maphash.Seed
}

// NewNames returns an empty Names.
func NewNames() *Names {
	return &Names{t: newTable(), seed: maphash.MakeSeed(), check: maphash.MakeSeed()}
}

// A Hash is a name's two hashes under one Names' seeds. Hashing is most
// of interning's work on names never seen before, and Hash may be called
// on any goroutine, so a reader can hash on many cores and intern, in
// order, on one.
type Hash struct{ hash, check uint64 }

// Bits returns 64 bits of the hash, for a caller's own table of names.
func (h Hash) Bits() uint64 { return h.hash }

// Hash returns name's hashes. It is safe for concurrent use.
func (n *Names) Hash(name []byte) Hash {
	return Hash{maphash.Bytes(n.seed, name), maphash.Bytes(n.check, name)}
}

// Intern returns the id of name, adding it if new. The name is copied: it
// may view a buffer the caller reuses.
func (n *Names) Intern(name []byte) uint32 { return n.InternHashed(name, n.Hash(name)) }

// InternHashed is Intern for a name whose hashes h came from n.Hash.
func (n *Names) InternHashed(name []byte, h Hash) uint32 {
	return n.t.id(name, tag(h.hash), h.check, 0)
}

// Lookup returns the id of name, if it was interned.
func (n *Names) Lookup(name []byte) (uint32, bool) {
	return n.t.find(tag(maphash.Bytes(n.seed, name)), maphash.Bytes(n.check, name))
}

// Len returns the number of names.
func (n *Names) Len() int { return len(n.t.names) }

// Name returns the name of id, viewing the arena: the caller must not
// modify it, and must copy it to keep it past the next Intern.
func (n *Names) Name(id uint32) []byte {
	s := n.t.names[id]
	return n.t.arena[s.off : s.off+s.n]
}

// Err reports whether more names were interned than ids can number.
func (n *Names) Err() error { return n.t.err }

// strings returns the names by id, as strings that share the arena. The
// Names must not be used afterwards.
func (n *Names) strings() []string {
	names := make([]string, len(n.t.names))
	for i, sp := range n.t.names {
		names[i] = unsafe.String(unsafe.SliceData(n.t.arena[sp.off:]), int(sp.n))
	}
	return names
}

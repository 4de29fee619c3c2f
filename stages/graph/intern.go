package graph

import (
	"bytes"
	"hash/maphash"
)

// interner maps names, held as byte ranges of one input buffer, to dense
// uint32 ids in order of first appearance. It is an open-addressing table
// of 16-byte slots that keeps each name's hash, so a lookup usually costs
// one memory access plus one comparison on a hit: on a large edge list the
// table, not parsing, is the cost, and Go's map costs several cache and
// TLB misses per lookup.
type interner struct {
	data  []byte
	seed  maphash.Seed
	slots []slot
	mask  uint64
	names []span // by id

	touched byte // see touch
}

type slot struct {
	hash uint32 // upper hash bits; 0 marks an empty slot
	id   uint32
	off  uint32 // the name is data[off:off+n]
	n    uint32
}

type span struct{ off, n uint32 }

func newInterner(data []byte, expected int) *interner {
	size := uint64(1024)
	for size < uint64(expected)*2 {
		size *= 2
	}
	in := &interner{data: data, seed: maphash.MakeSeed(), slots: make([]slot, size), mask: size - 1}
	adviseHugePages(in.slots)
	return in
}

// hash returns the hash of the name data[off:off+n].
func (in *interner) hash(off, n int) uint64 { return maphash.Bytes(in.seed, in.data[off:off+n]) }

// touch loads the slot a hash starts at, and the name it holds, so that a
// later id call finds both in cache. Touching a batch of names before
// looking them up lets their cache misses overlap instead of queueing. The
// byte read is kept in a field: a value nobody uses would let the compiler
// drop the load.
func (in *interner) touch(h uint64) {
	s := in.slots[h&in.mask]
	if s.n != 0 {
		in.touched += in.data[s.off]
	}
}

// id returns the id of the name data[off:off+n] with hash h, adding it if new.
func (in *interner) id(off, n int, h uint64) uint32 {
	key := in.data[off : off+n]
	tag := uint32(h>>32) | 1
	for i := h & in.mask; ; i = (i + 1) & in.mask {
		s := &in.slots[i]
		switch {
		case s.hash == 0:
			id := uint32(len(in.names))
			*s = slot{hash: tag, id: id, off: uint32(off), n: uint32(n)}
			in.names = append(in.names, span{uint32(off), uint32(n)})
			if uint64(len(in.names))*2 > uint64(len(in.slots)) {
				in.grow()
			}
			return id
		case s.hash == tag && int(s.n) == n && bytes.Equal(in.data[s.off:s.off+s.n], key):
			return s.id
		}
	}
}

// grow doubles the table.
func (in *interner) grow() {
	old := in.slots
	in.slots = make([]slot, 2*len(old))
	adviseHugePages(in.slots)
	in.mask = uint64(len(in.slots)) - 1
	for _, s := range old {
		if s.hash == 0 {
			continue
		}
		h := maphash.Bytes(in.seed, in.data[s.off:s.off+s.n])
		i := h & in.mask
		for in.slots[i].hash != 0 {
			i = (i + 1) & in.mask
		}
		in.slots[i] = s
	}
}

func (in *interner) len() int { return len(in.names) }

// strings returns every name as a string, by id.
func (in *interner) strings() []string {
	out := make([]string, len(in.names))
	for i, s := range in.names {
		out[i] = string(in.data[s.off : s.off+s.n])
	}
	return out
}

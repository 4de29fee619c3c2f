package graph

import (
	"bytes"
	"errors"
	"hash/maphash"
	"math"
)

// interner maps names to dense uint32 ids in order of first appearance. It
// is an open-addressing table of 16-byte slots that keeps each name's hash,
// so a lookup usually costs one memory access plus one comparison on a
// hit: on a large edge list the table, not parsing, is the cost, and Go's
// map costs several cache and TLB misses per lookup. Each distinct name is
// stored once, in an arena.
type interner struct {
	arena []byte // every distinct name, in order of first appearance
	seed  maphash.Seed
	slots []slot
	mask  uint64
	names []span // by id
	err   error  // set when the arena outgrows 32-bit offsets

	touched byte // see touch
}

type slot struct {
	hash uint32 // upper hash bits; 0 marks an empty slot
	id   uint32
	off  uint32 // the name is arena[off:off+n]
	n    uint32
}

type span struct{ off, n uint32 }

var errTooManyNames = errors.New("more than 4 GB of distinct vertex names")

func newInterner(expected int) *interner {
	size := uint64(1024)
	for size < uint64(expected)*2 {
		size *= 2
	}
	in := &interner{seed: maphash.MakeSeed(), slots: make([]slot, size), mask: size - 1}
	adviseHugePages(in.slots)
	return in
}

// hash returns the hash of a name. It only reads the seed, so the parsing
// goroutine may call it while another goroutine interns.
func (in *interner) hash(name []byte) uint64 { return maphash.Bytes(in.seed, name) }

// touch loads the slot a hash starts at, and the name it holds, so that a
// later id call finds both in cache. Touching a batch of names before
// looking them up lets their cache misses overlap instead of queueing. The
// byte read is kept in a field: a value nobody uses would let the compiler
// drop the load.
func (in *interner) touch(h uint64) {
	s := in.slots[h&in.mask]
	if s.n != 0 {
		in.touched += in.arena[s.off]
	}
}

// id returns the id of name, whose hash is h, adding it if new.
func (in *interner) id(name []byte, h uint64) uint32 {
	tag := uint32(h>>32) | 1
	for i := h & in.mask; ; i = (i + 1) & in.mask {
		s := &in.slots[i]
		switch {
		case s.hash == 0:
			return in.add(s, name, tag)
		case s.hash == tag && int(s.n) == len(name) && bytes.Equal(in.arena[s.off:s.off+s.n], name):
			return s.id
		}
	}
}

// add stores a new name in the empty slot s.
func (in *interner) add(s *slot, name []byte, tag uint32) uint32 {
	if len(in.arena)+len(name) > math.MaxUint32 {
		in.err = errTooManyNames
		return 0
	}
	id := uint32(len(in.names))
	off := uint32(len(in.arena))
	in.arena = append(in.arena, name...)
	*s = slot{hash: tag, id: id, off: off, n: uint32(len(name))}
	in.names = append(in.names, span{off, uint32(len(name))})
	if uint64(len(in.names))*2 > uint64(len(in.slots)) {
		in.grow()
	}
	return id
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
		i := in.hash(in.arena[s.off:s.off+s.n]) & in.mask
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
		out[i] = string(in.arena[s.off : s.off+s.n])
	}
	return out
}

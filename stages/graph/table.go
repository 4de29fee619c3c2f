package graph

import (
	"errors"
	"math"

	"github.com/topicrank/topicrank/internal/hugepages"
)

// table interns the names of one hash partition: local ids in order of
// first mention, in an open-addressing table of 16-byte slots. A slot
// keeps 31 bits of its name's hash (its tag) and a 64-bit check hash
// under an independent seed, and a lookup compares those, never the
// name: a name is read again only when it is new and is stored, once, in
// an arena. Comparing names cost a cache miss per endpoint (the names of
// one partition lie scattered over a window of the input), 29 of 99
// CPU-seconds on a 155 M-edge graph.
//
// Two names are taken for one only if 8 partition bits, 31 tag bits and
// 64 check bits of hashes under two random seeds all agree: for n names,
// a chance of about n²/2^104 in a run (1e-18 for 6.5 M names, 5e-14 for
// a billion), far below that of a memory error, and no input can be
// built to cause it, since the seeds are drawn anew for every read.
type table struct {
	arena []byte
	slots []slot
	mask  uint64
	names []span   // by local id
	first []uint64 // by local id: the input endpoint (2k source of edge k, 2k+1 its target) that first named it
	err   error
}

// A slot's tag is hash bits 24 to 54 shifted up, with bit 0 set: 0 marks
// an empty slot. Its place in the table is tag>>1 modulo the size, so a
// tag compares the hash bits above those that placed it. (The top 8 bits
// of the hash chose the partition.)
type slot struct {
	tag   uint32
	id    uint32
	check uint64
}

type span struct{ off, n uint32 }

func tag(h uint64) uint32 { return uint32(h>>23) | 1 }

// maxLocal bounds a partition's names: an interned id is the local id and
// the partition in 32 bits.
const maxLocal = 1<<(32-partBits) - 1

var errTooManyNames = errors.New("too many distinct vertex names (more than 4 billion, or 4 GB of them in one hash partition)")

func newTable() table {
	const size = 1024
	return table{slots: make([]slot, size), mask: size - 1}
}

// intern looks up partition p's endpoints of every piece, in input order,
// and sets their ids: local id << partBits | p.
func (t *table) intern(p int, pieces []*piece) {
	for _, pc := range pieces {
		for j := pc.start[p]; j < pc.start[p+1]; j++ {
			e := &pc.ents[j]
			id := t.id(pc.data[e.off:e.end], tag(e.hash), e.check, uint64(2*pc.base)+uint64(e.pos))
			pc.ids[j] = id<<partBits | uint32(p)
		}
	}
}

// id returns the local id of name, whose tag is tg and check hash check,
// adding it if new as first named by endpoint at.
func (t *table) id(name []byte, tg uint32, check uint64, at uint64) uint32 {
	for i := uint64(tg>>1) & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		switch {
		case s.tag == 0:
			return t.add(s, name, tg, check, at)
		case s.tag == tg && s.check == check:
			return s.id
		}
	}
}

// find returns the local id of the name whose tag is tg and check hash
// check, if it was added.
func (t *table) find(tg uint32, check uint64) (uint32, bool) {
	for i := uint64(tg>>1) & t.mask; ; i = (i + 1) & t.mask {
		switch s := &t.slots[i]; {
		case s.tag == 0:
			return 0, false
		case s.tag == tg && s.check == check:
			return s.id, true
		}
	}
}

// add stores a new name in the empty slot s.
func (t *table) add(s *slot, name []byte, tg uint32, check uint64, at uint64) uint32 {
	if len(t.arena)+len(name) > math.MaxUint32 || len(t.names) >= maxLocal {
		t.err = errTooManyNames
		return 0
	}
	id := uint32(len(t.names))
	off := uint32(len(t.arena))
	t.arena = append(double(t.arena, len(name)), name...)
	*s = slot{tag: tg, id: id, check: check}
	t.names = append(double(t.names, 1), span{off, uint32(len(name))})
	t.first = append(double(t.first, 1), at)
	if 2*len(t.names) > len(t.slots) {
		t.grow()
	}
	return id
}

// double returns s with room for n more, doubling its capacity when it
// must grow. append grows a large slice by a quarter and clears the new
// capacity, and every copy lands on fresh pages: growing the partitions'
// arenas and lists that way was 5 of 54 CPU-seconds on a 155 M-edge
// graph, most of it page faults. Memory made here is fresh from the
// heap, and untouched capacity costs no resident memory.
func double[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	d := make([]T, len(s), max(2*cap(s), len(s)+n, 64))
	copy(d, s)
	return d
}

// grow doubles the table.
func (t *table) grow() {
	old := t.slots
	t.slots = make([]slot, 2*len(old))
	t.mask = uint64(len(t.slots)) - 1
	hugepages.Advise(t.slots)
	for _, s := range old {
		if s.tag == 0 {
			continue
		}
		i := uint64(s.tag>>1) & t.mask
		for t.slots[i].tag != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = s
	}
}

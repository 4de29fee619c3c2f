// Package graph holds the link graph of a crawl or an edge-list file as a
// compressed sparse row (CSR) structure with uint32 vertex ids.
//
// Vertex ids are assigned in order of first appearance: discovery order for
// a crawl, first mention for an edge-list file. That order is the tie rule
// for every top-k list, so it is kept everywhere.
//
// Memory: a Graph costs about 16 bytes per vertex plus its name, and 4
// bytes per edge: it keeps the out-adjacency and the in-degrees. The
// in-adjacency, which only PageRank reads, is built on demand (InEdges)
// and PageRank turns it into its own layout in place, so that a graph of
// 155 M edges ranks in 16 bytes per edge.
package graph

import (
	"fmt"
	"runtime/debug"
	"slices"
	"unsafe"
)

// Graph is an immutable directed graph without duplicate edges or
// self-loops.
type Graph struct {
	names []string

	// outStart[v]..outStart[v+1] indexes outAdj: the targets of v's edges in
	// the order they were added.
	outStart []uint64
	outAdj   []uint32
	// inStart[v]..inStart[v+1] is where v's in-edges sit in InEdges.
	inStart []uint64
}

// NumVertices returns the number of vertices.
func (g *Graph) NumVertices() int { return len(g.names) }

// NumEdges returns the number of edges.
func (g *Graph) NumEdges() int { return len(g.outAdj) }

// Name returns the name of vertex v, e.g. "/wiki/Tennis".
func (g *Graph) Name(v uint32) string { return g.names[v] }

// Names returns all vertex names indexed by id. The caller must not modify it.
func (g *Graph) Names() []string { return g.names }

// Out returns the targets of v's out-edges. The caller must not modify it.
func (g *Graph) Out(v uint32) []uint32 { return g.outAdj[g.outStart[v]:g.outStart[v+1]] }

// InEdges is the in-adjacency of a graph: the sources of v's in-edges
// are Adj[Start[v]:Start[v+1]], in increasing order.
type InEdges struct {
	Start []uint64 // shared with the graph: the caller must not modify it
	Adj   []uint32 // the caller's own
}

// In returns the sources of v's in-edges.
func (e InEdges) In(v uint32) []uint32 { return e.Adj[e.Start[v]:e.Start[v+1]] }

// InEdges builds the in-adjacency, 4 bytes per edge, each time it is
// called: the graph does not keep it.
func (g *Graph) InEdges() InEdges {
	return InEdges{g.inStart, transpose(len(g.names), g.outStart, g.outAdj)}
}

// OutDegree returns the number of out-edges of v.
func (g *Graph) OutDegree(v uint32) int { return int(g.outStart[v+1] - g.outStart[v]) }

// InDegree returns the number of in-edges of v.
func (g *Graph) InDegree(v uint32) int { return int(g.inStart[v+1] - g.inStart[v]) }

// Builder accumulates edges between named vertices. The zero value is not
// usable; call NewBuilder.
//
// Names are interned in the edge-list reader's table (table.go): one
// arena and pointer-free slots, where a map of strings cost three times
// the memory and, at millions of names, most of what the collector
// scanned while a large table was read.
type Builder struct {
	index *Names   // nil for a builder given its names
	names []string // given, or made from the index by Build
	src   []uint32
	dst   []uint32

	// Duplicates and SelfLoops count the edges Build dropped.
	Duplicates int
	SelfLoops  int
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{index: NewNames()}
}

// Vertex returns the id of name, adding it as a new vertex if unseen. The
// name is copied: it may view a buffer the caller reuses.
func (b *Builder) Vertex(name string) uint32 {
	return b.index.Intern(unsafe.Slice(unsafe.StringData(name), len(name)))
}

// Hash returns name's hashes, for VertexHashed. It is safe for
// concurrent use.
func (b *Builder) Hash(name []byte) Hash { return b.index.Hash(name) }

// VertexHashed is Vertex for a name whose hashes h came from b.Hash.
func (b *Builder) VertexHashed(name []byte, h Hash) uint32 { return b.index.InternHashed(name, h) }

// Grow makes room for n more edges, so that adding them does not copy
// the ones already added (at large sizes, the copies are most of the
// peak memory).
func (b *Builder) Grow(n int) {
	b.src = slices.Grow(b.src, n)
	b.dst = slices.Grow(b.dst, n)
}

// NumVertices returns the number of vertices added so far.
func (b *Builder) NumVertices() int {
	if b.index != nil {
		return b.index.Len()
	}
	return len(b.names)
}

// AddEdge records the edge u -> v between existing vertex ids.
func (b *Builder) AddEdge(u, v uint32) {
	b.src = append(b.src, u)
	b.dst = append(b.dst, v)
}

// Build returns the graph. Self-loops and repeated edges are dropped and
// counted in b.SelfLoops and b.Duplicates; the first occurrence of an edge
// fixes its place in its source's adjacency. The Builder must not be used
// afterwards.
func (b *Builder) Build() (*Graph, error) {
	if b.index != nil {
		if err := b.index.Err(); err != nil {
			return nil, fmt.Errorf("graph: %w", err)
		}
		b.names, b.index = b.index.strings(), nil
	}
	n := len(b.names)
	if uint64(n) > 1<<32-1 {
		return nil, fmt.Errorf("graph: %d vertices exceed the uint32 id space", n)
	}
	g := &Graph{names: b.names}
	Release(len(b.src))
	g.outStart, g.outAdj = b.outCSR(n)
	g.inStart = inStart(n, g.outStart, g.outAdj)
	return g, nil
}

// Release returns the memory of what was just dropped to the system, when
// the graph of that many edges is large: Go's collector would otherwise
// run only once the heap doubled, and the next large arrays would come
// from new memory while the old sat unused (a 155 M-edge graph peaked at
// 5.2 GB instead of 2.4). The builder calls it between its phases, and
// PageRank once its tiling is dropped. It costs a collection, so small
// graphs (every crawl) skip it.
func Release(edges int) {
	if edges >= releaseAt {
		debug.FreeOSMemory()
	}
}

// releaseAt is the number of edges from which Release collects.
const releaseAt = 1 << 24

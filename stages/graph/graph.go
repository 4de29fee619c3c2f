// Package graph holds the link graph of a crawl or an edge-list file as a
// compressed sparse row (CSR) structure with uint32 vertex ids.
//
// Vertex ids are assigned in order of first appearance: discovery order for
// a crawl, first mention for an edge-list file. That order is the tie rule
// for every top-k list, so it is kept everywhere.
//
// Memory: a Graph costs about 16 bytes per vertex plus its name, and 8 bytes
// per edge (out- and in-adjacency, uint32 each).
package graph

import "fmt"

// Graph is an immutable directed graph without duplicate edges or
// self-loops.
type Graph struct {
	names []string

	// outStart[v]..outStart[v+1] indexes outAdj: the targets of v's edges in
	// the order they were added.
	outStart []uint64
	outAdj   []uint32
	// inStart/inAdj: the sources of edges into each vertex, in increasing
	// source order; PageRank pulls along them.
	inStart []uint64
	inAdj   []uint32
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

// In returns the sources of v's in-edges. The caller must not modify it.
func (g *Graph) In(v uint32) []uint32 { return g.inAdj[g.inStart[v]:g.inStart[v+1]] }

// InCSR exposes the in-adjacency for tight loops: the sources of v's
// in-edges are adj[start[v]:start[v+1]], in increasing order. The caller
// must not modify them.
func (g *Graph) InCSR() (start []uint64, adj []uint32) { return g.inStart, g.inAdj }

// OutDegree returns the number of out-edges of v.
func (g *Graph) OutDegree(v uint32) int { return int(g.outStart[v+1] - g.outStart[v]) }

// InDegree returns the number of in-edges of v.
func (g *Graph) InDegree(v uint32) int { return int(g.inStart[v+1] - g.inStart[v]) }

// Builder accumulates edges between named vertices. The zero value is not
// usable; call NewBuilder.
type Builder struct {
	ids   map[string]uint32
	names []string
	src   []uint32
	dst   []uint32

	// Duplicates and SelfLoops count the edges Build dropped.
	Duplicates int
	SelfLoops  int
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder { return &Builder{ids: make(map[string]uint32)} }

// Vertex returns the id of name, adding it as a new vertex if unseen.
func (b *Builder) Vertex(name string) uint32 {
	if id, ok := b.ids[name]; ok {
		return id
	}
	id := uint32(len(b.names))
	b.ids[name] = id
	b.names = append(b.names, name)
	return id
}

// NumVertices returns the number of vertices added so far.
func (b *Builder) NumVertices() int { return len(b.names) }

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
	n := len(b.names)
	if uint64(n) > 1<<32-1 {
		return nil, fmt.Errorf("graph: %d vertices exceed the uint32 id space", n)
	}
	g := &Graph{names: b.names}
	g.outStart, g.outAdj = b.outCSR(n)
	g.inStart, g.inAdj = transpose(n, g.outStart, g.outAdj)
	b.src, b.dst, b.ids = nil, nil, nil
	return g, nil
}

package dump

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/topicrank/topicrank/stages/graph"
)

// pages are a wiki's namespace-0 pages, by their row in page.sql: page
// id, title and whether a redirect. Titles are interned once, in one
// arena (graph.Names): maps keyed by millions of title strings cost
// three times the memory, scanned by the collector at every cycle.
type pages struct {
	titles   *graph.Names
	id       []int64
	title    []uint32 // title id
	redirect []bool
	byID     idIndex  // page id -> row
	byTitle  []uint32 // title id -> row (the last page of that title)
}

func readPages(ctx context.Context, path string) (*pages, error) {
	p := &pages{titles: graph.NewNames()}
	var n [3]int64
	err := each(ctx, path, "page", []string{"page_id", "page_namespace", "page_title", "page_is_redirect"}, func(row []Value, c []int) error {
		if err := ints(n[:], row, c[0], c[1], c[3]); err != nil || n[1] != 0 {
			return err
		}
		t := p.titles.Intern(row[c[2]].Bytes)
		r := uint32(len(p.id))
		p.id, p.title, p.redirect = append(p.id, n[0]), append(p.title, t), append(p.redirect, n[2] != 0)
		if int(t) == len(p.byTitle) {
			p.byTitle = append(p.byTitle, r)
		}
		p.byTitle[t] = r
		return nil
	})
	if err == nil {
		err = p.titles.Err()
	}
	rows := make([]uint32, len(p.id))
	for r := range rows {
		rows[r] = uint32(r)
	}
	p.byID = newIDIndex(p.id, rows)
	return p, err
}

// row returns the row of the page of a title, if any.
func (p *pages) row(title []byte) (uint32, bool) {
	t, ok := p.titles.Lookup(title)
	if !ok {
		return 0, false
	}
	return p.byTitle[t], true
}

// none is no vertex: a redirect's row.
const none = ^uint32(0)

// Read reads a wiki's dumps into its article link graph: namespace 0 on
// both ends, redirects followed to their targets (a redirect is no
// vertex; links to it count for its target), links to missing pages
// dropped. Vertices are the articles in page-table order, named
// /wiki/Title.
func Read(ctx context.Context, f Files) (*graph.Graph, Stats, error) {
	var st Stats
	// The garbage of parsing (every field of every row) comes at the rate
	// rows are read, while the edge arrays, most of the heap, hold no
	// pointers: at Go's default pace the garbage grew to half the peak.
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	p, err := readPages(ctx, f.Page)
	if err != nil {
		return nil, st, err
	}
	b := graph.NewBuilder()
	b.Grow(expectedLinks(f.PageLinks)) // grown as read, the edges were copied and held twice
	order := make([]uint32, len(p.id))
	for r := range order {
		order[r] = uint32(r)
	}
	slices.SortStableFunc(order, func(r, s uint32) int { return cmp.Compare(p.id[r], p.id[s]) }) // page.sql is in page_id order already; this keeps it whatever the file's
	vertex := make([]uint32, len(p.id))                                                          // by row
	for _, r := range order {
		if p.redirect[r] {
			vertex[r] = none
			st.Redirects++
		} else {
			vertex[r] = b.Vertex("/wiki/" + string(p.titles.Name(p.title[r])))
			if int(vertex[r]) == len(st.PageIDs) { // a new vertex (a title twice is one)
				st.PageIDs = append(st.PageIDs, p.id[r])
			}
			st.Articles++
		}
	}
	order = nil
	if b.NumVertices() >= 1<<31 { // a link's code marks redirects with bit 31
		return nil, st, fmt.Errorf("%s: %d articles: more than this reader numbers", f.Page, b.NumVertices())
	}
	target, err := redirects(ctx, f.Redirect, p, vertex, &st)
	if err != nil {
		return nil, st, err
	}
	// A link's target is found by one lookup of its title: an article's
	// vertex, a resolved redirect's target, or unresolved.
	codes := make([]uint32, p.titles.Len()) // by title
	for t, r := range p.byTitle {
		switch v, ok := target[r]; {
		case vertex[r] != none:
			codes[t] = vertex[r]
		case ok:
			codes[t] = v | 1<<31 // marked: through a redirect
		default:
			codes[t] = unresolved
		}
	}
	// code is a link target's code: its vertex (marked if through a
	// redirect), unresolved, or another namespace.
	code := func(ns int64, title []byte) uint32 {
		if ns != 0 {
			return otherNamespace
		}
		if t, ok := p.titles.Lookup(title); ok {
			return codes[t]
		}
		return unresolved
	}
	lastFrom, lastU := int64(-1), none
	err = links(ctx, f, code, func(from int64, v uint32) {
		st.Links++
		if from != lastFrom { // pagelinks comes sorted by pl_from
			lastFrom, lastU = from, none
			if r, ok := p.byID.get(from); ok {
				lastU = vertex[r]
			}
		}
		switch {
		case lastU == none || v == otherNamespace:
			st.NotArticle++
			return
		case v == unresolved:
			st.Missing++
			return
		case v&(1<<31) != 0:
			st.ViaRedirect++
			v &^= 1 << 31
		}
		b.AddEdge(lastU, v)
		st.Edges++
	})
	if err != nil {
		return nil, st, err
	}
	g, err := b.Build()
	return g, st, err
}

// redirects reads the redirect table and follows each namespace-0
// redirect to the article it ends at, through chains, counting chains and
// loops. It returns the articles' vertices by the redirects' rows.
func redirects(ctx context.Context, path string, p *pages, vertex []uint32, st *Stats) (map[uint32]uint32, error) {
	next := map[uint32]uint32{} // redirect's row -> the row of the page it names
	if path != "" {
		var n [2]int64
		err := each(ctx, path, "redirect", []string{"rd_from", "rd_namespace", "rd_title"}, func(row []Value, c []int) error {
			if err := ints(n[:], row, c[0], c[1]); err != nil {
				return err
			}
			from, ok := p.byID.get(n[0])
			if !ok || !p.redirect[from] || n[1] != 0 {
				return nil
			}
			if to, ok := p.row(row[c[2]].Bytes); ok {
				next[from] = to
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := map[uint32]uint32{}
	for from := range next {
		at, hops := from, 0
		for hops <= 64 {
			to, ok := next[at]
			if !ok {
				break
			}
			if v := vertex[to]; v != none {
				out[from] = v
				break
			}
			at, hops = to, hops+1
		}
		switch _, ok := out[from]; {
		case ok && hops > 0:
			st.RedirectChain++
		case !ok && hops > 64:
			st.RedirectLoop++
		}
	}
	return out, nil
}

// expectedLinks guesses the rows of a pagelinks dump from its size: 16
// bytes a row as written, and a quarter of that gzip-compressed (the 2024
// schema's rows take 17 to 20 bytes, and compress 3.8 times). Room
// reserved and never used costs address space, not memory.
func expectedLinks(path string) int {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	size := fi.Size()
	if strings.HasSuffix(path, ".gz") {
		size *= 4
	}
	return int(min(size/16, 1<<32))
}

// Target codes besides vertices (which are below 1<<31, marked with 1<<31
// when reached through a redirect).
const (
	unresolved     = ^uint32(0)     // a title no page has, or a redirect with no target
	otherNamespace = ^uint32(0) - 1 // not an article
)

// links calls link for every pagelinks row with its source page id and
// its target's code, from either schema. With the 2024 schema each
// linktarget row is coded once, and a link costs an integer lookup.
func links(ctx context.Context, f Files, code func(ns int64, title []byte) uint32, link func(from int64, target uint32)) error {
	t, done, err := openTable(f.PageLinks, "pagelinks")
	if err != nil {
		return err
	}
	defer done()
	if t.Column("pl_target_id") < 0 {
		var n [2]int64
		return eachRow(ctx, t, []string{"pl_from", "pl_namespace", "pl_title"}, func(row []Value, c []int) error {
			if err := ints(n[:], row, c[0], c[1]); err != nil {
				return err
			}
			link(n[0], code(n[1], row[c[2]].Bytes))
			return nil
		})
	}
	if f.LinkTarget == "" {
		return fmt.Errorf("%s: pagelinks by pl_target_id (the 2024 schema) needs the wiki's *-linktarget.sql.gz beside it", f.PageLinks)
	}
	var ids []int64
	var codes []uint32
	var n [2]int64
	err = each(ctx, f.LinkTarget, "linktarget", []string{"lt_id", "lt_namespace", "lt_title"}, func(row []Value, c []int) error {
		if err := ints(n[:], row, c[0], c[1]); err != nil {
			return err
		}
		ids, codes = append(ids, n[0]), append(codes, code(n[1], row[c[2]].Bytes))
		return nil
	})
	if err != nil {
		return err
	}
	targets := newIDIndex(ids, codes)
	ids, codes = nil, nil
	return eachRow(ctx, t, []string{"pl_from", "pl_target_id"}, func(row []Value, c []int) error {
		if err := ints(n[:], row, c[0], c[1]); err != nil {
			return err
		}
		t, ok := targets.get(n[1])
		if !ok {
			t = unresolved // a target id the linktarget table lacks
		}
		link(n[0], t)
		return nil
	})
}

// idIndex finds a value by an integer id: a slice indexed by id when the
// ids are dense (as auto-increment ids are: a link costs one load, where a
// hash map of millions costs a probe of cache-missing groups), else a map.
type idIndex struct {
	base  int64
	dense []uint32 // value+1 by id-base; 0: none (unresolved, ^0, wraps to 0: read as absent, which means the same)
	m     map[int64]uint32
}

func newIDIndex(ids []int64, vals []uint32) idIndex {
	if len(ids) == 0 {
		return idIndex{m: map[int64]uint32{}}
	}
	lo, hi := slices.Min(ids), slices.Max(ids)
	if hi-lo < 4*int64(len(ids))+1024 {
		x := idIndex{base: lo, dense: make([]uint32, hi-lo+1)}
		for i, id := range ids {
			x.dense[id-lo] = vals[i] + 1
		}
		return x
	}
	x := idIndex{m: make(map[int64]uint32, len(ids))}
	for i, id := range ids {
		x.m[id] = vals[i]
	}
	return x
}

func (x idIndex) get(id int64) (uint32, bool) {
	if x.dense == nil {
		v, ok := x.m[id]
		return v, ok
	}
	if i := id - x.base; i >= 0 && i < int64(len(x.dense)) && x.dense[i] != 0 {
		return x.dense[i] - 1, true
	}
	return 0, false
}

// ints reads the integer fields at cols of a row into dst.
func ints(dst []int64, row []Value, cols ...int) error {
	for i, c := range cols {
		v, err := row[c].Int()
		if err != nil {
			return err
		}
		dst[i] = v
	}
	return nil
}

package publish

import (
	"github.com/topicrank/topicrank/internal/parquet"

	"cmp"
	"slices"

	crawlpage "github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/rank"
)

// Change kinds of changes.parquet.
const (
	ChangeNew     = "new"     // a vertex now, not in the previous run
	ChangeRemoved = "removed" // in the previous run, not a vertex now
	ChangeKept    = "kept"    // a vertex in both
)

// appendChanged appends whether a page's content changed since prev: null
// without a previous run, or when either run did not fetch the page.
func appendChanged(b *parquet.Col[bool], prev *Previous, page, hash string) {
	if prev == nil || hash == "" {
		b.AppendNull()
		return
	}
	if changed, known := crawlpage.ContentChanged(prev.Hashes[page], hash); known {
		b.Append(changed)
		return
	}
	b.AppendNull()
}

// changesTable compares the run with the previous complete run: one row
// per epsilon and page of either run.
func changesTable(in *Input) tableSpec {
	fields := []column{
		field("previous_run_id", tString, true),
		field("epsilon", tFloat64, false),
		field("page", tString, false),
		field("change", tString, false),
		field("content_changed", tBool, true),
		field("rank", tFloat64, true),
		field("previous_rank", tFloat64, true),
		field("rank_delta", tFloat64, true),
		field("position", tInt32, true),
		field("previous_position", tInt32, true),
		field("in_degree", tInt32, true),
		field("previous_in_degree", tInt32, true),
		field("edited", tBool, true),
		field("cause", tString, false),
	}
	return tableSpec{fields, func(t *table) { appendChanges(t, in) }}
}

func appendChanges(t *table, in *Input) {
	g, prev := in.Graph, in.Previous
	hashes := map[string]string{}
	edited := map[string]*bool{}
	for _, p := range in.Crawl.Pages {
		hashes[p.Key], edited[p.Key] = p.ContentHash, p.Edited
	}
	current := map[string]bool{}
	for _, n := range g.Names() {
		current[n] = true
	}
	why := newCauser(in)
	for _, r := range in.Ranks {
		var old map[string]Ranked
		if prev != nil {
			old = prev.Ranks[r.Epsilon]
		}
		pos := make([]int32, len(r.Ranks))
		for i, v := range rank.Order(r.Ranks) {
			pos[v] = int32(i + 1)
		}
		for v, name := range g.Names() {
			appendPrevRun(t.str(2), prev)
			t.f64(3).Append(r.Epsilon)
			t.name(4).Append(name)
			o, had := old[name]
			if had {
				t.str(5).Append(ChangeKept)
			} else {
				t.str(5).Append(ChangeNew)
			}
			appendChanged(t.boolean(6), prev, name, hashes[name])
			t.f64(7).Append(r.Ranks[v])
			t.i32(10).Append(pos[v])
			t.i32(12).Append(int32(g.InDegree(uint32(v))))
			if had {
				t.f64(8).Append(o.Rank)
				t.f64(9).Append(r.Ranks[v] - o.Rank)
				t.i32(11).Append(o.Position)
			} else {
				t.f64(8).AppendNull()
				t.f64(9).AppendNull()
				t.i32(11).AppendNull()
			}
			appendPrevDegree(t.i32(13), prev, name)
			optBool(t.boolean(14), edited[name])
			if had {
				t.str(15).Append(why.kept(name, o.Position != pos[v]))
			} else {
				t.str(15).Append(why.entered(uint32(v)))
			}
			t.endRow()
		}
		for _, name := range byPosition(old) {
			o := old[name]
			if current[name] {
				continue
			}
			appendPrevRun(t.str(2), prev)
			t.f64(3).Append(r.Epsilon)
			t.name(4).Append(name)
			t.str(5).Append(ChangeRemoved)
			t.boolean(6).AppendNull()
			t.f64(7).AppendNull()
			t.f64(8).Append(o.Rank)
			t.f64(9).AppendNull()
			t.i32(10).AppendNull()
			t.i32(11).Append(o.Position)
			t.i32(12).AppendNull()
			appendPrevDegree(t.i32(13), prev, name)
			t.boolean(14).AppendNull()
			t.str(15).Append(why.left(name))
			t.endRow()
		}
	}
}

func appendPrevRun(b strCol, prev *Previous) {
	if prev == nil {
		b.AppendNull()
	} else {
		b.Append(prev.RunID)
	}
}

func appendPrevDegree(b *parquet.Col[int32], prev *Previous, page string) {
	if d, ok := prev.inDegree(page); ok {
		b.Append(d)
	} else {
		b.AppendNull()
	}
}

func (p *Previous) inDegree(page string) (int32, bool) {
	if p == nil {
		return 0, false
	}
	d, ok := p.InDegree[page]
	return d, ok
}

// byPosition returns the pages of ranks in rank order.
func byPosition(ranks map[string]Ranked) []string {
	pages := make([]string, 0, len(ranks))
	for p := range ranks {
		pages = append(pages, p)
	}
	slices.SortFunc(pages, func(a, b string) int { return cmp.Compare(ranks[a].Position, ranks[b].Position) })
	return pages
}

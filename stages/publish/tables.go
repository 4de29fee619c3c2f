package publish

import (
	"math"
	"net/http"
	"strings"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/rank"
)

// The column lists below are the published schemas; outputs/README.md
// documents each column and must change with them. Column 0 is job and 1
// is run_id (see table.endRow), so a table's own columns start at 2.

func pagesTable(in *Input) tableSpec {
	fields := []column{
		distinct(field("page", tString, false)),
		field("vertex_id", tInt32, false),
		field("discovery_order", tInt32, false),
		field("weight", tFloat64, false),
		field("fetched_at", tTimestamp, true),
		field("http_status", tInt32, true),
		field("error_class", tString, true),
		field("fetch_error", tString, true),
		field("attempts", tInt32, false),
		field("fetch_ms", tInt64, false),
		field("title", tString, true),
		field("content_hash", tString, true),
		field("bytes", tInt64, false),
		field("links", tInt32, false),
		field("discovered_as", tString, true),
		field("changed", tBool, true),
		field("structure_changed", tBool, false),
		field("replayed", tBool, false),
		field("relevance", tFloat64, true),
		field("relevant", tBool, true),
		field("depth", tInt32, false),
		field("near_duplicate_of", tString, true),
		field("near_duplicate_jaccard", tFloat64, true),
		field("bytes_downloaded", tInt64, false),
		field("visits", tInt32, true),
		field("textual_changes", tInt32, true),
		field("structural_changes", tInt32, true),
		field("change_rate", tFloat64, true),
		field("last_changed", tTimestamp, true),
		field("revisit", tString, true),
		field("last_modified", tTimestamp, true),
		field("fetch_state", tString, false),
		field("page_id", tInt64, true),
		field("revision_id", tInt64, true),
		field("wikidata_id", tString, true),
		field("edited", tBool, true),
		field("edits", tInt32, true),
		field("topic_words", tString, true),
	}
	return tableSpec{fields, func(t *table) {
		for i, p := range in.Crawl.Pages {
			t.name(2).Append(p.Key)
			t.i32(3).Append(int32(i))
			t.i32(4).Append(int32(i + 1))
			t.f64(5).Append(p.Weight)
			if p.FetchedAt.IsZero() {
				t.ts(6).AppendNull()
			} else {
				t.ts(6).Append(p.FetchedAt.UnixMicro())
			}
			if p.Status == 0 {
				t.i32(7).AppendNull()
			} else {
				t.i32(7).Append(int32(p.Status))
			}
			optString(t.str(8), p.Class)
			optString(t.str(9), p.Error)
			t.i32(10).Append(int32(p.Attempts))
			t.i64(11).Append(p.Duration.Milliseconds())
			optString(t.str(12), p.Title)
			optString(t.str(13), p.ContentHash)
			t.i64(14).Append(int64(p.Bytes))
			t.i32(15).Append(int32(p.Links))
			optString(t.name(16), p.Discovered)
			appendChanged(t.boolean(17), in.Previous, p.Key, p.ContentHash)
			t.boolean(18).Append(p.StructureChanged)
			t.boolean(19).Append(p.Replayed)
			if !p.State.Usable() || !in.Crawl.Judged { // no text read, or no topic to judge by
				t.f64(20).AppendNull()
				t.boolean(21).AppendNull()
			} else {
				t.f64(20).Append(p.Relevance)
				t.boolean(21).Append(p.Relevant)
			}
			t.i32(22).Append(int32(p.Depth))
			if of := in.NearDuplicateOf; of != nil && of[i] >= 0 {
				t.name(23).Append(in.Crawl.Pages[of[i]].Key)
				t.f64(24).Append(in.NearDuplicateJaccard[i])
			} else {
				t.name(23).AppendNull()
				t.f64(24).AppendNull()
			}
			t.i64(25).Append(int64(p.Downloaded))
			appendHistory(t, 26, in.History, p)
			t.str(33).Append(string(p.State))
			optInt64(t.i64(34), p.PageID)
			optInt64(t.i64(35), p.RevisionID)
			optString(t.str(36), p.WikidataID)
			optBool(t.boolean(37), p.Edited)
			if h, ok := in.History[p.Key]; ok {
				t.i32(38).Append(int32(h.Edits))
			} else {
				t.i32(38).AppendNull()
			}
			if !p.State.Usable() || !in.Crawl.Judged {
				t.str(39).AppendNull()
			} else {
				t.str(39).Append(strings.Join(p.TopicWords, ", "))
			}
			t.endRow()
		}
	}}
}

func edgesTable(in *Input) tableSpec {
	fields := []column{
		vertexField("src"),
		vertexField("dst"),
		field("src_id", tInt32, false),
		field("dst_id", tInt32, false),
	}
	return tableSpec{fields, func(t *table) {
		g := in.Graph
		t.expect(g.NumEdges())
		src, dst, srcID, dstID := t.vertex(2), t.vertex(3), t.i32(4), t.i32(5)
		for u := range g.NumVertices() {
			// A source's edges are appended together, up to the end of
			// the row group.
			for out := g.Out(uint32(u)); len(out) > 0; {
				n := min(len(out), t.room())
				for _, v := range out[:n] {
					src.Append(uint32(u))
					srcID.Append(int32(u))
					dstID.Append(int32(v))
				}
				dst.appendIDs(out[:n])
				t.endRows(n)
				out = out[n:]
			}
		}
	}}
}

func degreesTable(in *Input) tableSpec {
	fields := []column{
		pageField("page"),
		field("vertex_id", tInt32, false),
		field("in_degree", tInt32, false),
		field("out_degree", tInt32, false),
	}
	return tableSpec{fields, func(t *table) {
		g := in.Graph
		t.expect(g.NumVertices())
		for v := range g.NumVertices() {
			t.vertex(2).Append(uint32(v))
			t.i32(3).Append(int32(v))
			t.i32(4).Append(int32(g.InDegree(uint32(v))))
			t.i32(5).Append(int32(g.OutDegree(uint32(v))))
			t.endRow()
		}
	}}
}

func ranksTable(in *Input, r rank.Result) tableSpec {
	fields := []column{
		field("epsilon", tFloat64, false),
		pageField("page"),
		field("vertex_id", tInt32, false),
		field("rank", tFloat64, false),
		field("position", tInt32, false),
		field("iterations", tInt32, false),
		field("residual", tFloat64, false),
		field("global_rank", tFloat64, true),
		field("global_position", tInt32, true),
		field("page_id", tInt64, true),
	}
	var names []string
	if in.Global != nil {
		names = in.safeNames()
	}
	ids := in.pageIDs()
	return tableSpec{fields, func(t *table) {
		constant(t, 2, r.Epsilon)
		constant(t, 7, int32(r.Iterations))
		constant(t, 8, r.Residual)
		t.expect(len(r.Ranks))
		for pos, v := range rank.Order(r.Ranks) {
			t.vertex(3).Append(v)
			t.i32(4).Append(int32(v))
			t.f64(5).Append(r.Ranks[v])
			t.i32(6).Append(int32(pos + 1))
			var id int64
			if ids != nil {
				id = ids[v]
			}
			if g, ok := in.Global.Of(pick(names, v), id); ok {
				t.f64(9).Append(g.Rank)
				t.i32(10).Append(g.Position)
			} else {
				t.f64(9).AppendNull()
				t.i32(10).AppendNull()
			}
			optInt64(t.i64(11), id)
			t.endRow()
		}
	}}
}

// appendHistory appends a page's change history from column first on.
func appendHistory(t *table, first int, hist map[string]PageHistory, p crawl.Page) {
	h, ok := hist[p.Key]
	if !ok {
		for c := first; c < first+3; c++ {
			t.i32(c).AppendNull()
		}
		t.f64(first + 3).AppendNull()
		t.ts(first + 4).AppendNull()
	} else {
		t.i32(first).Append(int32(h.Visits))
		t.i32(first + 1).Append(int32(h.Textual))
		t.i32(first + 2).Append(int32(h.Structural))
		if math.IsNaN(h.ChangeRate) {
			t.f64(first + 3).AppendNull()
		} else {
			t.f64(first + 3).Append(h.ChangeRate)
		}
		if h.LastChanged.IsZero() {
			t.ts(first + 4).AppendNull()
		} else {
			t.ts(first + 4).Append(h.LastChanged.UnixMicro())
		}
	}
	optString(t.str(first+5), p.Revisit)
	if lm, err := http.ParseTime(p.LastModified); err == nil {
		t.ts(first + 6).Append(lm.UnixMicro())
	} else {
		t.ts(first + 6).AppendNull()
	}
}

// pick returns names[v], or "" without names.
func pick(names []string, v uint32) string {
	if names == nil {
		return ""
	}
	return names[v]
}

// pageIDs returns each vertex's page id (0: unknown), or nil if none is
// known: a dump's, or a crawl's pages'.
func (in *Input) pageIDs() []int64 {
	if in.PageIDs != nil {
		return in.PageIDs
	}
	if in.Crawl == nil {
		return nil
	}
	ids := make([]int64, len(in.Crawl.Pages))
	for i, p := range in.Crawl.Pages {
		ids[i] = p.PageID
	}
	return ids
}

package publish

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/topicrank/topicrank/stages/crawl"
)

// Previous is what a run needs of the previous complete run of its job to
// say what changed: content hashes, in-degrees and ranks by page.
type Previous struct {
	RunID     string
	Hashes    map[string]string             // page -> content hash (fetched pages only)
	InDegree  map[string]int32              // page -> in-degree
	OutDegree map[string]int32              // page -> out-degree
	Ranks     map[float64]map[string]Ranked // epsilon -> page -> rank
	// Relevance is each judged page's relevance to the topic (absent for
	// pages not judged, and for jobs without a topic).
	Relevance map[string]float64
	// Unsound are the pages whose fetch failed (their HTTP status, 0 for
	// none): vertices without content, never movers.
	Unsound map[string]int32
	// Revision is each page's revision id, where it was known.
	Revision map[string]int64
	// Sources are each page's in-links: the pages linking to it.
	Sources map[string][]string
	// TopicWords are each judged page's topic words (runs before them:
	// none).
	TopicWords map[string]string
	// TopicRanks are topic-sensitive PageRank by epsilon (empty: none).
	TopicRanks map[float64]map[string]Ranked
}

// Ranked is a page's rank and position for one epsilon, and its global
// rank and position (from a whole-wiki ranking; 0 when not given).
type Ranked struct {
	Rank           float64
	Position       int32
	GlobalRank     float64
	GlobalPosition int32
}

// ReadPrevious reads the tables of the published run in dir.
func ReadPrevious(dir string) (*Previous, error) {
	p := &Previous{RunID: filepath.Base(dir), Hashes: map[string]string{}, InDegree: map[string]int32{}, OutDegree: map[string]int32{},
		Ranks: map[float64]map[string]Ranked{}, Relevance: map[string]float64{},
		Unsound: map[string]int32{}, Revision: map[string]int64{}, Sources: map[string][]string{},
		TopicRanks: map[float64]map[string]Ranked{}, TopicWords: map[string]string{}}
	err := readTable(filepath.Join(dir, "pages.parquet"), func(r row) {
		page := r.mustStr("page")
		if h, ok := r.str("content_hash"); ok {
			p.Hashes[page] = h
		}
		if _, has := r.cols["fetch_state"]; has && r.mustStr("fetch_state") == string(crawl.Failed) { // runs before fetch states lack it
			p.Unsound[page] = 0
			if a, ok := r.cols["http_status"].(*array.Int32); ok && a.IsValid(r.i) {
				p.Unsound[page] = a.Value(r.i)
			}
		}
		if a, ok := r.cols["revision_id"].(*array.Int64); ok && a.IsValid(r.i) {
			p.Revision[page] = a.Value(r.i)
		}
		if a, ok := r.cols["topic_words"].(*array.String); ok && a.IsValid(r.i) {
			p.TopicWords[page] = a.Value(r.i)
		}
		if a, ok := r.cols["relevance"].(*array.Float64); ok && a.IsValid(r.i) {
			p.Relevance[r.mustStr("page")] = a.Value(r.i)
		}
	})
	if err == nil {
		err = readTable(filepath.Join(dir, "degrees.parquet"), func(r row) {
			p.InDegree[r.mustStr("page")] = r.int32("in_degree")
			p.OutDegree[r.mustStr("page")] = r.int32("out_degree")
		})
	}
	if err == nil {
		err = readTable(filepath.Join(dir, "edges.parquet"), func(r row) {
			dst := r.mustStr("dst")
			p.Sources[dst] = append(p.Sources[dst], r.mustStr("src"))
		})
	}
	if err != nil {
		return nil, err
	}
	for eps, path := range rankFiles(dir) {
		ranks, err := readRanks(path)
		if err != nil {
			return nil, err
		}
		p.Ranks[eps] = ranks
	}
	topic, _ := filepath.Glob(filepath.Join(dir, "topic_ranks", "*.parquet"))
	for _, f := range topic {
		eps, err := strconv.ParseFloat(strings.TrimSuffix(filepath.Base(f), ".parquet"), 64)
		if err != nil {
			continue
		}
		if p.TopicRanks[eps], err = readRanks(f); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// rankFiles finds a run's ranks table per epsilon: ranks/<e>.parquet, or
// ranks/epsilon=<e>/ranks.parquet in runs published before that layout.
func rankFiles(dir string) map[float64]string {
	files := map[float64]string{}
	old, _ := filepath.Glob(filepath.Join(dir, "ranks", "epsilon=*", "ranks.parquet"))
	for _, f := range old {
		if eps, err := strconv.ParseFloat(strings.TrimPrefix(filepath.Base(filepath.Dir(f)), "epsilon="), 64); err == nil {
			files[eps] = f
		}
	}
	cur, _ := filepath.Glob(filepath.Join(dir, "ranks", "*.parquet"))
	for _, f := range cur {
		if eps, err := strconv.ParseFloat(strings.TrimSuffix(filepath.Base(f), ".parquet"), 64); err == nil {
			files[eps] = f
		}
	}
	return files
}

// row is one row of a table being read.
type row struct {
	cols map[string]arrow.Array
	i    int
}

func (r row) str(name string) (string, bool) {
	if d, ok := r.cols[name].(*array.Dictionary); ok { // page names
		if d.IsNull(r.i) {
			return "", false
		}
		return d.Dictionary().(*array.String).Value(d.GetValueIndex(r.i)), true
	}
	a := r.cols[name].(*array.String)
	return a.Value(r.i), a.IsValid(r.i)
}

func (r row) boolean(name string) (bool, bool) {
	a := r.cols[name].(*array.Boolean)
	return a.Value(r.i), a.IsValid(r.i)
}

// micros returns a timestamp column's microseconds (false if null or absent).
func (r row) micros(name string) (int64, bool) {
	a, ok := r.cols[name].(*array.Timestamp)
	if !ok || a.IsNull(r.i) {
		return 0, false
	}
	return int64(a.Value(r.i)), true
}

// optFloat64 and optInt32 read a nullable column that older tables lack
// (0 when null or absent).
func (r row) optFloat64(name string) float64 {
	if a, ok := r.cols[name].(*array.Float64); ok && a.IsValid(r.i) {
		return a.Value(r.i)
	}
	return 0
}

func (r row) optInt32(name string) int32 {
	if a, ok := r.cols[name].(*array.Int32); ok && a.IsValid(r.i) {
		return a.Value(r.i)
	}
	return 0
}

func (r row) optInt64(name string) int64 {
	if a, ok := r.cols[name].(*array.Int64); ok && a.IsValid(r.i) {
		return a.Value(r.i)
	}
	return 0
}

func (r row) mustStr(name string) string  { s, _ := r.str(name); return s }
func (r row) int32(name string) int32     { return r.cols[name].(*array.Int32).Value(r.i) }
func (r row) float64(name string) float64 { return r.cols[name].(*array.Float64).Value(r.i) }

// readTable calls f for every row of a Parquet file.
func readTable(path string, f func(row)) (err error) {
	defer func() { // a column of an unexpected type is a corrupt table, not a crash
		if e := recover(); e != nil {
			err = fmt.Errorf("%s: unexpected schema: %v", path, e)
		}
	}()
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	tbl, err := pqarrow.ReadTable(context.Background(), file, parquet.NewReaderProperties(memory.DefaultAllocator),
		pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, tbl.NumRows())
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		cols := map[string]arrow.Array{}
		for i, fld := range rec.Schema().Fields() {
			cols[fld.Name] = rec.Column(i)
		}
		for i := range int(rec.NumRows()) {
			f(row{cols, i})
		}
	}
	return nil
}

// GlobalRanks is a whole wiki's ranks table (ranks/<e>.parquet, as rank
// -dump -out writes one), by page name and, where the table has them, by
// page id.
type GlobalRanks struct {
	ByName map[string]Ranked
	ByID   map[int64]Ranked
}

// ReadRanks reads a ranks table into each page's rank and position.
func ReadRanks(path string) (*GlobalRanks, error) {
	g := &GlobalRanks{ByName: map[string]Ranked{}, ByID: map[int64]Ranked{}}
	err := readTable(path, func(r row) {
		rk := Ranked{Rank: r.float64("rank"), Position: r.int32("position")}
		g.ByName[r.mustStr("page")] = rk
		if id := r.optInt64("page_id"); id != 0 {
			g.ByID[id] = rk
		}
	})
	if err == nil && len(g.ByName) == 0 {
		err = fmt.Errorf("%s: no ranks", path)
	}
	return g, err
}

// Of returns the global rank of a page: by its page id where both sides
// have one, else by its name.
func (g *GlobalRanks) Of(name string, pageID int64) (Ranked, bool) {
	if g == nil {
		return Ranked{}, false
	}
	if pageID != 0 && len(g.ByID) > 0 {
		r, ok := g.ByID[pageID]
		return r, ok
	}
	r, ok := g.ByName[name]
	return r, ok
}

// readRanks reads a ranks table by page, global ranks included where the
// table has them.
func readRanks(path string) (map[string]Ranked, error) {
	out := map[string]Ranked{}
	err := readTable(path, func(r row) {
		out[r.mustStr("page")] = Ranked{Rank: r.float64("rank"), Position: r.int32("position"),
			GlobalRank: r.optFloat64("global_rank"), GlobalPosition: r.optInt32("global_position")}
	})
	return out, err
}

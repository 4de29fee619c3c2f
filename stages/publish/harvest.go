package publish

import (
	"io"

	"github.com/topicrank/topicrank/internal/parquet"
)

// Harvest is one strategy's crawl in an evaluation (runner evaluate).
type Harvest struct {
	Strategy, Admission string
	// Night is the night of an evaluation of nights (evaluate -nights),
	// counted from 1; 0 in an evaluation of one crawl per strategy.
	Night           int
	Pages           int // vertices
	Fetched, Failed int
	NotFound        int // answered 404 or 410
	Relevant        int
	Seconds         float64
	// Curve[i] is the number of relevant pages among the first i+1 pages
	// fetched, in the order the crawl fetched them.
	Curve []int
	// Overlap[s] is how many of this strategy's top-20 pages by PageRank
	// are in strategy s's top 20.
	Overlap map[string]int
	// Churn is the change of vertices since the night before: nil on a
	// first night and in an evaluation of one crawl per strategy.
	Churn *Churn
}

// Rate is the harvest rate: relevant pages over fetched pages.
func (h Harvest) Rate() float64 {
	if h.Fetched == 0 {
		return 0
	}
	return float64(h.Relevant) / float64(h.Fetched)
}

// WriteHarvest writes an evaluation's tables into dir: harvest.parquet
// (one row per crawl: a strategy, or a strategy's night, with its
// churn), overlap.parquet (one row per pair of strategies) and
// curve.parquet (one row per strategy and page fetched).
func WriteHarvest(dir, job, runID string, hs []Harvest) ([]File, error) {
	specs := []struct {
		path string
		spec tableSpec
	}{
		{"harvest.parquet", harvestTable(hs)},
		{"overlap.parquet", overlapTable(hs)},
		{"curve.parquet", curveTable(hs)},
	}
	in := &Input{Job: job, RunID: runID}
	var files []File
	for _, s := range specs {
		f, err := writeFile(dir, s.path, func(w io.Writer) (int64, error) { return writeTable(w, in, s.spec) })
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func harvestTable(hs []Harvest) tableSpec {
	fields := []column{
		field("strategy", tString, false),
		field("admission", tString, false),
		field("pages", tInt32, false),
		field("fetched", tInt32, false),
		field("failed", tInt32, false),
		field("not_found", tInt32, false),
		field("relevant", tInt32, false),
		field("harvest_rate", tFloat64, false),
		field("seconds", tFloat64, false),
		field("night", tInt32, true),
	}
	fields = append(fields, churnFields()...)
	return tableSpec{fields, func(t *table) {
		for _, h := range hs {
			night(t.i32(11), h.Night)
			appendChurn(t, 12, h.Churn)
			t.str(2).Append(h.Strategy)
			t.str(3).Append(h.Admission)
			t.i32(4).Append(int32(h.Pages))
			t.i32(5).Append(int32(h.Fetched))
			t.i32(6).Append(int32(h.Failed))
			t.i32(7).Append(int32(h.NotFound))
			t.i32(8).Append(int32(h.Relevant))
			t.f64(9).Append(h.Rate())
			t.f64(10).Append(h.Seconds)
			t.endRow()
		}
	}}
}

func overlapTable(hs []Harvest) tableSpec {
	fields := []column{
		field("strategy", tString, false),
		field("other", tString, false),
		field("top20_overlap", tInt32, false),
	}
	return tableSpec{fields, func(t *table) {
		for _, h := range hs {
			for _, o := range hs {
				t.str(2).Append(h.Strategy)
				t.str(3).Append(o.Strategy)
				t.i32(4).Append(int32(h.Overlap[o.Strategy]))
				t.endRow()
			}
		}
	}}
}

func curveTable(hs []Harvest) tableSpec {
	fields := []column{
		field("strategy", tString, false),
		field("fetched", tInt32, false),
		field("relevant", tInt32, false),
		field("night", tInt32, true),
	}
	return tableSpec{fields, func(t *table) {
		for _, h := range hs {
			for i, r := range h.Curve {
				night(t.i32(5), h.Night)
				t.str(2).Append(h.Strategy)
				t.i32(3).Append(int32(i + 1))
				t.i32(4).Append(int32(r))
				t.endRow()
			}
		}
	}}
}

// night appends an evaluation's night, null for an evaluation of one
// crawl per strategy.
func night(c *parquet.Col[int32], n int) {
	if n == 0 {
		c.AppendNull()
		return
	}
	c.Append(int32(n))
}

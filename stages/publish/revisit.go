package publish

import (
	"io"
	"math"
	"path/filepath"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/revisit"
)

// ReadNight reads a published run's pages as a night to replay: every
// page fetched with usable content, in vertex order. It also says whether
// the run fetched every known page (revisit: all), which is what makes a
// run's hashes the truth of its night.
func ReadNight(dir string) (night revisit.Night, whole bool, err error) {
	whole = true
	err = readTable(filepath.Join(dir, "pages.parquet"), func(r row) {
		if reason, ok := r.str("revisit"); ok && reason != crawl.ReasonAll && reason != crawl.ReasonNew {
			whole = false
		}
		hash, ok := r.str("content_hash")
		if !ok {
			return
		}
		changed, _ := r.boolean("structure_changed")
		s := revisit.Snapshot{Key: r.mustStr("page"), Hash: hash, Revision: r.optInt64("revision_id"),
			Relevance: r.float64("relevance"), StructureChanged: changed}
		if us, ok := r.micros("last_modified"); ok {
			s.Modified = float64(us) / 86400e6
		}
		night = append(night, s)
	})
	return night, whole, err
}

// WriteRevisit writes a revisit evaluation into dir: revisit.parquet, one
// row per policy and replayed night plus one (night 0) for the means.
func WriteRevisit(dir, job, runID string, budget float64, scores []revisit.Score) (File, error) {
	in := &Input{Job: job, RunID: runID}
	return writeFile(dir, "revisit.parquet", func(w io.Writer) (int64, error) {
		return writeTable(w, in, revisitTable(budget, scores))
	})
}

func revisitTable(budget float64, scores []revisit.Score) tableSpec {
	fields := []column{
		field("policy", tString, false),
		field("budget", tFloat64, false),
		field("night", tInt32, false), // 0: the mean of the nights
		field("fetched", tInt32, false),
		field("change_recall", tFloat64, true),
		field("backlog_recall", tFloat64, true),
		field("freshness", tFloat64, true),
		field("mean_age", tFloat64, true),
	}
	opt := func(t *table, c int, v float64) {
		if math.IsNaN(v) {
			t.f64(c).AppendNull()
		} else {
			t.f64(c).Append(v)
		}
	}
	return tableSpec{fields, func(t *table) {
		for _, s := range scores {
			for _, n := range append([]revisit.NightScore{s.Mean}, s.Nights...) {
				t.str(2).Append(string(s.Policy))
				t.f64(3).Append(budget)
				t.i32(4).Append(int32(n.Night))
				t.i32(5).Append(int32(n.Fetched))
				opt(t, 6, n.ChangeRecall)
				opt(t, 7, n.BacklogRecall)
				opt(t, 8, n.Freshness)
				opt(t, 9, n.MeanAge)
				t.endRow()
			}
		}
	}}
}

package publish

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"time"
)

// RunRow is one run of a job in runs.parquet: what happened, when, and
// how much.
type RunRow struct {
	RunID, Status, Problems                                   string
	Started, Finished                                         time.Time
	CrawlSeconds, GraphSeconds, RankSeconds, PublishSeconds   float64
	Vertices, Edges, Fetched, Failed, NotFound, Changed       int
	NotModified, Replayed, Relevant                           int
	Carried, NotFetched, Judged, Requests                     int
	BytesDownloaded                                           int64
	HarvestRate                                               *float64
	PreviousRunID, ResumedFrom, ConfigDigest, Robots, Version string
	// Churn compares the run's vertices with the previous complete
	// run's; nil without one.
	Churn *Churn
}

// Churn is how a run's vertex set differs from the previous run's: pages
// kept, entered and left, and the Jaccard of the two sets.
type Churn struct {
	Kept    int     `json:"kept"`
	Entered int     `json:"entered"`
	Left    int     `json:"left"`
	Jaccard float64 `json:"jaccard"`
}

// CompareVertices returns the churn from the vertex set prev to cur.
func CompareVertices(prev map[string]bool, cur []string) Churn {
	var c Churn
	for _, k := range cur {
		if prev[k] {
			c.Kept++
		} else {
			c.Entered++
		}
	}
	c.Left = len(prev) - c.Kept
	if u := c.Kept + c.Entered + c.Left; u > 0 {
		c.Jaccard = float64(c.Kept) / float64(u)
	}
	return c
}

// WriteRuns replaces path (a job's runs.parquet) with one row per run: the
// table is written beside it, synced and renamed over it, so a reader sees
// the old catalogue or the new one, never a part. The caller holds the
// job's lock, so no other writer uses the temporary name.
func WriteRuns(path, job string, rows []RunRow) error {
	dir, tmp := filepath.Dir(path), "."+filepath.Base(path)+".tmp"
	in := &Input{Job: job}
	if _, err := writeFile(dir, tmp, func(w io.Writer) (int64, error) { return writeTable(w, in, runsTable(rows)) }); err != nil {
		os.Remove(filepath.Join(dir, tmp))
		return err
	}
	return os.Rename(filepath.Join(dir, tmp), path)
}

// EncodeRuns returns the bytes WriteRuns writes for rows: verify compares
// a job's runs.parquet with them.
func EncodeRuns(job string, rows []RunRow) ([]byte, error) { return encodeRunsAs(job, rows, "") }

// encodeRunsAs is EncodeRuns as the build of version ver writes it.
func encodeRunsAs(job string, rows []RunRow, ver string) ([]byte, error) {
	var b bytes.Buffer
	if _, err := writeTable(&b, &Input{Job: job, version: ver}, runsTable(rows)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func runsTable(rows []RunRow) tableSpec {
	fields := []column{
		field("status", tString, false),
		field("problems", tString, true),
		field("started", tTimestamp, false),
		field("finished", tTimestamp, false),
		field("crawl_seconds", tFloat64, false),
		field("graph_seconds", tFloat64, false),
		field("rank_seconds", tFloat64, false),
		field("publish_seconds", tFloat64, false),
		field("vertices", tInt32, false),
		field("edges", tInt64, false),
		field("fetched", tInt32, false),
		field("failed", tInt32, false),
		field("not_found", tInt32, false),
		field("changed", tInt32, false),
		field("not_modified", tInt32, false),
		field("replayed", tInt32, false),
		field("relevant", tInt32, false),
		field("harvest_rate", tFloat64, true),
		field("previous_run_id", tString, true),
		field("resumed_from", tString, true),
		field("config_digest", tString, false),
		field("robots", tString, false),
		field("topicrank_version", tString, false),
		field("carried", tInt32, false),
		field("not_fetched", tInt32, false),
		field("judged", tInt32, false),
		field("requests", tInt64, false),
		field("bytes_downloaded", tInt64, false),
	}
	fields = append(fields, churnFields()...)
	return tableSpec{fields, func(t *table) {
		for _, r := range rows {
			t.runID = r.RunID // each row is its own run
			t.str(2).Append(r.Status)
			optString(t.str(3), r.Problems)
			t.ts(4).Append(r.Started.UnixMicro())
			t.ts(5).Append(r.Finished.UnixMicro())
			for i, s := range []float64{r.CrawlSeconds, r.GraphSeconds, r.RankSeconds, r.PublishSeconds} {
				t.f64(6 + i).Append(s)
			}
			t.i32(10).Append(int32(r.Vertices))
			t.i64(11).Append(int64(r.Edges))
			for i, n := range []int{r.Fetched, r.Failed, r.NotFound, r.Changed, r.NotModified, r.Replayed, r.Relevant} {
				t.i32(12 + i).Append(int32(n))
			}
			if r.HarvestRate == nil {
				t.f64(19).AppendNull()
			} else {
				t.f64(19).Append(*r.HarvestRate)
			}
			optString(t.str(20), r.PreviousRunID)
			optString(t.str(21), r.ResumedFrom)
			t.str(22).Append(r.ConfigDigest)
			t.str(23).Append(r.Robots)
			t.str(24).Append(r.Version)
			for i, n := range []int{r.Carried, r.NotFetched, r.Judged} {
				t.i32(25 + i).Append(int32(n))
			}
			t.i64(28).Append(int64(r.Requests))
			t.i64(29).Append(r.BytesDownloaded)
			appendChurn(t, 30, r.Churn)
			t.endRow()
		}
	}}
}

// ReadRunIDs reads the run ids and statuses a runs.parquet lists, in order.
func ReadRunIDs(path string) (ids, statuses []string, err error) {
	err = readTable(path, func(r row) {
		ids = append(ids, r.mustStr("run_id"))
		statuses = append(statuses, r.mustStr("status"))
	})
	return ids, statuses, err
}

// churnFields are the columns of a night's change of vertices from the
// night before: kept, entered, left and jaccard, null without one.
func churnFields() []column {
	return []column{
		field("kept", tInt32, true),
		field("entered", tInt32, true),
		field("left", tInt32, true),
		field("jaccard", tFloat64, true),
	}
}

// appendChurn appends c to churnFields' columns from column i on, nulls
// when c is nil.
func appendChurn(t *table, i int, c *Churn) {
	if c == nil {
		for j := range 3 {
			t.i32(i + j).AppendNull()
		}
		t.f64(i + 3).AppendNull()
		return
	}
	for j, n := range []int{c.Kept, c.Entered, c.Left} {
		t.i32(i + j).Append(int32(n))
	}
	t.f64(i + 3).Append(c.Jaccard)
}

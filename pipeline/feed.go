package pipeline

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/topicrank/topicrank/stages/publish"
)

const feedFile = "feed.atom"

// writeFeed rewrites the job's feed.atom from its published runs, complete
// and partial, newest first, at most the job's feed_entries: each entry is
// the run's digest (what changed since the previous complete run, with
// causes and diff links). Like runs.parquet it is made from the run
// folders alone, so it is the same whenever it is rewritten.
func writeFeed(dir string, job Job) error {
	c, err := readCatalog(dir)
	if err != nil {
		return err
	}
	ms := c.manifests()
	slices.SortFunc(ms, func(a, b *Manifest) int { return strings.Compare(b.RunID, a.RunID) })
	ms = ms[:min(len(ms), max(job.FeedEntries, 1))]
	var entries []publish.FeedEntry
	for _, m := range ms {
		run := c.Find(m.RunID)
		e := publish.FeedEntry{RunID: m.RunID, Status: m.Status, Finished: m.Finished, Problems: m.Problems,
			Counts: countsLine(m.Counts)}
		e.Link, _ = filepath.Rel(dir, run)
		e.Link = filepath.ToSlash(e.Link) + "/"
		var prev *publish.Previous
		if p := c.Find(m.PreviousRunID); m.PreviousRunID != "" && p != "" {
			prev, _ = publish.ReadPrevious(p) // unreadable: edits link to the page's history
		}
		if d, err := publish.ReadDigest(run, prev); err == nil {
			e.Digest = d
		}
		entries = append(entries, e)
	}
	return publish.WriteFeed(filepath.Join(dir, feedFile), job.Name, job.BaseURL, entries)
}

// countsLine says a run's counts in a line.
func countsLine(c Counts) string {
	s := fmt.Sprintf("%d pages, %d links; %d fetched, %d unchanged (304), %d failed (%d not found)",
		c.Vertices, c.Edges, c.Fetched, c.NotModified, c.Failed, c.NotFound)
	if c.HarvestRate != nil {
		s += fmt.Sprintf("; %d relevant (harvest %.0f%%)", c.Relevant, 100**c.HarvestRate)
	}
	if ch := c.Churn; ch != nil {
		s += fmt.Sprintf("; %d kept, %d entered, %d left (Jaccard %.2f)", ch.Kept, ch.Entered, ch.Left, ch.Jaccard)
	}
	return s
}

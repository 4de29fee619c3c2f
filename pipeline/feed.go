package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/topicrank/topicrank/internal/version"
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
	return publish.WriteFeed(filepath.Join(dir, feedFile), job.Name, job.BaseURL, feedEntries(dir, c, job))
}

// rewriteFeed rewrites feed.atom under the job as the newest run left
// records it (verify -repair); with no run left, there is none to write.
func rewriteFeed(dir string) error {
	c, err := readCatalog(dir)
	if err != nil {
		return err
	}
	newest := newestManifest(c)
	if newest == nil {
		return nil
	}
	return writeFeed(dir, newest.Config)
}

// newestManifest returns the manifest of c's newest complete or partial
// run, nil if it has none: the job as it last ran.
func newestManifest(c *Catalog) *Manifest {
	ms := c.manifests()
	if len(ms) == 0 {
		return nil
	}
	return slices.MaxFunc(ms, func(a, b *Manifest) int { return strings.Compare(a.RunID, b.RunID) })
}

// feedEntries returns the feed's entries of the runs of catalogue c.
func feedEntries(dir string, c *Catalog, job Job) []publish.FeedEntry {
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
	return entries
}

// verifyFeed checks that feed.atom holds what the run folders make of it,
// byte for byte, under the job as the newest run's manifest records it,
// when this build wrote that run (another build may write the feed
// otherwise). Absent, it is a note: an older release wrote none, and the
// next run writes it.
func verifyFeed(dir string, c *Catalog) []Finding {
	path := filepath.Join(dir, feedFile)
	newest := newestManifest(c)
	if newest == nil || len(c.Pending) > 0 {
		return nil // no run, or a publication cut short: its own finding, and -repair rewrites the feed
	}
	on, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return []Finding{{Path: path, Problem: "absent (an older release wrote none, or the last run could not write it); the next run writes it", Note: true}}
	case err != nil:
		return []Finding{{Path: path, Problem: err.Error()}}
	case newest.Version != version.String():
		return nil
	}
	job := newest.Config
	made, err := publish.EncodeFeed(feedFile, job.Name, job.BaseURL, feedEntries(dir, c, job))
	if err != nil {
		return []Finding{{Path: path, Problem: err.Error()}}
	}
	if !bytes.Equal(on, made) {
		return []Finding{{Path: path, Problem: "its content differs from what the run folders make of it (damaged, or a publication stopped before it; the next run or -repair rewrites it)"}}
	}
	return nil
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

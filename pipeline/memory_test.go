package pipeline

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/topicrank/topicrank/internal/snapshot"
	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/publish"
)

// learnedJob is a sub-topic of the demo's real pages, best-first and
// learned, with room to grow night after night: 60 of 259 pages.
func learnedJob() Job {
	job := testJob("tennis", 60)
	job.Admission, job.Strategy = "best-first", "learned"
	job.Seeds, job.Topics, job.LinkScope = []string{"/wiki/Seattle"}, []string{"sports", "team", "league"}, "prose"
	return job
}

// snapshotWiki serves the demo's real pages, with ETags and 304s.
func snapshotWiki(t *testing.T) string {
	snap, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(snapshot.NewServer(snap))
	t.Cleanup(srv.Close)
	return srv.URL
}

// relevantSet returns the relevant vertices and every vertex of a run.
func relevantSet(t *testing.T, root, runID string) (relevant, vertices map[string]bool) {
	t.Helper()
	relevant, vertices = map[string]bool{}, map[string]bool{}
	p, err := publish.ReadPrevious(filepath.Join(root, "tennis", runID))
	if err != nil {
		t.Fatal(err)
	}
	for page := range p.InDegree {
		vertices[page] = true
	}
	for page, rel := range p.Relevance {
		if rel >= DefaultRelevanceThreshold {
			relevant[page] = true
		}
	}
	return relevant, vertices
}

// Night after night with best-first admission: each night keeps every
// relevant vertex of the night before, harvests no less, and says how
// many admissions memory made.
func TestNightsKeepRelevantVertices(t *testing.T) {
	r := testRunner(t, snapshotWiki(t))
	job := learnedJob()
	var prev *Manifest
	var prevRelevant map[string]bool
	for night := 1; night <= 3; night++ {
		m, err := r.Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		relevant, vertices := relevantSet(t, r.OutDir, m.RunID)
		kept := 0
		for p := range prevRelevant {
			if vertices[p] {
				kept++
			}
		}
		if len(prevRelevant) > 0 && float64(kept) < 0.98*float64(len(prevRelevant)) {
			t.Errorf("night %d keeps %d of the night before's %d relevant vertices", night, kept, len(prevRelevant))
		}
		if prev != nil && m.Counts.Relevant < prev.Counts.Relevant {
			t.Errorf("night %d has %d relevant pages, the night before %d", night, m.Counts.Relevant, prev.Counts.Relevant)
		}
		if night > 1 && m.AdmittedBy[crawl.FromMemory] < len(prevRelevant) {
			t.Errorf("night %d: %v admissions; want at least the %d known relevant pages from memory", night, m.AdmittedBy, len(prevRelevant))
		}
		t.Logf("night %d: harvest %.3f, %d relevant, admitted by %v", night, *m.Counts.HarvestRate, len(relevant), m.AdmittedBy)
		prev, prevRelevant = m, relevant
	}
}

// A night killed midway and resumed gives the graph of an uninterrupted
// night: it ranks with the memory and model the killed night began with.
func TestNightResumedSameGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("five crawls of real pages")
	}
	base := snapshotWiki(t)
	job := learnedJob()
	clean, killed := testRunner(t, base), testRunner(t, base)
	for _, r := range []*Runner{clean, killed} {
		if _, err := r.Run(context.Background(), job); err != nil {
			t.Fatal(err)
		}
	}
	want, err := clean.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := interrupted(killed, job, 50); err == nil || m.Status != StatusPartial {
		t.Fatalf("interrupted night: %v", err)
	}
	got, err := killed.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if got.ResumedFrom == "" || graphOf(t, killed.OutDir, "tennis", got.RunID) != graphOf(t, clean.OutDir, "tennis", want.RunID) {
		t.Errorf("resumed from %q: the graph differs from the uninterrupted night's", got.ResumedFrom)
	}
}

// Discovery admission is the reference: memory never changes its graph.
func TestNightsDiscoveryUnchanged(t *testing.T) {
	r := testRunner(t, snapshotWiki(t))
	job := learnedJob()
	job.Admission = "discovery"
	first, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if second.AdmittedBy != nil || graphOf(t, r.OutDir, "tennis", second.RunID) != graphOf(t, r.OutDir, "tennis", first.RunID) {
		t.Errorf("discovery admission's second night differs (admitted by %v)", second.AdmittedBy)
	}
}

// With the topic words edited, the next night judges by the new words:
// nothing judged by the old ones is used, so it is the night a job with
// the new words would have had first.
func TestNightsTopicEdited(t *testing.T) {
	if testing.Short() {
		t.Skip("three crawls of real pages")
	}
	base := snapshotWiki(t)
	r := testRunner(t, base)
	job := learnedJob()
	if _, err := r.Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	job.Topics = []string{"music", "band", "album"}
	edited, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	fresh := testRunner(t, base)
	first, err := fresh.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if graphOf(t, r.OutDir, "tennis", edited.RunID) != graphOf(t, fresh.OutDir, "tennis", first.RunID) ||
		*edited.Counts.HarvestRate != *first.Counts.HarvestRate || edited.AdmittedBy[crawl.FromMemory] != 0 {
		t.Errorf("the edited night: harvest %.3f, admitted by %v; a first night with the new words: %.3f",
			*edited.Counts.HarvestRate, edited.AdmittedBy, *first.Counts.HarvestRate)
	}
}

// Concurrency does not change a night, nor the nights after it: what a
// night fetched ahead of its loop and never used is known to the next
// night's memory, so how far it looks ahead must not depend on it.
func TestNightsSameAtAnyConcurrency(t *testing.T) {
	if testing.Short() {
		t.Skip("six crawls of real pages")
	}
	base := snapshotWiki(t)
	one, eight := testRunner(t, base), testRunner(t, base)
	job := learnedJob()
	for night := 1; night <= 3; night++ {
		job.Concurrency = 1
		want, err := one.Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		job.Concurrency = 8
		got, err := eight.Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		if graphOf(t, eight.OutDir, "tennis", got.RunID) != graphOf(t, one.OutDir, "tennis", want.RunID) {
			t.Errorf("night %d: concurrency 8's graph differs from concurrency 1's", night)
		}
	}
}

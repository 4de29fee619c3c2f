package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/publish"
)

// toOldLayout rewrites a run as the previous layout had it: ranks under
// ranks/epsilon=<e>/ranks.parquet, partial runs beside complete ones.
func toOldLayout(t *testing.T, jobDir, from, id string) {
	t.Helper()
	run := filepath.Join(jobDir, id)
	if err := os.Rename(from, run); err != nil && from != run {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(run, "manifest.json"))
	var m map[string]any
	json.Unmarshal(raw, &m)
	for _, f := range m["files"].([]any) {
		f := f.(map[string]any)
		p := f["path"].(string)
		if eps, ok := strings.CutPrefix(p, "ranks/"); ok {
			np := "ranks/epsilon=" + strings.TrimSuffix(eps, ".parquet") + "/ranks.parquet"
			os.MkdirAll(filepath.Join(run, filepath.Dir(np)), 0o755)
			if err := os.Rename(filepath.Join(run, p), filepath.Join(run, np)); err != nil {
				t.Fatal(err)
			}
			f["path"] = np
		}
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(filepath.Join(run, "manifest.json"), b, 0o644)
}

// runner migrate moves a copy of the old layout into the new one: every
// run keeps its files (hashes unchanged), partial runs leave the globs,
// debris goes, runs.parquet lists them all; a second migrate moves none.
func TestMigrateOldLayout(t *testing.T) {
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	done, err := r.Run(context.Background(), testJob("tennis", 30))
	if err != nil {
		t.Fatal(err)
	}
	job := testJob("tennis", 30)
	job.Seeds = []string{"/wiki/Nowhere"}
	partial, _ := r.Run(context.Background(), job)
	jobDir := filepath.Join(r.OutDir, "tennis")
	toOldLayout(t, jobDir, filepath.Join(jobDir, done.RunID), done.RunID)
	toOldLayout(t, jobDir, filepath.Join(jobDir, partialDir, partial.RunID), partial.RunID)
	os.Remove(filepath.Join(jobDir, runsFile))
	os.MkdirAll(filepath.Join(jobDir, oldTmp+"20991231T000000Z"), 0o755)

	// The old layout is still read for changes.
	prev, err := publish.ReadPrevious(filepath.Join(jobDir, done.RunID))
	if err != nil || len(prev.Ranks) != 2 {
		t.Fatalf("reading the old layout: %v, %d epsilons", err, len(prev.Ranks))
	}

	if n, err := Migrate(r.OutDir); err != nil || n != 2 {
		t.Fatalf("Migrate = %d, %v; want 2 runs moved", n, err)
	}
	verifyRun(t, filepath.Join(jobDir, done.RunID))
	verifyRun(t, filepath.Join(jobDir, partialDir, partial.RunID))
	for _, gone := range []string{partial.RunID, oldTmp + "20991231T000000Z", tmpDir, filepath.Join(done.RunID, "ranks", "epsilon=0.01")} {
		if _, err := os.Stat(filepath.Join(jobDir, gone)); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
	if _, err := os.Stat(filepath.Join(jobDir, done.RunID, "ranks", "0.01.parquet")); err != nil {
		t.Error(err)
	}
	if n := parquetRows(t, filepath.Join(jobDir, runsFile)); n != 2 {
		t.Errorf("runs.parquet has %d rows, want 2", n)
	}
	if n, err := Migrate(r.OutDir); err != nil || n != 0 {
		t.Errorf("second Migrate = %d, %v; want nothing to move", n, err)
	}
	// The next run measures its changes against the migrated run.
	next, err := r.Run(context.Background(), testJob("tennis", 30))
	if err != nil || next.PreviousRunID != done.RunID {
		t.Errorf("next run: %v, previous %q", err, next.PreviousRunID)
	}
}

// A manifest written before fetch states is read with its counts in
// them: "fetched" then meant every usable page, "outcomes" the pages per
// error class.
func TestOldManifestCounts(t *testing.T) {
	dir := t.TempDir()
	old := `{"job":"seattle","run_id":"20260101T020000Z","status":"partial","counts":{"vertices":1000,"edges":5000,
		"fetched":999,"failed":1,"outcomes":{"ok":990,"budget":9,"cancelled":1},"not_modified":700,"replayed":40,"relevant":300}}`
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Counts
	got := []int{c.Fetched, c.NotModified, c.Replayed, c.Failed, c.FailedByClass["cancelled"], c.NotFetched, c.Judged, c.Relevant}
	want := []int{259, 700, 40, 1, 1, 9, 999, 300}
	if !slices.Equal(got, want) || c.Outcomes != nil {
		t.Errorf("fetched, not_modified, replayed, failed, cancelled, not_fetched, judged, relevant = %v, want %v (outcomes %v)",
			got, want, c.Outcomes)
	}
}

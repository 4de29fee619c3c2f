package pipeline

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"

	_ "modernc.org/sqlite"
)

// verify checks every byte it names: a flipped byte in runs.parquet, a
// file the manifest does not list (found, and moved aside by -repair,
// never deleted) and a folder of Parquet files no run names. An older
// crawl state schema is a note, not damage: -repair leaves it be.
func TestVerifyChecksWhatItNames(t *testing.T) {
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	job := testJob("tennis", 30)
	m, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.OutDir, "tennis")
	state := filepath.Join(dir, stateFile)
	verify := func(mend bool) []Finding {
		t.Helper()
		f, err := Verify(r.OutDir, "tennis", state, mend, r.Log)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if f := verify(false); len(f) != 0 {
		t.Fatalf("a whole run: %+v", f)
	}

	// One byte of runs.parquet changed (in a page of values, not the footer).
	runs := filepath.Join(dir, runsFile)
	b, _ := os.ReadFile(runs)
	orig := append([]byte(nil), b...)
	b[len(b)/3] ^= 0x01
	os.WriteFile(runs, b, 0o644)
	if f := verify(false); len(f) != 1 || f[0].Path != runs {
		t.Errorf("a flipped bit in runs.parquet: %+v", f)
	}
	os.WriteFile(runs, orig, 0o644)

	// One bit of feed.atom (a page's title in an entry): found, and
	// -repair rewrites it from the run folders.
	feed := filepath.Join(dir, feedFile)
	fb, _ := os.ReadFile(feed)
	forig := append([]byte(nil), fb...)
	fb[len(fb)*2/3] ^= 0x01
	os.WriteFile(feed, fb, 0o644)
	if f := verify(false); len(f) != 1 || f[0].Path != feed || f[0].Note {
		t.Errorf("a flipped bit in feed.atom: %+v", f)
	}
	if f := verify(true); len(f) != 1 || !strings.Contains(f[0].Repaired, "feed.atom rebuilt") {
		t.Errorf("-repair of feed.atom: %+v", f)
	}
	if got, _ := os.ReadFile(feed); !bytes.Equal(got, forig) {
		t.Error("-repair did not rewrite feed.atom as the run wrote it")
	}
	// Absent (an older release wrote none): a note.
	os.Remove(feed)
	if f := verify(false); len(f) != 1 || !f[0].Note || f[0].Path != feed {
		t.Errorf("no feed.atom: %+v", f)
	}
	os.WriteFile(feed, forig, 0o644)

	// A table the manifest does not list.
	extra := filepath.Join(dir, m.RunID, "ranks", "0.5.parquet")
	data, _ := os.ReadFile(filepath.Join(dir, m.RunID, "ranks", "0.01.parquet"))
	os.WriteFile(extra, data, 0o644)
	if f := verify(false); len(f) != 1 || f[0].Path != extra || !strings.Contains(f[0].Problem, "not in the run's manifest") {
		t.Errorf("an unlisted table: %+v", f)
	}
	if f := verify(true); len(f) != 1 || !strings.Contains(f[0].Repaired, "moved to") {
		t.Errorf("-repair of an unlisted table: %+v", f)
	}
	if _, err := os.Stat(filepath.Join(dir, damagedDir, "unlisted-"+m.RunID, "ranks", "0.5.parquet")); err != nil {
		t.Errorf("the unlisted table was not kept aside: %v", err)
	}
	if f := verify(false); len(f) != 0 {
		t.Errorf("after -repair: %+v", f)
	}

	// A copy of a run under another name: the globs would read it.
	copied := filepath.Join(dir, "backup")
	os.MkdirAll(copied, 0o755)
	os.WriteFile(filepath.Join(copied, "pages.parquet"), data, 0o644)
	if f := verify(false); len(f) != 1 || f[0].Path != copied {
		t.Errorf("a stray folder: %+v", f)
	}
	os.RemoveAll(copied)

	// The state as an older version left it (schema version 2): a note.
	db, err := sql.Open("sqlite", "file:"+state)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA user_version = 2`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f := verify(true)
	if len(f) != 1 || !f[0].Note || !strings.Contains(f[0].Problem, "older schema") || f[0].Repaired != "" {
		t.Errorf("an older schema: %+v", f)
	}
	if _, err := os.Stat(state); err != nil {
		t.Errorf("-repair moved an older, sound state: %v", err)
	}
}

// A run folder newer than LATEST while a run holds the job's lock is a
// publication under way: verify and status say so, not damaged; once
// the lock is free it is a publication cut short.
func TestPublishingIsNotDamage(t *testing.T) {
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	job := testJob("tennis", 20)
	job.Schedule = "0 * * * *"
	m, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.OutDir, "tennis")
	next := "20991231T000000Z"
	if err := os.CopyFS(filepath.Join(dir, next), os.DirFS(filepath.Join(dir, m.RunID))); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockJob(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := Verify(r.OutDir, "tennis", filepath.Join(dir, stateFile), false, r.Log)
	if len(f) != 1 || !f[0].Note || !strings.HasPrefix(f[0].Problem, "publishing") {
		t.Errorf("verify during a publication: %+v", f)
	}
	st, _ := Status(r.OutDir, &Config{Jobs: []Job{job}}, m.Started)
	if st[0].Damaged != "" {
		t.Errorf("status during a publication: %+v", st[0])
	}
	unlock()
	if f, _ := Verify(r.OutDir, "tennis", filepath.Join(dir, stateFile), false, r.Log); len(f) == 0 || f[0].Note {
		t.Errorf("a publication cut short, the lock free: %+v", f)
	}
}

// -repair that moves the run LATEST names says so, not that LATEST is
// damaged, and LATEST then names the newest whole run.
func TestRepairMovingLatestSaysSo(t *testing.T) {
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	job := testJob("tennis", 20)
	first, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.OutDir, "tennis")
	pages := filepath.Join(dir, second.RunID, "pages.parquet")
	b, _ := os.ReadFile(pages)
	b[len(b)/2] ^= 0xff
	os.WriteFile(pages, b, 0o644)
	var logs bytes.Buffer
	if _, err := Verify(r.OutDir, "tennis", filepath.Join(dir, stateFile), true, slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "LATEST is damaged") || !strings.Contains(logs.String(), "moved aside as damaged") {
		t.Errorf("what -repair said:\n%s", logs.String())
	}
	if latest, _ := os.ReadFile(filepath.Join(dir, "LATEST")); strings.TrimSpace(string(latest)) != first.RunID {
		t.Errorf("LATEST %q, want the whole %s", latest, first.RunID)
	}
}

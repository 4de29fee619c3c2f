package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"

	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/store"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// interrupted runs job with r, cancelled once the crawl has done pages
// pages, as SIGINT cancels a run.
func interrupted(r *Runner, job Job, pages int) (*Manifest, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.Progress = func(_ string, p crawl.Progress) {
		if p.Done == pages {
			cancel()
		}
	}
	defer func() { r.Progress = nil }()
	return r.Run(ctx, job)
}

// logBuffer is a log the tests read back.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// logged gives r a log the test can read.
func logged(r *Runner) *logBuffer {
	l := &logBuffer{}
	r.Log = slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return l
}

// etagWiki serves a generated wiki with ETags and 304s, as Wikipedia
// does, so re-crawls reuse stored copies.
func etagWiki(t *testing.T, n int) string {
	w := wikitest.New(t, n)
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		w.ServeHTTP(rec, r)
		sum := sha256.Sum256(rec.Body.Bytes())
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		for k, v := range rec.Header() {
			rw.Header()[k] = v
		}
		if rec.Code == http.StatusOK {
			rw.Header().Set("ETag", etag)
			if r.Header.Get("If-None-Match") == etag {
				rw.WriteHeader(http.StatusNotModified)
				return
			}
		}
		rw.WriteHeader(rec.Code)
		rw.Write(rec.Body.Bytes())
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func graphOf(t *testing.T, root, job, runID string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, job, runID, "graph.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Case 1 and 2 of issue 43: a crawl state cut in half, with random bytes
// at its start or in its middle, is moved aside with an ERROR that says
// what is lost; the run goes on from a fresh state and is complete, with
// the graph a fault-free run gives, and the next night is normal again.
func TestRunDamagedState(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"cut in half", func(b []byte) []byte { return b[:len(b)/2] }},
		{"random first 3 KB", func(b []byte) []byte { randomize(b[:3072]); return b }},
		{"random 64 KiB in the middle", func(b []byte) []byte { randomize(b[len(b)/2-32768 : len(b)/2+32768]); return b }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := etagWiki(t, 400)
			r := testRunner(t, base)
			job := testJob("tennis", 300)
			first, err := r.Run(context.Background(), job)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(r.OutDir, "tennis", stateFile)
			b, _ := os.ReadFile(path)
			if len(b) < 200<<10 {
				t.Fatalf("state of %d bytes: too small for the fault", len(b))
			}
			os.WriteFile(path, tc.damage(b), 0o644)
			log := logged(r)
			m, err := r.Run(context.Background(), job)
			if err != nil || m.Status != StatusComplete {
				t.Fatalf("run on a damaged state: %v", err)
			}
			if !strings.Contains(log.String(), "level=ERROR msg=\"crawl state damaged") || !strings.Contains(log.String(), "moved_to="+path+".damaged-") {
				t.Errorf("no ERROR naming the damaged state and where it went:\n%s", log)
			}
			if graphOf(t, r.OutDir, "tennis", m.RunID) != graphOf(t, r.OutDir, "tennis", first.RunID) {
				t.Error("the graph differs from the fault-free run's")
			}
			if m.Counts.Fetched != m.Counts.Vertices-m.Counts.Failed {
				t.Errorf("a fresh state should fetch every page: %+v", m.Counts.Tally)
			}
			third, err := r.Run(context.Background(), job)
			if err != nil || third.Counts.NotModified == 0 {
				t.Errorf("the night after: %v, %d not modified", err, third.Counts.NotModified)
			}
		})
	}
}

func randomize(b []byte) {
	for i := range b {
		b[i] = byte(i*7919 + i>>8*104729)
	}
}

// Case 3: a stored link list changed by one byte (which SQLite's own
// checks cannot see) is never used: the page is fetched again, and the
// graph has no edge the page does not have.
func TestRunStoredCopyChecksum(t *testing.T) {
	base := etagWiki(t, 200)
	r := testRunner(t, base)
	job := testJob("tennis", 100)
	first, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(r.OutDir, "tennis", stateFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE pages SET doc = replace(doc, '/wiki/Page_', '/wiki/Pork_') WHERE key = '/wiki/Page_0'`); err != nil {
		t.Fatal(err)
	}
	// A bad copy under another topic, which no run of this job meets.
	if _, err := db.Exec(`INSERT INTO pages (key, run_id, fetched_at, digest, etag, last_modified, content_hash, structure, bytes, doc, checksum)
		SELECT '/wiki/Elsewhere', run_id, fetched_at, 'another topic', etag, last_modified, content_hash, structure, bytes, doc, checksum
		FROM pages WHERE key = '/wiki/Page_0'`); err != nil {
		t.Fatal(err)
	}
	var n int
	if db.QueryRow(`SELECT count(*) FROM pages WHERE doc LIKE '%Pork%'`).Scan(&n); n != 2 {
		t.Fatalf("%d stored copies altered, want 2", n)
	}
	db.Close()
	log := logged(r)
	m, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if g := graphOf(t, r.OutDir, "tennis", m.RunID); strings.Contains(g, "Pork") || g != graphOf(t, r.OutDir, "tennis", first.RunID) {
		t.Error("the altered copy was used")
	}
	if m.Counts.Fetched != 1 || !strings.Contains(log.String(), "failed their checksums") {
		t.Errorf("%d pages fetched anew (want the altered one), log:\n%s", m.Counts.Fetched, log)
	}
	// The run dropped the copy it met; verify -repair drops the other and
	// keeps the state.
	state := filepath.Join(r.OutDir, "tennis", stateFile)
	if f, err := Verify(r.OutDir, "tennis", state, false, r.Log); err != nil || len(f) != 1 || !strings.HasPrefix(f[0].Problem, "1 of its stored copies failed") {
		t.Fatalf("verify after the run: %+v, %v; want the copy under another topic", f, err)
	}
	if f, err := Verify(r.OutDir, "tennis", state, true, r.Log); err != nil || len(f) != 1 || f[0].Repaired != "dropped 1 bad stored copy; the rest of the state is kept" {
		t.Errorf("verify -repair: %+v, %v", f, err)
	}
	if f, err := Verify(r.OutDir, "tennis", state, false, r.Log); err != nil || len(f) != 0 {
		t.Errorf("verify after -repair: %+v, %v", f, err)
	}
	if again, err := r.Run(context.Background(), job); err != nil || again.Counts.Fetched != 0 {
		t.Errorf("the run after -repair fetched %v pages anew (%v): the state was not kept", again, err)
	}
}

// Case 4: a full state disk never gives a complete run: the run says how
// many writes were lost and why, and names the file.
func TestRunStateDiskFull(t *testing.T) {
	stateDir := t.TempDir()
	if err := mountTmpfs(stateDir, "300k"); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v", err)
	}
	defer unmount(stateDir)
	r := testRunner(t, etagWiki(t, 600))
	job := testJob("tennis", 500)
	job.StateDir = stateDir
	m, err := r.Run(context.Background(), job)
	if err == nil || m == nil || m.Status != StatusPartial {
		t.Fatalf("run with its state disk full: %v, %+v", err, m)
	}
	problems := strings.Join(m.Problems, "\n")
	if !strings.Contains(problems, "writes lost") || !strings.Contains(problems, "disk is full") || !strings.Contains(problems, filepath.Join(stateDir, "tennis", stateFile)) {
		t.Errorf("problems %q: want the writes lost, the disk full and the file", problems)
	}
	if latest, _ := Latest(r.OutDir, "tennis"); latest != "" {
		t.Errorf("LATEST = %s after a run that lost writes", latest)
	}
}

// Case 5: LATEST cannot be written after the run's folder was renamed
// into place: the run is taken back, so every reader, the globs and the
// next run see the old run as the newest.
func TestRunLatestUnwritable(t *testing.T) {
	r := testRunner(t, etagWiki(t, 100))
	job := testJob("tennis", 50)
	first, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	// LATEST.tmp as a folder that cannot be removed: creating the file fails.
	blocker := filepath.Join(r.OutDir, "tennis", latestFile+".tmp")
	os.MkdirAll(filepath.Join(blocker, "x"), 0o755)
	if _, err := r.Run(context.Background(), job); err == nil || !strings.Contains(err.Error(), "taken back") {
		t.Fatalf("run with LATEST unwritable: %v", err)
	}
	if runs, _ := publishedRuns(filepath.Join(r.OutDir, "tennis")); !slices.Equal(runs, []string{first.RunID}) {
		t.Errorf("run folders %v: the run taken back is left where globs see it", runs)
	}
	os.RemoveAll(blocker)
	checkOneTruth(t, r.OutDir, "tennis", first.RunID)
	third, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	checkOneTruth(t, r.OutDir, "tennis", third.RunID)
	if third.PreviousRunID != first.RunID {
		t.Errorf("changes measured against %q, want %s", third.PreviousRunID, first.RunID)
	}
}

// checkOneTruth checks that LATEST, FindRun, Status, CompleteRuns and
// runs.parquet agree that latest is the newest complete run, and that
// runs.parquet lists exactly the runs on disk.
func checkOneTruth(t *testing.T, root, job, latest string) {
	t.Helper()
	if got, err := Latest(root, job); got != latest || err != nil {
		t.Errorf("LATEST = %q (%v), want %s", got, err, latest)
	}
	if _, m, err := FindRun(root, job, ""); err != nil || m.RunID != latest {
		t.Errorf("FindRun = %v, %v; want %s", m, err, latest)
	}
	runs, _ := CompleteRuns(root, job)
	if len(runs) == 0 || runs[len(runs)-1] != latest {
		t.Errorf("CompleteRuns = %v, want %s last", runs, latest)
	}
	cfg := &Config{Jobs: []Job{{Name: job}}}
	if sts, _ := Status(root, cfg, time.Now()); sts[0].LastComplete == nil || sts[0].LastComplete.RunID != latest || sts[0].Damaged != "" {
		t.Errorf("status: %+v", sts[0])
	}
	c, _ := ReadCatalog(root, job)
	if len(c.Pending) > 0 {
		t.Errorf("runs newer than LATEST: %v", c.Pending)
	}
	if f := verifyRuns(filepath.Join(root, job), c); len(f) > 0 {
		t.Errorf("runs.parquet: %+v", f)
	}
	if exists(filepath.Join(root, job, "."+runsFile+".tmp")) || exists(filepath.Join(root, job, latestFile+".tmp")) {
		t.Error("temporary files of a publication are left")
	}
}

// Case 5, killed: a run killed between its folder's rename and LATEST,
// or between LATEST and runs.parquet. Readers keep to LATEST meanwhile;
// the next run finishes the publication.
func TestRunFinishesPublicationCutShort(t *testing.T) {
	r := testRunner(t, etagWiki(t, 100))
	job := testJob("tennis", 50)
	first, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.OutDir, "tennis")
	runsAfterFirst, _ := os.ReadFile(filepath.Join(dir, runsFile))
	second, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	// Killed before LATEST: LATEST and runs.parquet as after the first run.
	setLatest(dir, first.RunID)
	os.WriteFile(filepath.Join(dir, runsFile), runsAfterFirst, 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, runsFile), old, old)
	os.WriteFile(filepath.Join(dir, "."+runsFile+".tmp"), []byte("half"), 0o644)
	if _, m, err := FindRun(r.OutDir, "tennis", ""); err != nil || m.RunID != first.RunID {
		t.Errorf("a reader sees %v (%v), want LATEST's %s", m, err, first.RunID)
	}
	if f, _ := Verify(r.OutDir, "tennis", filepath.Join(dir, stateFile), false, r.Log); len(f) != 1 || !strings.Contains(f[0].Problem, "newer than the run LATEST names") {
		t.Errorf("verify: %+v; want the run newer than LATEST", f)
	}
	log := logged(r)
	third, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "finishing a publication cut short") {
		t.Errorf("log:\n%s", log)
	}
	if third.PreviousRunID != second.RunID {
		t.Errorf("changes measured against %s, want the finished %s", third.PreviousRunID, second.RunID)
	}
	checkOneTruth(t, r.OutDir, "tennis", third.RunID)

	// Killed between LATEST and runs.parquet.
	os.WriteFile(filepath.Join(dir, runsFile), runsAfterFirst, 0o644)
	os.Chtimes(filepath.Join(dir, runsFile), old, old)
	fourth, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	checkOneTruth(t, r.OutDir, "tennis", fourth.RunID)
}

// Case 6: a clock stepped back two hours. The run's id follows the
// newest run's, so it is the newest for every reader; keep never deletes
// it; runs.parquet lists exactly the runs on disk.
func TestRunClockSteppedBack(t *testing.T) {
	r := testRunner(t, etagWiki(t, 100))
	job := testJob("tennis", 30)
	job.Keep = 2
	clock := time.Date(2026, 11, 21, 2, 0, 0, 0, time.UTC)
	r.Now = func() time.Time { return clock }
	var ids []string
	for _, step := range []time.Duration{0, -2 * time.Hour, -2 * time.Hour, 24 * time.Hour} {
		clock = clock.Add(step)
		log := logged(r)
		m, err := r.Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		if step < 0 && !strings.Contains(log.String(), "the clock is behind") {
			t.Errorf("a clock behind the newest run is not logged:\n%s", log)
		}
		if len(ids) > 0 && m.RunID <= ids[len(ids)-1] {
			t.Errorf("run %s sorts before the run made before it, %s", m.RunID, ids[len(ids)-1])
		}
		ids = append(ids, m.RunID)
		checkOneTruth(t, r.OutDir, "tennis", m.RunID)
		runs, _ := CompleteRuns(r.OutDir, "tennis")
		if want := ids[max(len(ids)-2, 0):]; !slices.Equal(runs, want) {
			t.Errorf("after run %d, runs %v, want the newest two %v", len(ids), runs, want)
		}
	}
}

// Case 7: two runs sharing a state_dir, whatever their -out: the second
// is refused (kind Busy) with a message naming the state and what to do.
func TestRunSharedStateRefused(t *testing.T) {
	base := etagWiki(t, 100)
	job := testJob("tennis", 30)
	job.StateDir = t.TempDir()
	other := testRunner(t, base)
	os.MkdirAll(filepath.Dir(StatePath(other.OutDir, job)), 0o755)
	held, err := store.Open(StatePath(other.OutDir, job), "20261121T000000Z") // the nightly run, under way
	if err != nil {
		t.Fatal(err)
	}
	r := testRunner(t, base)
	_, err = r.Run(context.Background(), job)
	if KindOf(err) != Busy || !errors.Is(err, store.ErrBusy) || !strings.Contains(err.Error(), filepath.Join(job.StateDir, "tennis", stateFile)) {
		t.Errorf("second run on a shared state: %v (kind %v)", err, KindOf(err))
	}
	held.Finish("complete")
	if _, err := r.Run(context.Background(), job); err != nil {
		t.Errorf("after the first finished: %v", err)
	}
}

// Case 8: keep bounds partial runs too, and runs.parquet lists exactly
// the runs on disk.
func TestKeepBoundsPartialRuns(t *testing.T) {
	r := testRunner(t, etagWiki(t, 300))
	job := testJob("tennis", 200)
	job.Keep = 1
	for range 3 {
		if m, err := interrupted(r, job, 20); err == nil || m.Status != StatusPartial {
			t.Fatalf("interrupted run: %v", err)
		}
	}
	c, _ := ReadCatalog(r.OutDir, "tennis")
	if len(c.Partial) != 1 {
		t.Errorf("partial runs %v with keep: 1", c.Partial)
	}
	if f := verifyRuns(filepath.Join(r.OutDir, "tennis"), c); len(f) > 0 {
		t.Errorf("runs.parquet: %+v", f)
	}
}

// Case 10: damaged outputs are named, and a damaged LATEST is rebuilt by
// the next run with a warning.
func TestDamagedOutputsNamed(t *testing.T) {
	r := testRunner(t, etagWiki(t, 100))
	job := testJob("tennis", 40)
	first, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.OutDir, "tennis")
	// A truncated manifest: named, with the way out.
	manifest := filepath.Join(dir, second.RunID, "manifest.json")
	b, _ := os.ReadFile(manifest)
	os.WriteFile(manifest, b[:len(b)/2], 0o644)
	if _, _, err := FindRun(r.OutDir, "tennis", ""); err == nil || !strings.Contains(err.Error(), manifest) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("FindRun on a truncated manifest: %v", err)
	}
	cfg := &Config{Jobs: []Job{job}}
	if sts, _ := Status(r.OutDir, cfg, time.Now()); !strings.Contains(sts[0].Damaged, manifest) {
		t.Errorf("status of a truncated manifest: %+v", sts[0])
	}
	os.WriteFile(manifest, b, 0o644)
	// A flipped byte in a table: verify names the file; -repair moves the
	// run aside and LATEST follows.
	pages := filepath.Join(dir, first.RunID, "pages.parquet")
	p, _ := os.ReadFile(pages)
	p[len(p)/2] ^= 1
	os.WriteFile(pages, p, 0o644)
	f, err := Verify(r.OutDir, "tennis", filepath.Join(dir, stateFile), false, r.Log)
	if err != nil || len(f) != 1 || f[0].Path != filepath.Join(dir, first.RunID) || !strings.Contains(f[0].Problem, "pages.parquet: sha256") {
		t.Errorf("verify of a flipped byte: %+v, %v", f, err)
	}
	if f, err := Verify(r.OutDir, "tennis", filepath.Join(dir, stateFile), true, r.Log); err != nil || len(f) != 1 || f[0].Repaired == "" {
		t.Errorf("verify -repair: %+v, %v", f, err)
	}
	if !exists(filepath.Join(dir, damagedDir, first.RunID, "pages.parquet")) {
		t.Error("the damaged run was not moved aside whole")
	}
	if f, _ := Verify(r.OutDir, "tennis", filepath.Join(dir, stateFile), false, r.Log); len(f) != 0 {
		t.Errorf("verify after -repair: %+v", f)
	}
	checkOneTruth(t, r.OutDir, "tennis", second.RunID)
	// A truncated table of an old run: status says damaged.
	ranks := filepath.Join(dir, second.RunID, "degrees.parquet")
	os.Truncate(ranks, 100)
	if sts, _ := Status(r.OutDir, cfg, time.Now()); !strings.Contains(sts[0].Damaged, ranks) {
		t.Errorf("status of a truncated table: %+v", sts[0])
	}
	Verify(r.OutDir, "tennis", filepath.Join(dir, stateFile), true, r.Log)
	// Garbage in LATEST: readers say so; the next run rebuilds it and
	// measures changes against a run, not against nothing.
	third, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, latestFile), []byte("\x00garbage"), 0o644)
	if _, _, err := FindRun(r.OutDir, "tennis", ""); err == nil || !strings.Contains(err.Error(), "does not name a run") {
		t.Errorf("FindRun with garbage in LATEST: %v", err)
	}
	log := logged(r)
	fourth, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if fourth.PreviousRunID != third.RunID || !strings.Contains(log.String(), "LATEST is damaged") {
		t.Errorf("previous run %q, want %s; log:\n%s", fourth.PreviousRunID, third.RunID, log)
	}
	checkOneTruth(t, r.OutDir, "tennis", fourth.RunID)
}

// Case 9: a run that meets another's lock on the job is of kind Busy,
// which the scheduler counts as a skipped tick.
func TestRunLockedIsBusy(t *testing.T) {
	r := testRunner(t, etagWiki(t, 50))
	dir := filepath.Join(r.OutDir, "tennis")
	os.MkdirAll(dir, 0o755)
	unlock, err := lockJob(dir) // a manual run, under way
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := r.Run(context.Background(), testJob("tennis", 20)); KindOf(err) != Busy || !strings.Contains(err.Error(), filepath.Join(dir, lockFile)) {
		t.Errorf("run meeting a held lock: %v (kind %v)", err, KindOf(err))
	}
}

// Every file and folder of a run, the search index's included, is as
// readable as the run's own folder: another user (a host user reading
// what a container wrote) reads all of it or none.
func TestRunFilesReadableAlike(t *testing.T) {
	r := testRunner(t, etagWiki(t, 60))
	m, err := r.Run(context.Background(), testJob("tennis", 30))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.OutDir, "tennis", m.RunID)
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := fi.Mode().Perm() & 0o444
	filepath.WalkDir(dir, func(path string, d os.DirEntry, walkErr error) error {
		if walkErr != nil {
			return walkErr
		}
		info, err := d.Info()
		if err == nil && info.Mode().Perm()&0o444 != want {
			t.Errorf("%s: %v, the run's folder %v", path, info.Mode().Perm(), fi.Mode().Perm())
		}
		return nil
	})
}

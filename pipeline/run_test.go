package pipeline

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/publish"
)

func testJob(name string, maxPages int) Job {
	return Job{
		Name: name, Timezone: "UTC", Seeds: []string{"/wiki/Page_0"}, Topics: []string{"tennis", "grand slam"}, Weighted: true,
		LinkScope: "body", Strategy: "weighted", Admission: "discovery", RelevanceThreshold: DefaultRelevanceThreshold,
		MaxPages: maxPages, BaseURL: "https://en.wikipedia.org",
		UserAgent: "topicrank-test/0.1 (ops@example.org)", Epsilons: []float64{0.01, 0.005}, Beta: 0.85,
		MaxRPS: 1000, Concurrency: 4,
	}
}

// testRunner runs against base with a clock that advances one hour a run,
// so that run ids never collide.
func testRunner(t *testing.T, base string) *Runner {
	t.Helper()
	r := NewRunner(t.TempDir(), slog.New(slog.DiscardHandler))
	r.BaseURL = base
	clock := time.Date(2026, 11, 21, 2, 0, 0, 0, time.UTC)
	r.Now = func() time.Time { clock = clock.Add(time.Hour); return clock }
	return r
}

// verifyRun checks a published run: its manifest lists exactly the files
// on disk with their sha256 and row counts, and the graph keeps DESIGN.md's
// invariants.
func verifyRun(t *testing.T, dir string) *Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatalf("manifest: %v", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	onDisk := map[string]bool{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "manifest.json" {
			rel, _ := filepath.Rel(dir, p)
			onDisk[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	for _, f := range m.Files {
		data, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != f.SHA256 || int64(len(data)) != f.Bytes {
			t.Errorf("%s: sha256 or size differs from the manifest", f.Path)
		}
		if strings.HasSuffix(f.Path, ".parquet") {
			if rows := parquetRows(t, filepath.Join(dir, f.Path)); rows != f.Rows {
				t.Errorf("%s: %d rows, manifest says %d", f.Path, rows, f.Rows)
			}
		}
		delete(onDisk, f.Path)
	}
	if len(onDisk) > 0 {
		t.Errorf("files not in the manifest: %v", onDisk)
	}
	n, edges := readGraphFile(t, filepath.Join(dir, "graph.txt"))
	if n != m.Counts.Vertices || edges != m.Counts.Edges {
		t.Errorf("graph.txt: %d vertices %d edges; manifest %d, %d", n, edges, m.Counts.Vertices, m.Counts.Edges)
	}
	return &m
}

func parquetRows(t *testing.T, path string) int64 {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer r.Close()
	return r.NumRows()
}

// readGraphFile checks graph.txt's invariants and returns its counts.
func readGraphFile(t *testing.T, path string) (vertices, edges int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	vertices, err = strconv.Atoi(sc.Text())
	if err != nil {
		t.Fatalf("graph.txt header %q", sc.Text())
	}
	seen := map[string]bool{}
	names := map[string]bool{}
	for sc.Scan() {
		u, v, _ := strings.Cut(sc.Text(), " ")
		if u == v || seen[sc.Text()] {
			t.Errorf("graph.txt: self-loop or duplicate %q", sc.Text())
		}
		seen[sc.Text()] = true
		names[u], names[v] = true, true
		edges++
	}
	if len(names) > vertices {
		t.Errorf("graph.txt names %d vertices, header says %d", len(names), vertices)
	}
	return vertices, edges
}

func TestRunPublishesCompleteRun(t *testing.T) {
	w := wikitest.New(t, 400)
	r := testRunner(t, w.URL())
	m, err := r.Run(context.Background(), testJob("tennis", 120))
	if err != nil {
		t.Fatal(err)
	}
	latest, _ := Latest(r.OutDir, "tennis")
	if latest != m.RunID || m.Status != StatusComplete {
		t.Fatalf("LATEST = %q, run %q status %s", latest, m.RunID, m.Status)
	}
	got := verifyRun(t, filepath.Join(r.OutDir, "tennis", m.RunID))
	// The manifest Run returns (what metrics count) is the one on disk.
	if !reflect.DeepEqual(got.StageSeconds, m.StageSeconds) || !reflect.DeepEqual(got.StageCPUSeconds, m.StageCPUSeconds) {
		t.Errorf("stage seconds returned %v %v, published %v %v", m.StageSeconds, m.StageCPUSeconds, got.StageSeconds, got.StageCPUSeconds)
	}
	if got.Counts.Vertices != 120 || got.Counts.Fetched+got.Counts.Failed != 120 || len(got.Ranks) != 2 {
		t.Errorf("manifest counts %+v ranks %+v", got.Counts, got.Ranks)
	}
	wantFiles := []string{"graph.txt", "edges.parquet", "degrees.parquet", "pages.parquet", "changes.parquet", "categories.parquet",
		"ranks/0.01.parquet", "ranks/0.005.parquet", "topic_ranks/0.01.parquet", "topic_ranks/0.005.parquet"}
	for i, f := range got.Files {
		if i < len(wantFiles) && f.Path != wantFiles[i] || i >= len(wantFiles) && !strings.HasPrefix(f.Path, "index/") {
			t.Errorf("file %d = %s", i, f.Path)
		}
	}
	if len(got.Files) <= len(wantFiles) {
		t.Errorf("no search index in the manifest: %v", got.Files)
	}
	for path := range w.Requests() {
		if strings.HasPrefix(path, "/wiki/Secret_") {
			t.Errorf("disallowed %s requested", path)
		}
	}
	var names []string
	entries, _ := os.ReadDir(filepath.Join(r.OutDir, "tennis"))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{".lock", m.RunID, "LATEST", stateFile, stateFile + ".lock", feedFile, runsFile}; fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("job directory holds %v, want %v", names, want)
	}
}

// TestRunWithoutSearchIndex: search_index: false publishes the tables
// and no index, and the manifest lists exactly what is on disk.
func TestRunWithoutSearchIndex(t *testing.T) {
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	j, off := testJob("tennis", 50), false
	j.SearchIndex = &off
	m, err := r.Run(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.OutDir, "tennis", m.RunID)
	got := verifyRun(t, dir)
	for _, f := range got.Files {
		if strings.HasPrefix(f.Path, indexDir+"/") {
			t.Errorf("search_index: false, but the manifest lists %s", f.Path)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, indexDir)); !os.IsNotExist(err) {
		t.Errorf("search_index: false, but %s/%s: %v", dir, indexDir, err)
	}
	if _, ok := m.StageSeconds["index"]; ok {
		t.Errorf("an index stage was timed: %v", m.StageSeconds)
	}
}

// A partial run is published and says so, but LATEST stays on the last
// complete run and the runner reports failure.
func TestRunPartialKeepsLatest(t *testing.T) {
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	first, err := r.Run(context.Background(), testJob("tennis", 30))
	if err != nil {
		t.Fatal(err)
	}
	job := testJob("tennis", 30)
	job.Seeds = []string{"/wiki/Nowhere"}
	m, err := r.Run(context.Background(), job)
	if err == nil || KindOf(err) != Failed || !strings.Contains(err.Error(), "seed /wiki/Nowhere: HTTP 404") {
		t.Fatalf("err = %v, want a Failed error naming the seed", err)
	}
	if m == nil || m.Status != StatusPartial {
		t.Fatalf("manifest %+v, want status partial", m)
	}
	verifyRun(t, filepath.Join(r.OutDir, "tennis", partialDir, m.RunID))
	if _, err := os.Stat(filepath.Join(r.OutDir, "tennis", m.RunID)); err == nil {
		t.Error("a partial run sits beside the complete ones, where the documented globs see it")
	}
	if latest, _ := Latest(r.OutDir, "tennis"); latest != first.RunID {
		t.Errorf("LATEST = %s, want the complete run %s", latest, first.RunID)
	}
}

func TestRunRetentionAndStaleTemp(t *testing.T) {
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	stale := filepath.Join(r.OutDir, "tennis", tmpDir, "20200101T000000Z")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(stale, "graph.txt"), []byte("half"), 0o644)
	job := testJob("tennis", 20)
	job.Keep = 2
	var ids []string
	for range 3 {
		m, err := r.Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.RunID)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale temporary run still there: %v", err)
	}
	runs, _ := publishedRuns(filepath.Join(r.OutDir, "tennis"))
	if strings.Join(runs, " ") != ids[1]+" "+ids[2] {
		t.Errorf("runs kept = %v, want the last two of %v", runs, ids)
	}
}

// The second run of unchanged content marks every fetched page unchanged.
func TestRunChangesSinceLastRun(t *testing.T) {
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	if _, err := r.Run(context.Background(), testJob("tennis", 40)); err != nil {
		t.Fatal(err)
	}
	m, err := r.Run(context.Background(), testJob("tennis", 40))
	if err != nil {
		t.Fatal(err)
	}
	if m.Counts.Changed != 0 || m.PreviousRunID == "" {
		t.Errorf("changed = %d on unchanged content, previous run %q", m.Counts.Changed, m.PreviousRunID)
	}
}

func TestRunBadOutputs(t *testing.T) {
	w := wikitest.New(t, 50)
	r := testRunner(t, w.URL())
	if _, err := r.Run(context.Background(), testJob("../escape", 5)); err == nil || KindOf(err) != Invalid {
		t.Errorf("job name escaping the root: err = %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(r.OutDir)); len(entries) != 1 {
		t.Errorf("something was written beside the output root: %v", entries)
	}
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	r.OutDir = filepath.Join(blocker, "outputs") // a path through a regular file
	if _, err := r.Run(context.Background(), testJob("tennis", 5)); err == nil || !strings.Contains(err.Error(), "output folder "+filepath.Join(r.OutDir, "tennis")) || KindOf(err) != Invalid {
		t.Errorf("unwritable output root: err = %v", err)
	}
}

// A disk that fills up during publication fails the run and leaves the
// previous run and LATEST as they were, with no temporary directory.
func TestRunDiskFull(t *testing.T) {
	dir := t.TempDir()
	if err := mountTmpfs(dir, "640k"); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v", err)
	}
	defer unmount(dir)
	w := wikitest.New(t, 600)
	r := testRunner(t, w.URL())
	r.OutDir = dir
	first, err := r.Run(context.Background(), testJob("tennis", 20))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Run(context.Background(), testJob("tennis", 600))
	// The crawl state or a table is the first to hit the limit.
	if err == nil || !strings.Contains(err.Error(), "no space left") && !strings.Contains(err.Error(), "disk is full") {
		t.Fatalf("err = %v, want the disk full", err)
	}
	if latest, _ := Latest(dir, "tennis"); latest != first.RunID {
		t.Errorf("LATEST = %q after a failed publication, want %q", latest, first.RunID)
	}
	verifyRun(t, filepath.Join(dir, "tennis", first.RunID))
	entries, _ := os.ReadDir(filepath.Join(dir, "tennis"))
	for _, e := range entries {
		if e.IsDir() && e.Name() != first.RunID {
			t.Errorf("directory %s left in the job directory", e.Name())
		}
	}
}

// A run stopped midway is resumed by the next: the pages it fetched are
// replayed from the crawl state, not requested again, and the graph equals
// that of an uninterrupted run.
func TestRunResumesInterruptedRun(t *testing.T) {
	for _, admission := range []string{"discovery", "best-first"} {
		t.Run(admission, func(t *testing.T) { testResume(t, admission) })
	}
}

func testResume(t *testing.T, admission string) {
	job := testJob("tennis", 150)
	job.Admission = admission
	w := wikitest.New(t, 400)
	clean := testRunner(t, w.URL())
	want, err := clean.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	wantGraph, _ := os.ReadFile(filepath.Join(clean.OutDir, "tennis", want.RunID, "graph.txt"))

	w = wikitest.New(t, 400) // fresh request counts
	r := testRunner(t, w.URL())
	ctx, cancel := context.WithCancel(context.Background())
	r.Progress = func(_ string, p crawl.Progress) {
		if p.Done == 60 {
			cancel()
		}
	}
	first, err := r.Run(ctx, job)
	if err == nil || first.Status != StatusPartial {
		t.Fatalf("interrupted run: %v, %+v", err, first)
	}
	r.Progress = nil
	fetchedBefore, err := publish.ReadPrevious(filepath.Join(r.OutDir, "tennis", partialDir, first.RunID))
	if err != nil {
		t.Fatal(err)
	}
	before := w.Requests()
	second, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if second.ResumedFrom != first.RunID || second.Counts.Replayed < 55 {
		t.Errorf("resumed from %q with %d replayed pages, want %s and about 60", second.ResumedFrom, second.Counts.Replayed, first.RunID)
	}
	got, _ := os.ReadFile(filepath.Join(r.OutDir, "tennis", second.RunID, "graph.txt"))
	if string(got) != string(wantGraph) {
		t.Error("the resumed run's graph differs from an uninterrupted run's")
	}
	// Pages the first run fetched whole are not requested again; failed
	// and cancelled ones are.
	after := w.Requests()
	for key := range fetchedBefore.Hashes {
		if path := page.KeyPath(key); after[path] != before[path] {
			t.Errorf("%s, fetched by the interrupted run, was requested again", key)
		}
	}
}

// A second process (here: a second lock) cannot run a job that is running.
func TestJobLock(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockJob(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockJob(dir); err == nil || !strings.Contains(err.Error(), "another run of this job") {
		t.Errorf("second lock: err = %v", err)
	}
	unlock()
	again, err := lockJob(dir)
	if err != nil {
		t.Errorf("lock after unlock: %v", err)
	} else {
		again()
	}
}

// state_dir puts the crawl state on its own disk: nothing of it under
// the outputs, and a re-crawl still finds it (conditional requests).
func TestStateDir(t *testing.T) {
	w := wikitest.New(t, 100)
	etags := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		if req.Header.Get("If-None-Match") == `"v1"` {
			rw.WriteHeader(http.StatusNotModified)
			return
		}
		rw.Header().Set("ETag", `"v1"`)
		w.ServeHTTP(rw, req)
	}))
	defer etags.Close()
	r := testRunner(t, etags.URL)
	job := testJob("tennis", 20)
	job.StateDir = t.TempDir()
	for range 2 {
		if _, err := r.Run(context.Background(), job); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(job.StateDir, "tennis", stateFile)); err != nil {
		t.Errorf("no state under state_dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.OutDir, "tennis", stateFile)); err == nil {
		t.Error("crawl state under the outputs despite state_dir")
	}
	m, err := readManifest(filepath.Join(r.OutDir, "tennis", mustLatest(t, r.OutDir, "tennis")))
	if err != nil || m.Counts.NotModified == 0 {
		t.Errorf("the re-crawl did not use the state: %v, %+v", err, m.Counts)
	}
}

func mustLatest(t *testing.T, root, job string) string {
	t.Helper()
	latest, err := Latest(root, job)
	if err != nil || latest == "" {
		t.Fatalf("LATEST of %s: %q, %v", job, latest, err)
	}
	return latest
}

// A page that answered 404 is not requested again within recheck_missing:
// its answer is replayed, the graph is the same, and the manifest counts
// the requests made and bytes read, as the server saw them.
func TestRecheckMissing(t *testing.T) {
	w := wikitest.New(t, 300)
	r := testRunner(t, w.URL())
	job := testJob("tennis", 80)
	job.RecheckMissing = DefaultRecheckMissing
	total := func() (missing, all int) {
		for path, n := range w.Requests() {
			all += n
			if strings.HasPrefix(path, "/wiki/Missing_") {
				missing += n
			}
		}
		return
	}
	first, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	missing1, all1 := total()
	if missing1 == 0 || first.Counts.Requests != all1 || first.Counts.BytesDownloaded == 0 {
		t.Fatalf("first run: %d missing pages requested; manifest says %d requests, the server saw %d; %d bytes",
			missing1, first.Counts.Requests, all1, first.Counts.BytesDownloaded)
	}
	second, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	missing2, all2 := total()
	if missing2 != missing1 || second.Counts.Requests != all2-all1 || second.Counts.NotFound != first.Counts.NotFound {
		t.Errorf("second run: %d more requests of missing pages (want 0), manifest %d requests, server %d; not_found %d, was %d",
			missing2-missing1, second.Counts.Requests, all2-all1, second.Counts.NotFound, first.Counts.NotFound)
	}
	graph := func(m *Manifest) string {
		b, _ := os.ReadFile(filepath.Join(r.OutDir, "tennis", m.RunID, "graph.txt"))
		return string(b)
	}
	if graph(first) != graph(second) || !reflect.DeepEqual(first.Ranks, second.Ranks) {
		t.Error("the graph or ranks changed on a re-crawl that replayed the missing pages")
	}
	job.RecheckMissing = time.Nanosecond // long ago: ask again
	if _, err := r.Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	if missing3, _ := total(); missing3 != 2*missing1 {
		t.Errorf("after recheck_missing: %d missing requests, want %d", missing3-missing2, missing1)
	}
}

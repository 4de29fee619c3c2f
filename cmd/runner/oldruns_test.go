//go:build cgo

package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/internal/duckdbtest"
	"github.com/topicrank/topicrank/internal/snapshot"
	"github.com/topicrank/topicrank/pipeline"
)

// olderVersion is the last commit before page ids, revisions, items and
// categories reached the tables (and before this wave's catalogue and
// crawl-state schema 3): the version users ran.
const olderVersion = "54c5bf9"

// Runs published by the older version still read after a night of this
// one on the same outputs and crawl state: report, search, status and
// verify on them, DuckDB globs across old and new runs with union_by_name
// (the new columns NULL on the old runs), and not one byte of the old
// runs rewritten.
func TestOlderRunsRead(t *testing.T) {
	old := buildRunnerAt(t, olderVersion)
	out := t.TempDir()
	if b, err := exec.Command(old, "demo", "-out", out).CombinedOutput(); err != nil {
		t.Fatalf("the older version's demo: %v\n%s", err, b)
	}
	oldRuns, _ := filepath.Glob(filepath.Join(out, "demo", "2*"))
	if len(oldRuns) != 2 {
		t.Fatalf("the older demo published %q", oldRuns)
	}
	before := treeSums(t, oldRuns)

	// Two more nights of the demo's job, run as the demo runs it, on the
	// older version's crawl state (migrated). This version's snapshot is
	// not the older one's (its pages keep their ids), so the first night
	// finds every page changed and cannot say edited (the state kept no
	// revisions); the second says it of the pages both nights read.
	snap, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	srv := snapshot.NewServer(snap)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	cfg, err := pipeline.ParseConfig("demo.yaml", snapshot.JobsYAML)
	if err != nil {
		t.Fatal(err)
	}
	job, _ := cfg.Job(demoJob)
	r := pipeline.NewRunner(out, slog.New(slog.DiscardHandler))
	r.BaseURL = hs.URL
	for night := 3; night <= 4; night++ {
		srv.SetNight(night)
		m, err := r.Run(context.Background(), job)
		if err != nil || m.Status != pipeline.StatusComplete || night == 4 && m.Counts.NotModified == 0 {
			t.Fatalf("night %d of this version: %v, %+v", night, err, m.Counts)
		}
	}
	jobs := writeJobs(t, string(snapshot.JobsYAML))

	for _, dir := range oldRuns {
		id := filepath.Base(dir)
		html := filepath.Join(t.TempDir(), "report.html")
		if code, stdout, stderr := runner(t, "report", "-out", out, "-job", "demo", "-run", id, "-o", html); code != 0 ||
			!strings.Contains(readFile(t, html), "Top 20 by PageRank") {
			t.Errorf("report -run %s: exit %d\n%s%s", id, code, stdout, stderr)
		}
		if code, stdout, stderr := runner(t, "search", "-out", out, "-job", "demo", "-run", id, "space needle"); code != 0 ||
			!strings.Contains(stdout, "/wiki/Space_Needle") {
			t.Errorf("search -run %s: exit %d\n%s%s", id, code, stdout, stderr)
		}
	}
	if code, stdout, stderr := runner(t, "status", "-config", jobs, "-out", out); code != 0 || !strings.Contains(stdout, "demo  ok") {
		t.Errorf("status: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runner(t, "verify", "-out", out); code != 0 {
		t.Errorf("verify: exit %d\n%s%s", code, stdout, stderr)
	}

	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	glob := func(table string) string {
		return fmt.Sprintf("read_parquet('%s', union_by_name = true)", filepath.Join(out, "demo", "*", table))
	}
	rows := queryRows(t, db, `SELECT run_id, count(*), count(page_id), count(revision_id), count(wikidata_id), count(edited)
		FROM `+glob("pages.parquet")+` GROUP BY run_id ORDER BY run_id`)
	if len(rows) != 4 {
		t.Fatalf("pages across runs: %q", rows)
	}
	for i, r := range rows {
		var id string
		var n, ids, revs, items, edited int
		fmt.Sscan(r, &id, &n, &ids, &revs, &items, &edited)
		if old := i < 2; old && (ids != 0 || revs != 0 || items != 0 || edited != 0) || !old && (ids < n/2 || revs < n/2 || items < n/2) {
			t.Errorf("pages.parquet of run %s: %s (run, pages, page ids, revisions, items, edited)", id, r)
		}
	}
	if got := queryRows(t, db, `SELECT count(DISTINCT run_id) FROM `+glob("categories.parquet")); !slices.Equal(got, []string{"2"}) {
		t.Errorf("categories.parquet across runs: %q runs", got)
	}
	got := queryRows(t, db, `SELECT count(edited) > 0 FROM `+glob("changes.parquet")+` GROUP BY run_id ORDER BY run_id`)
	if !slices.Equal(got, []string{"false", "false", "false", "true"}) {
		t.Errorf("changes.parquet across runs, some edited said: %q", got)
	}
	if after := treeSums(t, oldRuns); !slices.Equal(after, before) {
		t.Errorf("the older runs' files changed:\nbefore %q\nafter  %q", before, after)
	}
}

// buildRunnerAt builds cmd/runner as it was at commit, from this
// repository's history, or skips the test where the history is not at
// hand (a shallow clone, no git) or with -short.
func buildRunnerAt(t *testing.T, commit string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: building an older version")
	}
	if err := exec.Command("git", "cat-file", "-e", commit+"^{commit}").Run(); err != nil {
		t.Skipf("commit %s is not in this clone's history (%v)", commit, err)
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	archive := exec.Command("git", "archive", commit)
	archive.Dir = strings.TrimSpace(string(top)) // from a sub-folder, git archive packs only it
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	untar.Stdin = pipe
	if err := untar.Start(); err != nil {
		t.Fatal(err)
	}
	if err := archive.Run(); err != nil {
		t.Fatalf("git archive %s: %v", commit, err)
	}
	if err := untar.Wait(); err != nil {
		t.Fatalf("unpacking %s: %v", commit, err)
	}
	bin := filepath.Join(t.TempDir(), "runner-"+commit)
	build := exec.Command("go", "build", "-o", bin, "./cmd/runner")
	build.Dir, build.Env = src, append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", commit, err, b)
	}
	return bin
}

// treeSums lists every file under dirs with its sha256.
func treeSums(t *testing.T, dirs []string) []string {
	t.Helper()
	var out []string
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			sum := sha256.Sum256(b)
			out = append(out, path+" "+hex.EncodeToString(sum[:]))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// queryRows returns each row as its values joined by spaces.
func queryRows(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	var out []string
	for _, vals := range duckdbtest.Rows(t, db, q) {
		out = append(out, strings.TrimSuffix(fmt.Sprintln(vals...), "\n"))
	}
	return out
}

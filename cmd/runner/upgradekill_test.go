//go:build cgo

package main

import (
	"database/sql"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/topicrank/topicrank/internal/snapshot"
)

// The first run of this version on a crawl state of the previous release,
// killed with SIGKILL after any statement of its upgrade (the columns,
// each copy's checksum, the new tables, the version), loses nothing: verify
// reads the state as an older schema before the kill and after it, the
// next run reuses every stored row (its fetch counts go on from the
// older release's), and verify then finds it sound (issue: 2 of 12 kills
// left a half-migrated state that the next run moved aside).
func TestUpgradeKilledAtEveryStatement(t *testing.T) {
	old := buildRunnerAt(t, olderVersion)
	cur := buildKillpoints(t)
	pristine := t.TempDir()
	if b, err := exec.Command(old, "demo", "-out", pristine).CombinedOutput(); err != nil {
		t.Fatalf("the older version's demo: %v\n%s", err, b)
	}
	before := fetchCounts(t, filepath.Join(pristine, "demo", "crawl-state.sqlite"))
	if len(before) < 20 {
		t.Fatalf("the older state holds %d pages", len(before))
	}

	srv := snapshot.NewServer(mustSnapshot(t))
	srv.SetNight(3)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	jobs := writeJobs(t, string(snapshot.JobsYAML))
	run := func(out string, env ...string) error {
		cmd := exec.Command(cur, "run", "-config", jobs, "-out", out, "-base-url", hs.URL, "-job", demoJob)
		cmd.Env = append(os.Environ(), env...)
		b, err := cmd.CombinedOutput()
		if err != nil && !killed(err) {
			t.Logf("run: %s", b)
		}
		return err
	}

	// Statements: 2 columns, a checksum per stored copy, the schema, the
	// version. Kill after the first few, spread through the checksums and
	// the last few; one past the last, the upgrade goes through.
	n := 2 + len(before) + 2
	points := []int{0, 1, 2, 3, n / 4, n / 2, 3 * n / 4, n - 3, n - 2, n - 1}
	for _, at := range append(points, n) {
		out := t.TempDir()
		if err := os.CopyFS(out, os.DirFS(pristine)); err != nil {
			t.Fatal(err)
		}
		verify := func(when string, older bool) {
			code, stdout, stderr := runner(t, "verify", "-out", out)
			if code != 0 || strings.Contains(stdout, "older schema") != older {
				t.Errorf("kill after statement %d, verify %s: exit %d, older schema said: %v, want %v\n%s%s",
					at, when, code, !older, older, stdout, stderr)
			}
		}
		verify("before", true)
		err := run(out, fmt.Sprintf("TOPICRANK_KILL_UPGRADE_AT=%d", at))
		if at == n {
			if err != nil {
				t.Errorf("statement %d is past the upgrade's last, yet the run failed: %v", at, err)
			}
		} else {
			if !killed(err) {
				t.Fatalf("kill after statement %d: the run was not killed (%v)", at, err)
			}
			verify("after the kill", true)
			if err := run(out); err != nil {
				t.Fatalf("kill after statement %d, the next run: %v", at, err)
			}
		}
		verify("after the next run", false)
		after := fetchCounts(t, filepath.Join(out, "demo", "crawl-state.sqlite"))
		went := 0
		for key, f := range before {
			switch g, ok := after[key]; {
			case !ok || g < f:
				t.Errorf("kill after statement %d: %s fetched %d times before, %d after (kept: %v)", at, key, f, g, ok)
			case g > f:
				went++
			}
		}
		if went < len(before)/2 {
			t.Errorf("kill after statement %d: %d of %d stored rows went on from the older release's counts", at, went, len(before))
		}
	}
}

// buildKillpoints builds this tree's runner tagged killpoints: it kills
// itself after the upgrade statement TOPICRANK_KILL_UPGRADE_AT names.
func buildKillpoints(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "runner-killpoints")
	build := exec.Command("go", "build", "-tags", "killpoints", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building with killpoints: %v\n%s", err, b)
	}
	return bin
}

// killed says err is a process's death by SIGKILL.
func killed(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// fetchCounts reads each stored page's fetch count from a crawl state.
func fetchCounts(t *testing.T, path string) map[string]int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT key, fetches FROM pages`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	m := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			t.Fatal(err)
		}
		m[k] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

func mustSnapshot(t *testing.T) *snapshot.Snapshot {
	t.Helper()
	s, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

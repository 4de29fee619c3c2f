package pipeline

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// TestCrashDuringPublication kills a runner process with SIGKILL at
// different points of publishing a run (temporary directory made, k files
// written, manifest written) and checks what a reader can see afterwards:
// every run directory is whole and LATEST names a complete run. The next
// run removes the debris.
func TestCrashDuringPublication(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	out := t.TempDir()
	jobDir := filepath.Join(out, "tennis")
	for k := 0; k < 8; k++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
		// Each child's clock starts at its own hour, so run ids never collide.
		cmd.Env = append(os.Environ(), "TOPICRANK_CRASH_OUT="+out, "TOPICRANK_CRASH_HOUR="+strconv.Itoa(k))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill once a temporary run holds k%7 files (k%7 == 0: as soon as
		// it exists). Polling the directory is the observation, not a wait.
		deadline := time.Now().Add(60 * time.Second)
		for !tmpHolds(jobDir, k%7) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("the child never reached publication")
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		checkReaderView(t, jobDir)
	}
	// A normal run afterwards cleans up and publishes.
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	r.OutDir = out
	r.Now = func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }
	if _, err := r.Run(context.Background(), testJob("tennis", 50)); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(filepath.Join(jobDir, tmpDir)); len(left) > 0 {
		t.Errorf("%d temporary runs left after a clean run", len(left))
	}
	checkReaderView(t, jobDir)
}

// tmpHolds reports whether a temporary run directory holds at least n files.
func tmpHolds(jobDir string, n int) bool {
	entries, _ := os.ReadDir(filepath.Join(jobDir, tmpDir))
	for _, e := range entries {
		files := 0
		filepath.WalkDir(filepath.Join(jobDir, tmpDir, e.Name()), func(_ string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files++
			}
			return nil
		})
		if files >= n {
			return true
		}
	}
	return false
}

// checkReaderView checks what a reader globbing the job directory sees.
func checkReaderView(t *testing.T, jobDir string) {
	t.Helper()
	runs, err := publishedRuns(jobDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range runs {
		if m := verifyRun(t, filepath.Join(jobDir, id)); m.Status != StatusComplete {
			t.Errorf("run %s has status %s", id, m.Status)
		}
	}
	latest, err := Latest(filepath.Dir(jobDir), filepath.Base(jobDir))
	if err != nil {
		t.Fatal(err)
	}
	if latest != "" && !strings.Contains(strings.Join(runs, " "), latest) {
		t.Errorf("LATEST names %s, which is not a published run", latest)
	}
	// What the documented globs match is complete runs only.
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(jobDir), "*", "*", "pages.parquet"))
	for _, m := range matches {
		if !runIDPattern.MatchString(filepath.Base(filepath.Dir(m))) || !slices.Contains(runs, filepath.Base(filepath.Dir(m))) {
			t.Errorf("the glob matches %s, not a complete run", m)
		}
	}
	if _, err := os.Stat(filepath.Join(jobDir, runsFile)); err == nil && parquetRows(t, filepath.Join(jobDir, runsFile)) < int64(len(runs)) {
		t.Errorf("runs.parquet lists fewer runs than the %d published", len(runs))
	}
}

// TestCrashChild is the process TestCrashDuringPublication kills: it
// publishes runs of a generated wiki until it is killed.
func TestCrashChild(t *testing.T) {
	out := os.Getenv("TOPICRANK_CRASH_OUT")
	if out == "" {
		t.Skip("run by TestCrashDuringPublication")
	}
	w := wikitest.New(t, 800)
	// No t.TempDir: this process is killed, and would leave it behind.
	r := NewRunner(out, slog.New(slog.DiscardHandler))
	r.BaseURL = w.URL()
	hour, _ := strconv.Atoi(os.Getenv("TOPICRANK_CRASH_HOUR"))
	start := time.Date(2029, 1, 1, hour, 0, 0, 0, time.UTC)
	n := 0
	r.Now = func() time.Time { n++; return start.Add(time.Duration(n) * time.Second) }
	for {
		if _, err := r.Run(context.Background(), testJob("tennis", 600)); err != nil {
			t.Fatal(err)
		}
	}
}

package pipeline

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// soakJob is the job of the fault soak: small enough for 50 nights in a
// minute or two, large enough that every fault lands mid-run.
func soakJob(stateDir string) Job {
	job := testJob("tennis", 150)
	job.StateDir, job.Keep = stateDir, 3
	return job
}

// TestSoakFaults runs 50 nights of one job with a fault drawn at random
// before each: state bytes flipped, the state's or the outputs' disk
// filled at a random moment (real tmpfs mounts, as root), SIGKILL at a
// random moment, the clock stepped ±2 h, a second run on the same state,
// a bit flipped in any published file or files no manifest lists (each
// found by verify, then mended by -repair), the state as the previous
// schema left it, verify and status reading beside the run.
// After every night each run folder is whole and a run reported complete
// lost no state write; at the end every published run passes Verify,
// LATEST, runs.parquet and status agree, and the last graph equals a
// fault-free crawl's.
func TestSoakFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("50 nights with faults")
	}
	out, stateDir := t.TempDir(), t.TempDir()
	tmpfs := mountTmpfs(out, "6m") == nil
	if tmpfs {
		defer unmount(out)
		if mountTmpfs(stateDir, "3m") != nil {
			t.Fatal("mounted one tmpfs but not a second")
		}
		defer unmount(stateDir)
	} else {
		t.Log("not root: no disk-full faults")
	}
	base := etagWiki(t, 400)
	job := soakJob(stateDir)
	r := testRunner(t, base)
	r.OutDir = out
	clock := time.Date(2026, 11, 21, 2, 0, 0, 0, time.UTC)
	r.Now = func() time.Time { return clock }
	seed := uint64(43) // TOPICRANK_SOAK_SEED draws other faults
	if v, err := strconv.ParseUint(os.Getenv("TOPICRANK_SOAK_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	faults := []string{"none", "flip state", "kill", "clock back", "clock forward", "shared state",
		"flip published", "extra files", "older schema", "reader beside"}
	if tmpfs {
		faults = append(faults, "full state", "full outputs")
	}
	counts := map[string]int{}
	for night := range 50 {
		clock = clock.Add(time.Hour)
		fault := faults[rng.IntN(len(faults))]
		counts[fault]++
		var m *Manifest
		var err error
		switch fault {
		case "flip state":
			flipBytes(t, StatePath(out, job), rng)
			m, err = r.Run(context.Background(), job)
		case "kill":
			killedRun(t, out, base, stateDir, clock, time.Duration(rng.IntN(1200))*time.Millisecond)
			continue
		case "clock back", "clock forward":
			if fault == "clock back" {
				clock = clock.Add(-3 * time.Hour) // two hours behind the last run
			} else {
				clock = clock.Add(2 * time.Hour)
			}
			m, err = r.Run(context.Background(), job)
		case "shared state":
			m, err = sharedRun(t, r, base, job)
		case "flip published", "extra files":
			damageOutputs(t, out, fault, rng)
			m, err = r.Run(context.Background(), job)
		case "older schema":
			olderSchema(t, StatePath(out, job))
			m, err = r.Run(context.Background(), job)
		case "reader beside":
			m, err = runBesideReaders(t, r, job)
		case "full state", "full outputs":
			dir := stateDir
			if fault == "full outputs" {
				dir = out
			}
			stop := fillAt(dir, time.Duration(rng.IntN(300))*time.Millisecond)
			m, err = r.Run(context.Background(), job)
			stop()
		default:
			m, err = r.Run(context.Background(), job)
		}
		t.Logf("night %d, %s: %v", night, fault, describeRun(m, err))
		if m != nil && m.Status == StatusComplete && err == nil {
			checkNoLostWrite(t, StatePath(out, job), m)
		}
		checkWholeFolders(t, filepath.Join(out, "tennis"))
	}
	t.Logf("faults drawn: %v", counts)
	clock = clock.Add(time.Hour)
	last, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatalf("the run after the faults: %v", err)
	}
	if f, err := Verify(out, "tennis", StatePath(out, job), false, slog.New(slog.DiscardHandler)); err != nil || len(f) > 0 {
		t.Errorf("verify after the soak: %+v, %v", f, err)
	}
	checkOneTruth(t, out, "tennis", last.RunID)
	clean := testRunner(t, base)
	want, err := clean.Run(context.Background(), soakJob(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if graphOf(t, out, "tennis", last.RunID) != graphOf(t, clean.OutDir, "tennis", want.RunID) {
		t.Error("the last graph differs from a fault-free crawl's")
	}
}

func describeRun(m *Manifest, err error) string {
	switch {
	case m == nil:
		return fmt.Sprintf("nothing published (%v)", err)
	case err != nil:
		return fmt.Sprintf("%s %s (%v)", m.Status, m.RunID, err)
	}
	return fmt.Sprintf("%s %s, %d fetched, %d not modified, %d replayed", m.Status, m.RunID, m.Counts.Fetched, m.Counts.NotModified, m.Counts.Replayed)
}

// flipBytes writes 64 random bytes at a random place of the file.
func flipBytes(t *testing.T, path string, rng *rand.Rand) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 128 {
		return
	}
	off := rng.IntN(len(b) - 64)
	for i := range 64 {
		b[off+i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fillAt fills the file system of dir after delay, and returns a function
// that waits for the filling and frees the space.
func fillAt(dir string, delay time.Duration) (stop func()) {
	filler := filepath.Join(dir, "filler")
	var wg sync.WaitGroup
	wg.Add(1)
	timer := time.AfterFunc(delay, func() {
		defer wg.Done()
		f, err := os.Create(filler)
		if err != nil {
			return
		}
		defer f.Close()
		chunk := make([]byte, 64<<10)
		for {
			if _, err := f.Write(chunk); err != nil {
				return
			}
		}
	})
	return func() {
		if timer.Stop() {
			wg.Done()
		}
		wg.Wait()
		os.Remove(filler)
	}
}

// killedRun runs the job in a child process and kills it with SIGKILL
// after delay.
func killedRun(t *testing.T, out, base, stateDir string, clock time.Time, delay time.Duration) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestSoakChild$")
	cmd.Env = append(os.Environ(), "TOPICRANK_SOAK_OUT="+out, "TOPICRANK_SOAK_BASE="+base,
		"TOPICRANK_SOAK_STATE="+stateDir, "TOPICRANK_SOAK_CLOCK="+strconv.FormatInt(clock.Unix(), 10))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(delay, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	t.Logf("killed run after %s: %v", delay, err)
}

// TestSoakChild is the run TestSoakFaults kills.
func TestSoakChild(t *testing.T) {
	out := os.Getenv("TOPICRANK_SOAK_OUT")
	if out == "" {
		t.Skip("run by TestSoakFaults")
	}
	sec, _ := strconv.ParseInt(os.Getenv("TOPICRANK_SOAK_CLOCK"), 10, 64)
	r := NewRunner(out, slog.New(slog.DiscardHandler))
	r.BaseURL = os.Getenv("TOPICRANK_SOAK_BASE")
	r.Now = func() time.Time { return time.Unix(sec, 0) }
	r.Run(context.Background(), soakJob(os.Getenv("TOPICRANK_SOAK_STATE")))
}

// sharedRun runs the job twice at once, on the same state with two
// output folders: one of them may be refused as Busy, never both given
// the state at once.
func sharedRun(t *testing.T, r *Runner, base string, job Job) (*Manifest, error) {
	other := NewRunner(t.TempDir(), slog.New(slog.DiscardHandler))
	other.BaseURL, other.Now = base, r.Now
	var wg sync.WaitGroup
	var otherErr error
	wg.Go(func() { _, otherErr = other.Run(context.Background(), job) })
	m, err := r.Run(context.Background(), job)
	wg.Wait()
	if KindOf(err) == Busy {
		t.Logf("the night's run was refused: the other held the state")
	}
	if otherErr != nil && KindOf(otherErr) != Busy {
		t.Errorf("the other run: %v", otherErr)
	}
	return m, err
}

// checkNoLostWrite checks that a run reported complete stored every page
// it fetched or found unchanged.
func checkNoLostWrite(t *testing.T, statePath string, m *Manifest) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+statePath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM pages WHERE run_id = ?`, m.RunID).Scan(&n); err != nil {
		t.Errorf("reading the state after run %s: %v", m.RunID, err)
		return
	}
	if want := m.Counts.Fetched + m.Counts.NotModified; n < want {
		t.Errorf("run %s is complete, but the state holds %d of its %d fetched or unchanged pages", m.RunID, n, want)
	}
}

// checkWholeFolders checks that every complete and partial run folder is
// whole against its manifest (sizes and sha256).
func checkWholeFolders(t *testing.T, dir string) {
	t.Helper()
	c, err := readCatalog(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range append(append(c.Complete, c.Pending...), c.Partial...) {
		d := c.Find(id)
		if d == "" {
			d = filepath.Join(dir, id)
		}
		if err := checkRun(d); err != nil {
			t.Errorf("run %s: %v", id, err)
		}
	}
}

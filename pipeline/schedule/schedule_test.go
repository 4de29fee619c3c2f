package schedule

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/topicrank/topicrank/pipeline"
)

// recorder is an Observer and a Run that count what happened; a run
// blocks until release is closed when block is set.
type recorder struct {
	mu       sync.Mutex
	runs     map[string]int
	skipped  map[string]int
	ended    map[string]int
	inFlight int
	maxIn    int
	reloads  []bool
	block    chan struct{}
	honorCtx bool   // a blocked run returns when ctx is done
	only     string // block only this job's runs ("": every job's)
}

func newRecorder() *recorder {
	return &recorder{runs: map[string]int{}, skipped: map[string]int{}, ended: map[string]int{}}
}

func (r *recorder) Run(ctx context.Context, job pipeline.Job) (*pipeline.Manifest, error) {
	r.mu.Lock()
	r.runs[job.Name]++
	r.inFlight++
	r.maxIn = max(r.maxIn, r.inFlight)
	r.mu.Unlock()
	defer func() { r.mu.Lock(); r.inFlight--; r.mu.Unlock() }()
	if r.block != nil && (r.only == "" || r.only == job.Name) {
		if r.honorCtx {
			select {
			case <-r.block:
			case <-ctx.Done():
				return &pipeline.Manifest{Job: job.Name, Status: pipeline.StatusPartial}, errors.New("cut short")
			}
		} else {
			<-r.block
		}
	}
	switch job.Seeds[0] {
	case "/wiki/Panic":
		panic("boom")
	case "/wiki/Locked": // a manual run of the job holds its lock
		return nil, &pipeline.Error{Op: "run", Job: job.Name, Kind: pipeline.Busy, Err: errors.New("another run of this job holds its lock")}
	}
	return &pipeline.Manifest{Job: job.Name, Status: pipeline.StatusComplete}, nil
}

func (r *recorder) RunStarted(string) {}
func (r *recorder) RunFinished(job string, _ *pipeline.Manifest, _ error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended[job]++
}
func (r *recorder) TickSkipped(job string) { r.mu.Lock(); r.skipped[job]++; r.mu.Unlock() }
func (r *recorder) Reloaded(ok bool, _ float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reloads = append(r.reloads, ok)
}

func (r *recorder) count(m map[string]int, job string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return m[job]
}

// syncBuffer is a log destination safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

const header = `defaults:
  user_agent: "topicrank-test/0.1 (ops@example.org)"
`

// jobsFile writes a jobs.yaml of the given jobs (name: schedule).
func jobsFile(t *testing.T, path string, extra string, jobs ...string) *pipeline.Config {
	t.Helper()
	var b strings.Builder
	b.WriteString(header + extra + "jobs:\n")
	for i := 0; i+1 < len(jobs); i += 2 {
		fmt.Fprintf(&b, "  - {name: %s, schedule: %q, seeds: [/wiki/X]}\n", jobs[i], jobs[i+1])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := pipeline.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func newScheduler(t *testing.T, rec *recorder, logs *syncBuffer) *Scheduler {
	return &Scheduler{Run: rec.Run, Observer: rec, OutDir: t.TempDir(), Log: slog.New(slog.NewTextHandler(logs, nil))}
}

// start runs s in the background; the returned stop cancels it and
// returns Start's error.
func start(s *Scheduler, cfg *pipeline.Config) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Start(ctx, cfg) }()
	return func() error { cancel(); return <-done }
}

// In fake time: a job runs at every tick of an @every spec, and a job
// without a schedule never.
func TestRunsOnEverySpec(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec, logs := newRecorder(), &syncBuffer{}
		path := filepath.Join(t.TempDir(), "jobs.yaml")
		cfg := jobsFile(t, path, "", "a", "@every 1s", "b", "@every 2s")
		cfg.Jobs = append(cfg.Jobs, pipeline.Job{Name: "manual", Seeds: []string{"/wiki/X"}})
		stop := start(newScheduler(t, rec, logs), cfg)
		time.Sleep(4500 * time.Millisecond) // fake time: ticks at 1, 2, 3, 4 s
		synctest.Wait()
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if a, b, m := rec.count(rec.ended, "a"), rec.count(rec.ended, "b"), rec.count(rec.runs, "manual"); a != 4 || b != 2 || m != 0 {
			t.Errorf("runs: a %d, b %d, manual %d; want 4, 2, 0\n%s", a, b, m, logs)
		}
	})
}

// A tick that finds the job's run still going is skipped and logged, not
// queued.
func TestOverlapSkippedAndLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec, logs := newRecorder(), &syncBuffer{}
		rec.block = make(chan struct{})
		cfg := jobsFile(t, filepath.Join(t.TempDir(), "jobs.yaml"), "", "a", "@every 1s")
		stop := start(newScheduler(t, rec, logs), cfg)
		time.Sleep(3500 * time.Millisecond) // ticks at 1, 2 and 3 s: the first run holds
		synctest.Wait()
		close(rec.block)
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if rec.count(rec.runs, "a") != 1 || rec.count(rec.skipped, "a") != 2 || strings.Count(logs.String(), "tick skipped") != 2 {
			t.Errorf("%d runs, %d skips; logs:\n%s\nwant 1 run and 2 skips logged", rec.count(rec.runs, "a"), rec.count(rec.skipped, "a"), logs)
		}
	})
}

// At most max_parallel_jobs runs go at once; the others wait for a slot.
func TestMaxParallelJobs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec, logs := newRecorder(), &syncBuffer{}
		rec.block = make(chan struct{})
		cfg := jobsFile(t, filepath.Join(t.TempDir(), "jobs.yaml"), "max_parallel_jobs: 2\n",
			"a", "@every 1s", "b", "@every 1s", "c", "@every 1s")
		stop := start(newScheduler(t, rec, logs), cfg)
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		if rec.inFlight != 2 || !strings.Contains(logs.String(), "waiting: max_parallel_jobs") {
			t.Errorf("%d runs in flight after the first tick, want 2 (and one waiting)\n%s", rec.inFlight, logs)
		}
		close(rec.block)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if rec.maxIn != 2 || rec.count(rec.runs, "c") == 0 {
			t.Errorf("at most %d in flight, c ran %d times; want 2 and at least once", rec.maxIn, rec.count(rec.runs, "c"))
		}
	})
}

// A panicking run is a failed run, logged with its stack; the loop goes
// on and the stop reports the failure.
func TestPanicIsAFailedRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec, logs := newRecorder(), &syncBuffer{}
		cfg := jobsFile(t, filepath.Join(t.TempDir(), "jobs.yaml"), "", "a", "@every 1s")
		cfg.Jobs[0].Seeds = []string{"/wiki/Panic"}
		stop := start(newScheduler(t, rec, logs), cfg)
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		err := stop()
		if rec.count(rec.ended, "a") != 2 || pipeline.KindOf(err) != pipeline.Failed || !strings.Contains(err.Error(), "last run of a failed") ||
			!strings.Contains(logs.String(), "run panicked") || !strings.Contains(logs.String(), "goroutine") ||
			!strings.Contains(logs.String(), "runs_failed=2") {
			t.Errorf("%d runs ended, err %v, logs:\n%s", rec.count(rec.ended, "a"), err, logs)
		}
	})
}

// A tick that meets another process's run of the job (its lock held) is
// a skipped tick: logged as such, not a failed run, and not a reason for
// schedule to exit 1.
func TestLockedTickIsSkipped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec, logs := newRecorder(), &syncBuffer{}
		cfg := jobsFile(t, filepath.Join(t.TempDir(), "jobs.yaml"), "", "a", "@every 1s")
		cfg.Jobs[0].Seeds = []string{"/wiki/Locked"}
		stop := start(newScheduler(t, rec, logs), cfg)
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		err := stop()
		if err != nil || strings.Contains(logs.String(), "run failed") || strings.Count(logs.String(), "tick skipped: another run holds the job") != 2 ||
			!strings.Contains(logs.String(), "msg=stopped runs_complete=0 runs_partial=0 runs_failed=0 ticks_skipped=2") {
			t.Errorf("err %v, logs:\n%s", err, logs)
		}
	})
}

// An output root that cannot be written stops schedule at start.
func TestChecksOutputRoot(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	rec := newRecorder()
	s := newScheduler(t, rec, &syncBuffer{})
	s.OutDir = filepath.Join(file, "outputs")
	err := s.Start(context.Background(), jobsFile(t, filepath.Join(t.TempDir(), "jobs.yaml"), "", "a", "@daily"))
	if pipeline.KindOf(err) != pipeline.Invalid || !strings.Contains(err.Error(), "output root") {
		t.Errorf("err = %v, want an Invalid error naming the output root", err)
	}
	cfg := jobsFile(t, filepath.Join(t.TempDir(), "jobs.yaml"), "", "a", "")
	if err := newScheduler(t, rec, &syncBuffer{}).Start(context.Background(), cfg); pipeline.KindOf(err) != pipeline.Invalid {
		t.Errorf("no scheduled job: err = %v, want Invalid", err)
	}
}

// The stop waits for running jobs, which publish what they have; a run
// that does not end within the grace period is left behind, and the stop
// says so.
func TestStopWithinGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec, logs := newRecorder(), &syncBuffer{}
		rec.block, rec.honorCtx = make(chan struct{}), true
		cfg := jobsFile(t, filepath.Join(t.TempDir(), "jobs.yaml"), "", "a", "@every 1s")
		stop := start(newScheduler(t, rec, logs), cfg)
		time.Sleep(1500 * time.Millisecond)
		err := stop()
		if err != nil || !strings.Contains(logs.String(), "level=WARN msg=\"run interrupted by the stop and published as partial") ||
			strings.Contains(logs.String(), "level=ERROR") {
			t.Errorf("a run cut short by the stop and published as partial: err %v, want nil and a warning\n%s", err, logs)
		}

		rec2 := newRecorder()
		rec2.block = make(chan struct{}) // ignores the stop
		s := newScheduler(t, rec2, logs)
		s.Grace = time.Minute
		stop = start(s, cfg)
		time.Sleep(1500 * time.Millisecond)
		t0 := time.Now()
		err = stop()
		if waited := time.Since(t0); waited != time.Minute || err == nil || !strings.Contains(err.Error(), "runs of a still going after the 1m0s grace") {
			t.Errorf("waited %v, err %v; want 1m and an error naming the job", waited, err)
		}
		close(rec2.block)
	})
}

package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"
)

// Schedule runs every job of cfg that has a schedule on its cron
// expression, in the job's time zone, until ctx is done. A job whose
// previous run is still going when its time comes is skipped (and the
// skip logged), not queued; a run that panics is logged with its stack
// and counted as failed, and the loop goes on. An output root it cannot
// write is an error at once, not when the first job fires. On cancellation the
// running jobs see ctx done, publish what they have as partial runs, and
// Schedule returns after they finish.
func (r *Runner) Schedule(ctx context.Context, cfg *Config) error {
	log := r.logger()
	if err := writable(r.OutDir); err != nil {
		return &Error{Op: "schedule", Kind: Invalid, Err: fmt.Errorf("output root %s: %w", r.OutDir, err)}
	}
	c := newCron(log)
	last := &lastRuns{errs: map[string]error{}}
	scheduled := map[cron.EntryID]Job{}
	for _, job := range cfg.Jobs {
		if job.Schedule == "" {
			log.Info("job has no schedule; run it with 'runner run'", "job", job.Name)
			continue
		}
		spec, err := job.Spec()
		if err != nil {
			return &Error{Op: "schedule", Job: job.Name, Kind: Invalid, Err: err}
		}
		id := c.Schedule(spec, cron.FuncJob(func() {
			m, err := recovered(log, job.Name, func() (*Manifest, error) { return r.Run(ctx, job) })
			if err != nil {
				log.Error("run failed", "job", job.Name, "err", err)
			}
			last.set(job.Name, err)
			if r.OnScheduledRun != nil {
				r.OnScheduledRun(job.Name, m, err)
			}
		}))
		scheduled[id] = job
	}
	if len(scheduled) == 0 {
		return &Error{Op: "schedule", Kind: Invalid, Err: fmt.Errorf("%s: no job has a schedule", cfg.Path)}
	}
	c.Start()
	for id, job := range scheduled {
		log.Info("scheduled", "job", job.Name, "schedule", job.Schedule, "timezone", job.Timezone, "next", c.Entry(id).Next.UTC())
	}
	<-ctx.Done()
	log.Info("stopping: waiting for running jobs")
	<-c.Stop().Done()
	return last.failed()
}

// lastRuns keeps each job's last outcome: Schedule fails when it ends
// with any job's last run failed or cut short by the stop, so that a
// supervisor sees a night that went wrong.
type lastRuns struct {
	mu   sync.Mutex
	errs map[string]error
}

func (l *lastRuns) set(job string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs[job] = err
}

func (l *lastRuns) failed() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var jobs []string
	for job, err := range l.errs {
		if err != nil {
			jobs = append(jobs, job)
		}
	}
	if len(jobs) == 0 {
		return nil
	}
	slices.Sort(jobs)
	return &Error{Op: "schedule", Kind: Failed, Err: fmt.Errorf("the last run of %s failed or was cut short", strings.Join(jobs, ", "))}
}

// newCron returns the cron loop: times in UTC unless a job's spec names
// its zone, a tick that finds the job's run still going skipped and
// logged, cron's own messages passed to log.
func newCron(log *slog.Logger) *cron.Cron {
	l := cronLogger{log}
	return cron.New(cron.WithLocation(time.UTC), cron.WithLogger(l), cron.WithChain(cron.SkipIfStillRunning(l)))
}

// recovered calls run, turning a panic into a failed run, logged with its
// stack.
func recovered(log *slog.Logger, job string, run func() (*Manifest, error)) (m *Manifest, err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("run panicked", "job", job, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			m, err = nil, &Error{Op: "run", Job: job, Kind: Failed, Err: fmt.Errorf("panic: %v", p)}
		}
	}()
	return run()
}

// writable checks that files can be created under dir (creating it).
func writable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".writable-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

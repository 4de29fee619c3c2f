package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
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
	return nil
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

package pipeline

import (
	"context"
	"fmt"

	"github.com/robfig/cron/v3"
)

// Schedule runs every job of cfg that has a schedule on its cron
// expression (UTC) until ctx is done. A job whose previous run is still
// going when its time comes is skipped, not queued. On cancellation the
// running jobs see ctx done, publish what they have as partial runs, and
// Schedule returns after they finish.
func (r *Runner) Schedule(ctx context.Context, cfg *Config) error {
	log := r.logger()
	c := cron.New(cron.WithChain(cron.SkipIfStillRunning(cron.DiscardLogger)))
	scheduled := map[cron.EntryID]Job{}
	for _, job := range cfg.Jobs {
		if job.Schedule == "" {
			log.Info("job has no schedule; run it with 'runner run'", "job", job.Name)
			continue
		}
		id, err := c.AddFunc(job.Schedule, func() {
			m, err := r.Run(ctx, job)
			if err != nil {
				log.Error("run failed", "job", job.Name, "err", err)
			}
			if r.OnScheduledRun != nil {
				r.OnScheduledRun(job.Name, m, err)
			}
		})
		if err != nil {
			return &Error{Op: "schedule", Job: job.Name, Kind: Invalid, Err: err}
		}
		scheduled[id] = job
	}
	if len(scheduled) == 0 {
		return &Error{Op: "schedule", Kind: Invalid, Err: fmt.Errorf("%s: no job has a schedule", cfg.Path)}
	}
	c.Start()
	for id, job := range scheduled {
		log.Info("scheduled", "job", job.Name, "schedule", job.Schedule, "next", c.Entry(id).Next)
	}
	<-ctx.Done()
	log.Info("stopping: waiting for running jobs")
	<-c.Stop().Done()
	return nil
}

package pipeline

import (
	"fmt"
	"path/filepath"
	"time"
)

// JobStatus is what `runner status` says of one job.
type JobStatus struct {
	Job          string
	Schedule     string
	LastComplete *Manifest // nil if none
	LastPartial  *Manifest // nil if none
	Next         time.Time // zero without a schedule
	Healthy      bool
	Reason       string // why not healthy
}

// Status reports each job of cfg from its published runs under root. A
// scheduled job is healthy when its newest complete run started less than
// two schedule intervals before now: one missed night is tolerated, two
// are not. A job without a schedule is always healthy.
func Status(root string, cfg *Config, now time.Time) []JobStatus {
	var out []JobStatus
	for _, job := range cfg.Jobs {
		st := JobStatus{Job: job.Name, Schedule: job.Schedule, Next: job.NextRun(now), Healthy: true}
		dir := filepath.Join(root, job.Name)
		st.LastComplete = newest(dir)
		st.LastPartial = newest(filepath.Join(dir, partialDir))
		if job.Schedule != "" {
			interval := job.NextRun(st.Next).Sub(st.Next)
			switch {
			case st.LastComplete == nil:
				st.Healthy, st.Reason = false, "no complete run"
			case now.Sub(st.LastComplete.Started) >= 2*interval:
				st.Healthy, st.Reason = false, fmt.Sprintf("newest complete run is %s old, over twice the schedule's interval (%s)",
					now.Sub(st.LastComplete.Started).Round(time.Minute), interval)
			}
		}
		out = append(out, st)
	}
	return out
}

// newest returns the manifest of the newest run directly in dir.
func newest(dir string) *Manifest {
	runs, err := publishedRuns(dir)
	for i := len(runs) - 1; err == nil && i >= 0; i-- {
		if m, err := readManifest(filepath.Join(dir, runs[i])); err == nil {
			return m
		}
	}
	return nil
}

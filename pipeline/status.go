package pipeline

import (
	"fmt"
	"os"
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
	NeverRun     bool   // nothing published yet: a new job, not a failing one
}

// Status reports each job of cfg from its published runs under root. A
// scheduled job is healthy when its newest complete run started less than
// two schedule intervals before now: one missed night is tolerated, two
// are not. A job that has published nothing yet has missed nothing: it is
// reported as never run, and healthy. A job without a schedule is always
// healthy. The error is for a root that is not a folder.
func Status(root string, cfg *Config, now time.Time) ([]JobStatus, error) {
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, &Error{Op: "status", Kind: Invalid, Err: fmt.Errorf("output root %s is not a folder (-out names where runs are published; nothing has run there yet?)", root)}
	}
	var out []JobStatus
	for _, job := range cfg.Jobs {
		st := JobStatus{Job: job.Name, Schedule: job.Schedule, Next: job.NextRun(now), Healthy: true}
		dir := filepath.Join(root, job.Name)
		st.LastComplete = newest(dir)
		st.LastPartial = newest(filepath.Join(dir, partialDir))
		if job.Schedule != "" {
			interval := job.NextRun(st.Next).Sub(st.Next)
			switch {
			case st.LastComplete == nil && st.LastPartial == nil:
				st.NeverRun = true
			case st.LastComplete == nil:
				st.Healthy, st.Reason = false, "no complete run, only partial ones"
			case now.Sub(st.LastComplete.Started) >= 2*interval:
				st.Healthy, st.Reason = false, fmt.Sprintf("newest complete run is %s old, over twice the schedule's interval (%s)",
					now.Sub(st.LastComplete.Started).Round(time.Minute), interval)
			}
		}
		out = append(out, st)
	}
	return out, nil
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

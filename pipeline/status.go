package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	// Damaged names what the cheap checks found wrong (LATEST naming no
	// whole run, a manifest that does not read, a file of the wrong size):
	// runner verify says more, and -repair mends it.
	Damaged string
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
		st.LastComplete, st.LastPartial, st.Damaged = newest(root, job.Name)
		switch {
		case strings.HasPrefix(st.Damaged, noWholeRun):
			st.Healthy, st.Reason = false, st.Damaged
		case st.Damaged != "":
			st.Healthy, st.Reason = false, "damaged: "+st.Damaged+" ('runner verify -job "+job.Name+" -repair' mends it)"
		}
		if m := st.LastComplete; m != nil && st.Healthy && m.Started.After(now.Add(ClockSlack)) {
			st.Healthy, st.Reason = false, fmt.Sprintf("clock ahead: the newest complete run %s started %s, %s after this host's now; "+
				"a host's clock was ahead when it ran or is behind now: set it right (timedatectl, NTP); "+
				"the next run is published after it", m.RunID, m.Started.Format(time.RFC3339), m.Started.Sub(now).Round(time.Minute))
		}
		if job.Schedule != "" && st.Healthy {
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

// noWholeRun begins the status of a job whose every run was moved aside.
const noWholeRun = "no whole run left"

// ClockSlack is how far in the future a run may be dated before status
// calls the clock ahead: hosts' clocks differ by seconds, not minutes.
const ClockSlack = 5 * time.Minute

// newest returns the manifests of the job's newest complete run (the
// one LATEST names) and newest partial run, and what a cheap check found
// damaged. Damage seen while a publication changed the catalogue (a run
// pruned as it was read) is read again, as verify does.
func newest(root, job string) (complete, partial *Manifest, damaged string) {
	dir, err := jobDir(root, job)
	if err != nil {
		return nil, nil, ""
	}
	untilStill(dir, func() bool {
		complete, partial, damaged = newestOnce(root, job)
		return damaged == ""
	})
	return complete, partial, damaged
}

// newestOnce is newest of the catalogue as it stands.
func newestOnce(root, job string) (complete, partial *Manifest, damaged string) {
	c, err := ReadCatalog(root, job)
	if err != nil {
		return nil, nil, ""
	}
	if c.Damaged != nil {
		damaged = c.Damaged.Error()
	}
	// Every complete run is checked, not only the newest: one truncated
	// table breaks the documented globs for every run.
	for i := len(c.Complete) - 1; i >= 0; i-- {
		m, err := wholeRun(c.Find(c.Complete[i]))
		if err != nil && damaged == "" {
			damaged = err.Error()
		}
		if c.Complete[i] == c.Latest {
			complete = m
		}
	}
	if len(c.Pending) > 0 && damaged == "" && !busy(c.Dir) { // a run holding the lock is publishing: no damage
		damaged = fmt.Sprintf("run %s is newer than the run LATEST names: a publication cut short (the next run finishes it)", c.Pending[len(c.Pending)-1])
	}
	for i := len(c.Partial) - 1; i >= 0 && partial == nil; i-- {
		partial, _ = readManifest(c.Find(c.Partial[i]))
	}
	if aside, err := publishedRuns(filepath.Join(c.Dir, damagedDir)); err == nil && len(aside) > 0 && complete == nil && damaged == "" {
		damaged = fmt.Sprintf(noWholeRun+": %d moved aside to %s (%s); they are kept, never deleted: look at them, "+
			"and the next 'runner run -job %s' publishes a new one", len(aside), filepath.Join(c.Dir, damagedDir), strings.Join(aside, ", "), job)
	}
	return complete, partial, damaged
}

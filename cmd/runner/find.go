package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/topicrank/topicrank/pipeline"
)

// findRun finds run runID of job under out (the newest complete run if
// runID is "") for report and search. A job with nothing published that
// jobs.yaml does not name either is bad usage, said with the jobs it has.
func findRun(op, out, config, job, runID string) (string, *pipeline.Manifest, error) {
	if _, err := os.Stat(filepath.Join(out, job)); err != nil {
		msg := fmt.Sprintf("nothing published under %s", filepath.Join(out, job))
		if !filepath.IsAbs(out) {
			msg += fmt.Sprintf(" (%s is relative to the current folder; -out names the output root)", out)
		}
		if cfg, err := pipeline.LoadConfig(config); err == nil {
			if _, ok := cfg.Job(job); !ok {
				var names []string
				for _, j := range cfg.Jobs {
					names = append(names, j.Name)
				}
				msg = fmt.Sprintf("no job %s in %s (jobs: %s), and %s", job, config, strings.Join(names, ", "), msg)
			} else {
				msg += fmt.Sprintf(": run it first ('runner run -job %s')", job)
			}
		}
		return "", nil, &pipeline.Error{Op: op, Kind: pipeline.Invalid, Err: fmt.Errorf("%s", msg)}
	}
	dir, m, err := pipeline.FindRun(out, job, runID)
	if err != nil {
		return "", nil, &pipeline.Error{Op: op, Job: job, Kind: pipeline.Invalid, Err: err}
	}
	return dir, m, nil
}

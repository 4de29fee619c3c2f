package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/topicrank/topicrank/pipeline"
)

func cmdVerify(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify", stderr)
	config := fs.String("config", "jobs.yaml", "jobs file (for each job's state_dir; optional)")
	out := fs.String("out", "outputs", "output root")
	var names listFlag
	fs.Var(&names, "job", "job to check (repeatable; default: every job published under -out)")
	mend := fs.Bool("repair", false, "move damaged runs and a damaged crawl state aside (never deleting a file), drop stored copies that fail their checksums, and rebuild LATEST, runs.parquet and feed.atom")
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, _ := pipeline.LoadConfig(*config) // without one, every state is under -out
	jobs := []string(names)
	if len(jobs) == 0 {
		entries, err := os.ReadDir(*out)
		if err != nil {
			return usageError{fmt.Sprintf("-out %s: %v (the output root, relative to the current folder)", *out, err)}
		}
		for _, e := range entries {
			if e.IsDir() && pipeline.IsJobName(e.Name()) {
				jobs = append(jobs, e.Name())
			}
		}
	}
	_, log := newReporter(stderr)
	bad := 0
	for _, job := range slices.Sorted(slices.Values(jobs)) {
		state := filepath.Join(*out, job, pipeline.StateFile)
		if cfg != nil {
			if j, ok := cfg.Job(job); ok {
				state = pipeline.StatePath(*out, j)
			}
		}
		findings, err := pipeline.Verify(*out, job, state, *mend, log)
		damaged := false
		for _, f := range findings {
			line := fmt.Sprintf("%s: %s: %s", job, f.Path, f.Problem)
			switch {
			case f.Note:
				line = fmt.Sprintf("%s: note: %s: %s", job, f.Path, f.Problem)
				if f.Repaired != "" {
					line += " -> " + f.Repaired
				}
			case f.Repaired != "":
				line += " -> repaired: " + f.Repaired
				damaged = true
			default:
				bad++
				damaged = true
			}
			fmt.Fprintln(stdout, line)
		}
		if err != nil {
			return err
		}
		if !damaged {
			fmt.Fprintf(stdout, "%s: ok\n", job)
		}
	}
	if bad > 0 {
		return &pipeline.Error{Op: "verify", Kind: pipeline.Failed,
			Err: fmt.Errorf("%d %s found; 'runner verify -repair' moves damaged runs aside and rebuilds LATEST and runs.parquet", bad, plural(bad, "problem", "problems"))}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"path/filepath"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/report"
)

func cmdReport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", stderr)
	out := fs.String("out", "outputs", "output root")
	config := fs.String("config", "jobs.yaml", "jobs file (to name the jobs when -job has no runs)")
	job := fs.String("job", "", "job to report on (required)")
	run := fs.String("run", "", "run id (default: the newest complete run)")
	file := fs.String("o", "", "write the HTML here (- for stdout; default outputs/<job>/report-<run>.html)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *job == "" {
		return usageError{"-job is required"}
	}
	if _, _, err := findRun("report", *out, *config, *job, *run); err != nil {
		return err
	}
	d, err := report.Read(*out, *job, *run)
	if err != nil {
		return &pipeline.Error{Op: "report", Job: *job, Kind: pipeline.Failed, Err: err}
	}
	path := *file
	if path == "" {
		path = filepath.Join(*out, *job, "report-"+d.Manifest.RunID+".html")
	}
	if path == "-" {
		return d.Write(stdout)
	}
	if err := writeReport(d, path); err != nil {
		if *file == "" && errors.Is(err, iofs.ErrPermission) {
			return &pipeline.Error{Op: "report", Job: *job, Kind: pipeline.Invalid,
				Err: fmt.Errorf("%w: the run's folder is not writable by this user; write the report elsewhere with -o FILE", err)}
		}
		if *file != "" {
			return usageError{fmt.Sprintf("-o %s: %v", *file, errors.Unwrap(err))}
		}
		return err
	}
	fmt.Fprintln(stdout, path)
	return nil
}

package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/evaluate"
	"github.com/topicrank/topicrank/stages/crawl"
)

func cmdEvaluate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("evaluate", stderr)
	var f jobFlags
	f.register(fs)
	name := fs.String("job", "", "job to evaluate (required)")
	strategies := fs.String("strategies", strings.Join(crawl.Strategies, ","), "strategies to compare, comma-separated")
	admission := fs.String("admission", "", "discovery or best-first (default: the job's)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *name == "" {
		return usageError{"-job is required"}
	}
	var names []string
	for _, s := range strings.Split(*strategies, ",") {
		if s = strings.TrimSpace(s); s != "" {
			if _, err := crawl.ParseStrategy(s); err != nil {
				return usageError{"-strategies: " + err.Error()}
			}
			names = append(names, s)
		}
	}
	if len(names) == 0 {
		return usageError{"-strategies is empty"}
	}
	if *admission != "" {
		if _, err := crawl.ParseAdmission(*admission); err != nil {
			return usageError{"-admission: " + err.Error()}
		}
	}
	cfg, r, err := f.runner(stderr)
	if err != nil {
		return err
	}
	job, ok := cfg.Job(*name)
	if !ok {
		return usageError{fmt.Sprintf("no job %q in %s", *name, f.config)}
	}
	rep, err := evaluate.Evaluate(ctx, r, job, names, *admission, r.Log)
	if err != nil {
		return &pipeline.Error{Op: "evaluate", Job: job.Name, Kind: pipeline.Failed, Err: err}
	}
	if err := rep.Print(stdout); err != nil {
		return err
	}
	dir := evaluate.Dir(f.out, job.Name, rep.RunID)
	if _, err := rep.Save(dir); err != nil {
		return &pipeline.Error{Op: "evaluate", Job: job.Name, Kind: pipeline.Failed, Err: err}
	}
	fmt.Fprintf(stdout, "\nwrote %s (harvest.parquet, overlap.parquet, curve.parquet, harvest.png, harvest.svg)\n", dir)
	return nil
}

package main

import (
	"context"
	"fmt"
	"io"

	"github.com/topicrank/topicrank/pipeline"
)

func cmdValidate(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("validate", stderr)
	config := fs.String("config", "jobs.yaml", "jobs file")
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := pipeline.LoadConfig(*config)
	if err != nil {
		return err
	}
	for _, j := range cfg.Jobs {
		schedule := j.Schedule
		if schedule == "" {
			schedule = "(run only)"
		}
		fmt.Fprintf(stdout, "%-16s %-14s max_pages=%d seeds=%d topics=%d epsilons=%v\n",
			j.Name, schedule, j.MaxPages, len(j.Seeds), len(j.Topics), j.Epsilons)
	}
	fmt.Fprintf(stdout, "%s: %d jobs, valid\n", cfg.Path, len(cfg.Jobs))
	return nil
}

package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

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
	// A column per field, as wide as its widest value: job names are
	// free-form.
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, j := range cfg.Jobs {
		schedule := j.Schedule
		if schedule == "" {
			schedule = "(run only)"
		}
		fmt.Fprintf(tw, "%s\t%s\tmax_pages=%d\tseeds=%d\ttopics=%d\tepsilons=%v\n",
			j.Name, schedule, j.MaxPages, len(j.Seeds), len(j.Topics), j.Epsilons)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	fmt.Fprintf(stdout, "%s: %d %s, valid\n", cfg.Path, len(cfg.Jobs), plural(len(cfg.Jobs), "job", "jobs"))
	return nil
}

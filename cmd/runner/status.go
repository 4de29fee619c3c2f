package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/topicrank/topicrank/pipeline"
)

func cmdStatus(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("status", stderr)
	config := fs.String("config", "jobs.yaml", "jobs file")
	out := fs.String("out", "outputs", "output root")
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := pipeline.LoadConfig(*config)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	sts, err := pipeline.Status(*out, cfg, now)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "job\thealth\tlast complete\tage\tvertices\tfetched\tfailed\tlast partial\tnext run (UTC)")
	var broken []string
	for _, s := range sts {
		health := "ok"
		if s.NeverRun {
			health = "never run"
		}
		switch {
		case s.Damaged != "":
			health = "DAMAGED: " + s.Reason
			broken = append(broken, s.Job)
		case !s.Healthy:
			health = "FAILING: " + s.Reason
			broken = append(broken, s.Job)
		}
		complete, age, vertices, fetched, failed := "-", "-", "-", "-", "-"
		if m := s.LastComplete; m != nil {
			complete, age = m.RunID, now.Sub(m.Started).Round(time.Minute).String()
			vertices, fetched, failed = fmt.Sprint(m.Counts.Vertices), fmt.Sprint(m.Counts.Fetched), fmt.Sprint(m.Counts.Failed)
		}
		partial := "-"
		if m := s.LastPartial; m != nil {
			partial = m.RunID
		}
		next := "-"
		if !s.Next.IsZero() {
			next = s.Next.UTC().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Job, health, complete, age, vertices, fetched, failed, partial, next)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if others := unlisted(*out, cfg); len(others) > 0 {
		hint := ""
		if slices.Contains(others, "demo") {
			hint = " (the demo's job is in internal/snapshot/demo.yaml: runner status -config internal/snapshot/demo.yaml)"
		}
		fmt.Fprintf(stdout, "\n%s also holds runs of %s, not in %s%s\n", *out, strings.Join(others, ", "), *config, hint)
	}
	if len(broken) > 0 {
		return fmt.Errorf("failing (missed two nights, never complete, or damaged): %s", strings.Join(broken, ", "))
	}
	return nil
}

// unlisted returns the jobs with runs under out that cfg does not name.
func unlisted(out string, cfg *pipeline.Config) []string {
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		if _, ok := cfg.Job(e.Name()); !ok && e.IsDir() && pipeline.IsJobName(e.Name()) {
			if _, err := os.Stat(filepath.Join(out, e.Name(), "runs.parquet")); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	return names
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/metrics"
	"github.com/topicrank/topicrank/stages/crawl"
)

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// jobFlags are the flags run and schedule share.
type jobFlags struct {
	config, out, baseURL string
	baseURLSet           bool // -base-url given, even empty
}

func (f *jobFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.config, "config", "jobs.yaml", "jobs file")
	fs.StringVar(&f.out, "out", "outputs", "output root")
	fs.Func("log-level", "log lines from this level on: debug, info (default), warn or error", logLevelFlag)
	fs.Func("base-url", "fetch every job's pages from this URL instead (e.g. a local mirror)", func(v string) error {
		f.baseURL, f.baseURLSet = v, true
		return nil
	})
}

// runner loads the config and builds the Runner both commands use.
func (f *jobFlags) runner(stderr io.Writer) (*pipeline.Config, *pipeline.Runner, error) {
	cfg, err := pipeline.LoadConfig(f.config)
	if err != nil {
		return nil, nil, err
	}
	if f.baseURLSet && f.baseURL == "" {
		return nil, nil, usageError{"-base-url is empty: give http(s)://host[:port], or leave the flag out to crawl each job's base_url"}
	}
	if f.baseURL != "" && !strings.HasPrefix(f.baseURL, "http://") && !strings.HasPrefix(f.baseURL, "https://") {
		return nil, nil, usageError{fmt.Sprintf("-base-url %q: want http(s)://host[:port]", f.baseURL)}
	}
	rep, log := newReporter(stderr)
	r := pipeline.NewRunner(f.out, log)
	r.BaseURL = strings.TrimRight(f.baseURL, "/")
	r.Progress = rep.Update
	return cfg, r, nil
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	var f jobFlags
	f.register(fs)
	var names listFlag
	fs.Var(&names, "job", "job to run (repeatable; default: all jobs)")
	metricsFile := fs.String("metrics-file", "", "write Prometheus metrics here after the runs (node_exporter's textfile collector: name it *.prom)")
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, r, err := f.runner(stderr)
	if err != nil {
		return err
	}
	var met *metrics.Metrics
	if *metricsFile != "" {
		met = instrument(r)
	}
	jobs := cfg.Jobs
	if len(names) > 0 {
		jobs = nil
		for _, n := range names {
			j, ok := cfg.Job(n)
			if !ok {
				return usageError{fmt.Sprintf("no job %q in %s", n, cfg.Path)}
			}
			jobs = append(jobs, j)
		}
	}
	var errs []error
	for _, j := range jobs {
		if met != nil {
			met.RunStarted(j.Name)
		}
		m, err := r.Run(ctx, j)
		if met != nil {
			met.RunFinished(j.Name, m, err)
		}
		if m != nil {
			c := m.Counts
			fmt.Fprintf(stdout, "%s: %s run %s: %d %s (%d fetched, %d from the crawl state, %d failed, %d not fetched), %d %s -> %s\n",
				j.Name, m.Status, m.RunID, c.Vertices, plural(c.Vertices, "page", "pages"), c.Fetched, c.NotModified+c.Carried+c.Replayed, c.Failed, c.NotFetched,
				c.Edges, plural(c.Edges, "edge", "edges"), pipeline.RunDir(f.out, m))
		}
		if err != nil {
			errs = append(errs, err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	r.Notifier.Wait() // each delivery is bounded by its job's notify_timeout
	if met != nil {
		if err := met.WriteTextfile(*metricsFile); err != nil {
			errs = append(errs, fmt.Errorf("metrics file: %w", err))
		}
	}
	return errors.Join(errs...)
}

// instrument makes r's crawls report to new metrics.
func instrument(r *pipeline.Runner) *metrics.Metrics {
	m := metrics.New()
	r.WrapTransport = m.WrapTransport
	if r.Notifier != nil {
		r.Notifier.Delivered = m.Webhook
	}
	progress := r.Progress
	r.Progress = func(job string, p crawl.Progress) {
		m.Progress(job, p)
		if progress != nil {
			progress(job, p)
		}
	}
	return m
}

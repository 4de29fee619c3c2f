package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/topicrank/topicrank/internal/snapshot"
	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/report"
)

// demoJob is the job runner demo crawls (internal/snapshot/demo.yaml).
const demoJob = "demo"

// cmdDemo runs the whole pipeline, offline, on the snapshot of real
// Wikipedia pages shipped with topicrank: two nights of the demo job,
// crawled over HTTP from a loopback server, a day apart, the second after
// some pages were edited; then the report of the second.
func cmdDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(demoJob, stderr)
	out := fs.String("out", "outputs", "output root: the demo's runs go to <out>/demo, replacing an earlier demo's")
	serve := fs.Bool("serve", false, "keep serving the demo's pages instead (until stopped), and write a jobs file that crawls them: try schedule, evaluate or a job of your own offline")
	addr := fs.String("addr", "127.0.0.1:0", "with -serve: the loopback address to serve on")
	jobsFile := fs.String("jobs", "demo-jobs.yaml", "with -serve: the jobs file to write")
	night := fs.Int("night", 1, "with -serve: which night's pages to serve (from 2 on, some are edited)")
	fs.Func("log-level", "log lines from this level on: debug, info, warn (default) or error", logLevelFlag)
	defer logLevel.Set(logLevel.Level())
	logLevel.Set(slog.LevelWarn) // the demo prints its own summary
	if err := parse(fs, args); err != nil {
		return err
	}
	if *serve {
		if *night < 1 {
			return usageError{fmt.Sprintf("-night %d: want 1 or more", *night)}
		}
		return serveDemo(ctx, *addr, *jobsFile, *night, stdout, nil)
	}
	snap, err := snapshot.Load()
	if err != nil {
		return err
	}
	cfg, err := pipeline.ParseConfig("demo.yaml", snapshot.JobsYAML)
	if err != nil {
		return err
	}
	job, _ := cfg.Job(demoJob)
	if err := removeLastDemo(filepath.Join(*out, demoJob), job.UserAgent); err != nil {
		return err
	}
	srv := snapshot.NewServer(snap)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("a loopback port for the snapshot: %w", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()

	rep, log := newReporter(stderr)
	r := pipeline.NewRunner(*out, log)
	r.BaseURL, r.Progress = "http://"+ln.Addr().String(), rep.Update
	fmt.Fprintf(stdout, "Serving %d real Wikipedia pages (2018, CC BY-SA) as en.wikipedia.org at %s.\n\n", len(snap.Pages), r.BaseURL)
	for night := 1; night <= 2; night++ {
		srv.SetNight(night)
		ago := time.Duration(2-night) * 24 * time.Hour // night 1 is yesterday's run
		r.Now = func() time.Time { return time.Now().Add(-ago) }
		m, err := r.Run(ctx, job)
		if err != nil {
			return fmt.Errorf("night %d: %w", night, err)
		}
		c := m.Counts
		fmt.Fprintf(stdout, "Night %d: run %s crawled %d pages (%d fetched, %d unchanged since last night: 304), %d relevant (harvest %.0f%%), %d edges;\n",
			night, m.RunID, c.Vertices, c.Fetched, c.NotModified, c.Relevant, 100*c.Harvest(), c.Edges)
		fmt.Fprintf(stdout, "  %d requests (robots.txt and conditional GETs included), PageRank for epsilon %v, %d pages changed.\n",
			c.Requests, job.Epsilons, c.Changed)
	}
	d, err := report.Read(*out, demoJob, "")
	if err != nil {
		return err
	}
	path := filepath.Join(*out, demoJob, "report-"+d.Manifest.RunID+".html")
	if err := writeReport(d, path); err != nil {
		return err
	}
	fmt.Fprintf(stdout, demoNext, path, filepath.Join(*out, demoJob), *out, *out, *out)
	return nil
}

// demoNext is what the demo prints at its end: where things are and the
// commands to try next, each of which works as printed (TestDemo runs them).
const demoNext = `
The report of the second night: %s
The tables (Parquet) and the search index: %s/<run_id>/

Try next:
  go run ./cmd/runner search -out %s -job demo "space needle"
  go run ./cmd/runner report -out %s -job demo -o -     # the HTML on stdout
  duckdb -c "SELECT page, rank FROM read_parquet('%s/demo/*/ranks/*.parquet')
             WHERE epsilon = 0.005 ORDER BY run_id DESC, position LIMIT 10"
  go run ./cmd/runner run -job seattle   # the real crawl: Wikipedia over the network, 2 requests/s

`

// writeReport writes d's HTML to path.
func writeReport(d *report.Data, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(d.Write(f), f.Close())
}

// removeLastDemo removes an earlier demo's outputs, and refuses to if the
// folder holds a run the demo did not make (a job of the user's named
// demo): the demo's runs were fetched from the loopback with the demo's
// user agent. Nothing published is lost.
func removeLastDemo(dir, userAgent string) error {
	manifests, _ := filepath.Glob(filepath.Join(dir, "*", "manifest.json"))
	partial, _ := filepath.Glob(filepath.Join(dir, "partial", "*", "manifest.json"))
	for _, m := range append(manifests, partial...) {
		man, err := pipeline.ReadManifest(filepath.Dir(m))
		if err != nil || !strings.HasPrefix(man.FetchedFrom, "http://127.0.0.1:") || man.Config.UserAgent != userAgent {
			return &pipeline.Error{Op: "demo", Kind: pipeline.Invalid, Err: fmt.Errorf(
				"%s holds runs runner demo did not make (%s): move them, or give the demo another -out", dir, filepath.Dir(m))}
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("removing the last demo's outputs: %w", err)
	}
	return nil
}

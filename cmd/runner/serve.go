package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/topicrank/topicrank/internal/snapshot"
	"github.com/topicrank/topicrank/pipeline"
)

// serveDemo is runner demo -serve: the demo's pages served on the
// loopback until the command is stopped, and a jobs file whose jobs crawl
// them, so that schedule, evaluate and a job of one's own can be tried
// with no network. ready, if not nil, is called with the base URL once
// the server listens (tests).
func serveDemo(ctx context.Context, addr, jobsFile string, night int, stdout io.Writer, ready func(string)) error {
	snap, err := snapshot.Load()
	if err != nil {
		return err
	}
	srv := snapshot.NewServer(snap)
	srv.SetNight(night)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageError{fmt.Sprintf("-addr %s: %v", addr, err)}
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	base := "http://" + ln.Addr().String()
	jobs := demoJobs(base)
	if _, err := pipeline.ParseConfig(jobsFile, []byte(jobs)); err != nil {
		return err // the file below must always be valid
	}
	written, kept := jobsFile, ""
	if edited(jobsFile) {
		kept, written = jobsFile, strings.TrimSuffix(jobsFile, filepath.Ext(jobsFile))+".new"+filepath.Ext(jobsFile)
		jobsFile = written
	}
	if err := os.WriteFile(written, []byte(jobs), 0o644); err != nil {
		return &pipeline.Error{Op: "demo", Kind: pipeline.Invalid, Err: fmt.Errorf("writing the jobs file: %w (-jobs names another)", err)}
	}
	fmt.Fprintf(stdout, "Serving %d real Wikipedia pages (2018, CC BY-SA) as en.wikipedia.org at %s (night %d), until stopped (Ctrl-C).\n", len(snap.Pages), base, night)
	if kept != "" {
		fmt.Fprintf(stdout, "%s has your edits: left as it is (set its base_url to %s, or serve at its address with -addr).\n", kept, base)
	}
	fmt.Fprintf(stdout, "Wrote %s: jobs that crawl them. Try, from another terminal:\n\n", written)
	for _, c := range []string{
		"runner validate -config " + jobsFile,
		"runner evaluate -config " + jobsFile + " -job demo-sports -strategies bfs,similarity,learned",
		"runner evaluate -config " + jobsFile + " -job demo-sports -strategies learned -nights 3",
		"runner schedule -config " + jobsFile + " -out demo-outputs   # demo-sports fires every minute; edit " + jobsFile + " and it reloads",
	} {
		fmt.Fprintf(stdout, "  %s\n", c)
	}
	if ready != nil {
		ready(base)
	}
	<-ctx.Done()
	return nil
}

// servedBase is the base_url a jobs file demo -serve wrote names.
var servedBase = regexp.MustCompile(`(?m)^  base_url: (\S+)$`)

// edited reports whether path holds something other than a jobs file
// demo -serve wrote (for whatever address): a file the user changed,
// which is never overwritten. An absent file is not edited.
func edited(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	m := servedBase.FindSubmatch(b)
	return m == nil || string(b) != demoJobs(string(m[1]))
}

// demoJobs is the jobs file demo -serve writes: the demo's job and a
// sub-topic of it, both crawling the served pages (base_url), as polite
// as a loopback server allows.
func demoJobs(base string) string {
	return strings.ReplaceAll(`# Written by runner demo -serve: jobs that crawl the demo's pages at BASE
# while it runs. Edit it (a topic, max_pages, the schedule): runner
# schedule reloads it. Every key: docs/configuration.md.
defaults:
  base_url: BASE
  user_agent: "topicrank-demo/0.1 (https://example.org/topicrank; ops@example.org)"
  epsilons: [0.01, 0.005]
  politeness: {max_rps: 200, concurrency: 4}
  admission: best-first
jobs:
  - name: demo
    seeds: [/wiki/Seattle]
    topics: [seattle, washington, puget sound, king county, space needle]
    max_pages: 250
    strategy: similarity
  - name: demo-sports
    schedule: "* * * * *"
    seeds: [/wiki/Seattle]
    topics: [sports, team, league]
    max_pages: 60
    strategy: learned
`, "BASE", base)
}

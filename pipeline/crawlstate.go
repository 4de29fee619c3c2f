package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/store"
	"github.com/topicrank/topicrank/stages/publish"
)

// crawl runs the crawl stage with the job's crawl state, and records in
// the state how the crawl ended so that an interrupted one is resumed.
func (r *Runner) crawl(ctx context.Context, job Job, dir string, m *Manifest, hist *map[string]publish.PageHistory, log *slog.Logger) (*crawl.Result, error) {
	path := statePath(dir, job)
	if err := Writable(filepath.Dir(path), "crawl state folder"); err != nil {
		return nil, err
	}
	state, err := store.Open(path, m.RunID)
	switch {
	case errors.Is(err, store.ErrBusy):
		return nil, &Error{Op: "run", Job: job.Name, Kind: Busy, Err: err}
	case err != nil:
		return nil, err
	}
	if d := state.Damage(); d != nil {
		log.Error("crawl state damaged: moved aside, and this run starts from a fresh state (stored copies, conditional requests and change histories restart; nothing published is affected)",
			"state", path, "moved_to", d.Aside, "err", d.Err)
	}
	m.ResumedFrom = state.Resumes()
	release, err := r.leaseHost(ctx, job, log)
	switch {
	case err != nil && ctx.Err() != nil:
		// Stopped while waiting for the host: the crawl below sends no
		// request and publishes what it has, a partial run, as any run
		// stopped does.
		release = func() {}
	case err != nil:
		state.Finish(store.StatusInterrupted) // not crawled: the next run starts it again
		return nil, err
	}
	res, err := r.crawlWith(ctx, job, state, m, hist, log)
	release()
	ended := StatusComplete
	switch {
	case ctx.Err() != nil:
		ended = store.StatusInterrupted
	case err != nil:
		ended = store.StatusFailed
	case !res.Complete:
		ended = StatusPartial
	}
	during := state.Damaged()
	if serr := state.Finish(ended); err == nil && serr != nil {
		// The end is in the state's lock file (the next run does not
		// resume a run that ended), but the database lacks it.
		log.Error("crawl state: the run's end not recorded: the run is partial", "err", serr)
		res.Complete = false
		res.Problems = append(res.Problems, serr.Error())
	}
	if d := state.Damage(); during != nil && d != nil && res != nil && err == nil {
		// Damage seen while running: Finish moved the file aside.
		log.Error("crawl state damaged while running: moved aside; the next run starts from a fresh state", "state", path, "moved_to", d.Aside, "err", during)
		res.Complete = false
		res.Problems = append(res.Problems, fmt.Sprintf("crawl state %s is damaged (%v): moved to %s; the next run starts from a fresh state", path, during, d.Aside))
	}
	return res, err
}

// crawlWith crawls job with its opened state and reads the pages'
// histories from it. Writes the state lost, or damage it showed, make the
// run partial with their cause: a run is never complete when its state is
// not what it says.
func (r *Runner) crawlWith(ctx context.Context, job Job, state *store.Store, m *Manifest, hist *map[string]publish.PageHistory, log *slog.Logger) (*crawl.Result, error) {
	cfg, err := r.CrawlConfig(job, log)
	if err != nil {
		return nil, err
	}
	cfg.State = state
	if cfg.Revisit, m.Revisit, err = planRevisit(job, state, m.Started); err != nil {
		return nil, fmt.Errorf("crawl state %s: planning revisits: %w", state.Path(), err)
	}
	res, err := crawl.Crawl(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if m.Revisit != nil {
		m.Revisit.account(res)
	}
	if n := state.Rejected(); n > 0 {
		log.Warn("stored copies failed their checksums: never used, dropped (each page is fetched anew on its next visit)", "pages", n, "state", state.Path())
	}
	if *hist, err = pageHistories(state, res); err != nil && state.Damaged() == nil {
		return nil, fmt.Errorf("crawl state %s: reading histories: %w", state.Path(), err)
	}
	if err := state.Err(); err != nil {
		log.Error("crawl state writes lost: the run is partial", "err", err)
		res.Complete = false
		res.Problems = append(res.Problems, err.Error())
	}
	return res, nil
}

// statePath is where the job's crawl state lives: in its output
// directory, or under state_dir when the job sets one.
func statePath(dir string, job Job) string {
	if job.StateDir == "" {
		return filepath.Join(dir, stateFile)
	}
	return filepath.Join(job.StateDir, job.Name, stateFile)
}

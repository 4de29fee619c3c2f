// Package schedule runs topicrank's jobs on their cron schedules, as
// DESIGN.md's "Operations" says: each job in its time zone, never two runs
// of one job at once (a tick that finds one running is skipped and
// logged), at most max_parallel_jobs runs at a time, a panicking run
// recorded as failed, jobs.yaml re-read on SIGHUP and when the file
// changes, and a stop that gives running jobs a bounded grace period to
// publish what they have.
package schedule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/topicrank/topicrank/pipeline"
)

// DefaultGrace is how long a stop waits for running jobs by default.
const DefaultGrace = 2 * time.Minute

// Observer is told what the scheduler does (metrics implement it).
type Observer interface {
	RunStarted(job string)
	RunFinished(job string, m *pipeline.Manifest, err error)
	TickSkipped(job string)
	Reloaded(ok bool, at float64)
}

// Scheduler runs the jobs of a jobs.yaml on their schedules.
type Scheduler struct {
	// Run runs one job once (pipeline.Runner.Run).
	Run func(context.Context, pipeline.Job) (*pipeline.Manifest, error)
	// OutDir is the output root, checked for writing at start.
	OutDir string
	// Grace bounds how long a stop waits for running jobs to publish
	// (<= 0: DefaultGrace). Past it, Start returns without them: their
	// unfinished runs are in .tmp/ and never read, and the next run of
	// each job removes them and resumes the crawl.
	Grace time.Duration
	// Reload delivers SIGHUP: each value re-reads jobs.yaml.
	Reload <-chan os.Signal
	// Watch re-reads jobs.yaml when its file (or its directory, as a
	// Kubernetes ConfigMap swaps it) changes.
	Watch    bool
	Observer Observer // nil: none
	Log      *slog.Logger

	mu       sync.Mutex
	path     string
	digest   string // of the loaded file's bytes
	rejected string // of the last file that failed to load
	jobs     map[string]entry
	running  map[string]bool
	last     map[string]error // each job's last outcome
	slots    *slots
	cron     *cron.Cron
	stop     error // set once stopping: what /healthz reports
	// session counts this session's runs by how they ended: complete,
	// partial, failed, and ticks skipped.
	session map[string]int
}

// entry is one scheduled job and its cron entry.
type entry struct {
	id  cron.EntryID
	job pipeline.Job
}

// Start schedules cfg's jobs and runs them until ctx is done, reloading
// jobs.yaml as it changes. It returns an error of kind Invalid when the
// output root cannot be written or no job has a schedule, and one of kind
// Failed when, at the stop, any job's last run failed or was cut short,
// or runs were still going when the grace period ended.
func (s *Scheduler) Start(ctx context.Context, cfg *pipeline.Config) error {
	log := s.log()
	if err := pipeline.Writable(s.OutDir, "output root"); err != nil {
		return err
	}
	s.mu.Lock() // /healthz may already be asking
	s.path, s.digest = cfg.Path, fileDigest(cfg.Path)
	s.jobs, s.running, s.last, s.session = map[string]entry{}, map[string]bool{}, map[string]error{}, map[string]int{}
	s.slots = newSlots(cfg.MaxParallelJobs)
	s.cron = cron.New(cron.WithLocation(time.UTC), cron.WithLogger(cronLogger{log}))
	s.mu.Unlock()
	if _, err := s.apply(ctx, cfg); err != nil {
		return err
	}
	if len(s.jobs) == 0 {
		return &pipeline.Error{Op: "schedule", Kind: pipeline.Invalid, Err: fmt.Errorf("%s: no job has a schedule", cfg.Path)}
	}
	w, events := s.startWatch()
	if w != nil {
		defer w.Close()
	}
	if s.Observer != nil {
		s.Observer.Reloaded(true, now())
	}
	s.cron.Start()
	s.logNext()
	s.loop(ctx, events)
	return s.shutdown()
}

// Healthy is nil while the scheduler runs, and says why not otherwise.
func (s *Scheduler) Healthy() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stop != nil:
		return s.stop
	case s.cron == nil:
		return errors.New("not started")
	}
	return nil
}

// shutdown stops new runs and waits, at most the grace period, for the
// running ones, which see ctx done and publish what they have as partial.
func (s *Scheduler) shutdown() error {
	grace := s.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	s.mu.Lock()
	s.stop = errors.New("stopping")
	s.mu.Unlock()
	s.log().Info("stopping: running jobs publish what they have", "grace", grace.String())
	defer s.summary()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-s.cron.Stop().Done():
	case <-timer.C:
		s.mu.Lock()
		defer s.mu.Unlock()
		return &pipeline.Error{Op: "schedule", Kind: pipeline.Failed, Err: fmt.Errorf(
			"runs of %s still going after the %s grace period: stopped without them (the next run of each removes the unfinished one and resumes its crawl)",
			strings.Join(sortedKeys(s.running), ", "), grace)}
	}
	return s.failed()
}

// summary logs what this session's runs did, once stopped.
func (s *Scheduler) summary() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log().Info("stopped", "runs_complete", s.session["complete"], "runs_partial", s.session["partial"],
		"runs_failed", s.session["failed"], "ticks_skipped", s.session["skipped"])
}

// count notes how a run of this session ended.
func (s *Scheduler) count(outcome string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.session[outcome]++
}

// failed is the exit rule: an error when any job's last run failed (a
// run the stop cut short and published as partial has not failed).
func (s *Scheduler) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var jobs []string
	for job, err := range s.last {
		if err != nil {
			jobs = append(jobs, job)
		}
	}
	if len(jobs) == 0 {
		return nil
	}
	slices.Sort(jobs)
	return &pipeline.Error{Op: "schedule", Kind: pipeline.Failed, Err: fmt.Errorf("the last run of %s failed", strings.Join(jobs, ", "))}
}

func (s *Scheduler) logNext() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, name := range sortedKeys(s.jobs) {
		e := s.jobs[name]
		s.log().Info("scheduled", "job", name, "schedule", e.job.Schedule, "timezone", e.job.Timezone, "next", s.cron.Entry(e.id).Next.UTC())
	}
}

func (s *Scheduler) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

func now() float64 { return float64(time.Now().UnixNano()) / 1e9 }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

package schedule

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/robfig/cron/v3"

	"github.com/topicrank/topicrank/pipeline"
)

// changes says what a reload did, by job name.
type changes struct{ added, removed, changed []string }

func (c changes) none() bool { return len(c.added)+len(c.removed)+len(c.changed) == 0 }

// apply makes cfg's scheduled jobs the scheduled ones: new jobs get a cron
// entry, removed ones lose theirs (a run in flight finishes), and changed
// ones take effect at their next tick (a new entry when the schedule or
// time zone changed). A job without a schedule is not scheduled.
func (s *Scheduler) apply(ctx context.Context, cfg *pipeline.Config) (changes, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := changes{added: []string{}, removed: []string{}, changed: []string{}} // [] in JSON logs, not null
	want := map[string]pipeline.Job{}
	for _, job := range cfg.Jobs {
		if job.Schedule != "" {
			want[job.Name] = job
		}
	}
	for _, name := range sortedKeys(s.jobs) {
		if _, ok := want[name]; !ok {
			s.cron.Remove(s.jobs[name].id)
			delete(s.jobs, name)
			delete(s.last, name)
			ch.removed = append(ch.removed, name)
		}
	}
	for _, name := range sortedKeys(want) {
		job := want[name]
		old, had := s.jobs[name]
		switch {
		case !had:
			ch.added = append(ch.added, name)
		case old.job.Digest() == job.Digest():
			continue
		default:
			ch.changed = append(ch.changed, name)
			if old.job.Schedule == job.Schedule && old.job.Timezone == job.Timezone {
				s.jobs[name] = entry{old.id, job}
				continue
			}
			s.cron.Remove(old.id)
		}
		spec, err := job.Spec()
		if err != nil { // validated with the config: not expected
			return ch, &pipeline.Error{Op: "schedule", Job: name, Kind: pipeline.Invalid, Err: err}
		}
		id := s.cron.Schedule(spec, cron.FuncJob(func() { s.fire(ctx, name) }))
		s.jobs[name] = entry{id, job}
	}
	s.slots.setLimit(cfg.MaxParallelJobs)
	return ch, nil
}

// fire is a tick of the named job: skipped when its run is still going
// (or waiting for a slot), else the job as configured now is run once a
// slot among max_parallel_jobs is free.
func (s *Scheduler) fire(ctx context.Context, name string) {
	log := s.log().With("job", name)
	s.mu.Lock()
	e, ok := s.jobs[name]
	if ok && s.running[name] {
		s.session["skipped"]++
		s.mu.Unlock()
		log.Warn("tick skipped: the job's previous run is still going")
		if s.Observer != nil {
			s.Observer.TickSkipped(name)
		}
		return
	}
	if !ok || ctx.Err() != nil { // removed by a reload, or stopping
		s.mu.Unlock()
		return
	}
	s.running[name] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.running, name)
		s.mu.Unlock()
	}()

	if !s.slots.acquire(ctx, func() { log.Info("waiting: max_parallel_jobs runs are going") }) {
		return
	}
	defer s.slots.release()
	s.mu.Lock()
	_, still := s.jobs[name]
	s.mu.Unlock()
	if !still { // removed by a reload while it waited: it never started
		return
	}
	if s.Observer != nil {
		s.Observer.RunStarted(name)
	}
	m, err := recovered(log, name, func() (*pipeline.Manifest, error) { return s.Run(ctx, e.job) })
	if pipeline.KindOf(err) == pipeline.Busy {
		// Another process (a manual run, another scheduler) holds the job
		// or its crawl state: this tick is skipped, not failed.
		log.Warn("tick skipped: another run holds the job", "err", err)
		s.count("skipped")
		if s.Observer != nil {
			s.Observer.RunFinished(name, nil, err)
		}
		return
	}
	switch {
	case err == nil:
		s.count("complete")
	case m != nil && m.Status == pipeline.StatusPartial:
		s.count("partial")
	default:
		s.count("failed")
	}
	switch {
	case err != nil && ctx.Err() != nil && m != nil && m.Status == pipeline.StatusPartial:
		// Cut short by the stop and published as partial, as designed:
		// the next run resumes it. Not a failure of the job.
		log.Warn("run interrupted by the stop and published as partial; the next run resumes it", "run_id", m.RunID)
		err = nil
	case err != nil:
		log.Error("run failed", "err", err)
	}
	s.mu.Lock()
	if _, still := s.jobs[name]; still {
		s.last[name] = err
	}
	s.mu.Unlock()
	if s.Observer != nil {
		s.Observer.RunFinished(name, m, err)
	}
}

// recovered calls run, turning a panic into a failed run, logged with its
// stack.
func recovered(log *slog.Logger, job string, run func() (*pipeline.Manifest, error)) (m *pipeline.Manifest, err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("run panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			m, err = nil, &pipeline.Error{Op: "run", Job: job, Kind: pipeline.Failed, Err: fmt.Errorf("panic: %v", p)}
		}
	}()
	return run()
}

// cronLogger passes robfig/cron's messages to slog instead of dropping
// them.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug("cron: "+msg, kv...) }

func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, append(kv, "err", err)...)
}

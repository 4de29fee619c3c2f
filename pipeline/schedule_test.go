package pipeline

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// The cron loop runs a job on its schedule and returns once cancelled,
// after the running job has finished.
func TestScheduleRunsJobsUntilCancelled(t *testing.T) {
	w := wikitest.New(t, 100)
	r := testRunner(t, w.URL())
	r.Now = nil // real run ids: runs are a second apart
	job := testJob("tennis", 20)
	job.Schedule = "@every 1s"
	idle := testJob("idle", 20) // no schedule: run only by 'runner run'
	ran := make(chan *Manifest, 10)
	r.OnScheduledRun = func(_ string, m *Manifest, err error) {
		if err != nil {
			t.Error(err)
		}
		ran <- m
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Schedule(ctx, &Config{Path: "jobs.yaml", Jobs: []Job{job, idle}}) }()

	select {
	case m := <-ran:
		if latest, _ := Latest(r.OutDir, "tennis"); m == nil || latest != m.RunID {
			t.Errorf("scheduled run %+v, LATEST %q", m, latest)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no scheduled run within 30 s")
	}
	cancel()
	select {
	case err := <-done:
		// A tick may have started a run the stop cut short: that is a
		// failure to report, nothing else is.
		if err != nil && (KindOf(err) != Failed || !strings.Contains(err.Error(), "cut short")) {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Schedule did not return after cancellation")
	}
	if latest, _ := Latest(r.OutDir, "idle"); latest != "" {
		t.Error("a job without a schedule was run")
	}
}

func TestScheduleNeedsAScheduledJob(t *testing.T) {
	r := testRunner(t, "http://127.0.0.1:1")
	err := r.Schedule(context.Background(), &Config{Path: "jobs.yaml", Jobs: []Job{testJob("idle", 5)}})
	if err == nil || KindOf(err) != Invalid {
		t.Errorf("err = %v, want an Invalid error", err)
	}
}

// Schedules fire in the job's time zone whatever the host's: 02:00 in New
// York is 07:00 UTC in November, 06:00 UTC in July.
func TestScheduleInJobTimezone(t *testing.T) {
	saved := time.Local
	time.Local = time.FixedZone("elsewhere", 9*3600) // the host's zone must not matter
	defer func() { time.Local = saved }()
	job := testJob("tennis", 5)
	job.Schedule = "0 2 * * *"
	for _, c := range []struct {
		zone  string
		after time.Time
		want  time.Time
	}{
		{"UTC", time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 23, 2, 0, 0, 0, time.UTC)},
		{"America/New_York", time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC)},
		{"America/New_York", time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 1, 6, 0, 0, 0, time.UTC)},
	} {
		job.Timezone = c.zone
		if got := job.NextRun(c.after); !got.Equal(c.want) {
			t.Errorf("%s after %v: next %v, want %v", c.zone, c.after, got.UTC(), c.want)
		}
	}
	job.Schedule = "@every 90m"
	if got := job.NextRun(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); !got.Equal(time.Date(2026, 1, 1, 1, 30, 0, 0, time.UTC)) {
		t.Errorf("@every 90m: next %v", got)
	}
}

// In fake time: a tick that finds the job's run still going is skipped and
// logged, not queued.
func TestScheduleSkipsAndLogsOverlap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs bytes.Buffer
		c := newCron(slog.New(slog.NewTextHandler(&logs, nil)))
		release := make(chan struct{})
		runs := 0
		spec, _ := cron.ParseStandard("@every 1s")
		c.Schedule(spec, cron.FuncJob(func() { runs++; <-release }))
		c.Start()
		time.Sleep(3500 * time.Millisecond) // ticks at 1, 2 and 3 s: the first run holds
		synctest.Wait()
		close(release)
		<-c.Stop().Done()
		if runs != 1 || strings.Count(logs.String(), "tick skipped") != 2 {
			t.Errorf("%d runs, logs:\n%s\nwant 1 run and 2 skips logged", runs, logs.String())
		}
	})
}

// A run that panics is a failed run, logged with its stack.
func TestSchedulePanicIsAFailedRun(t *testing.T) {
	var logs bytes.Buffer
	m, err := recovered(slog.New(slog.NewTextHandler(&logs, nil)), "tennis", func() (*Manifest, error) { panic("boom") })
	if m != nil || KindOf(err) != Failed || !strings.Contains(err.Error(), "panic: boom") ||
		!strings.Contains(logs.String(), "run panicked") || !strings.Contains(logs.String(), "goroutine") {
		t.Errorf("m %v, err %v, logs %q", m, err, logs.String())
	}
}

// An output root that cannot be written stops schedule at start.
func TestScheduleChecksOutputRoot(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	r := testRunner(t, "http://127.0.0.1:1")
	r.OutDir = filepath.Join(file, "outputs")
	job := testJob("tennis", 5)
	job.Schedule = "@daily"
	err := r.Schedule(context.Background(), &Config{Path: "jobs.yaml", Jobs: []Job{job}})
	if err == nil || KindOf(err) != Invalid || !strings.Contains(err.Error(), "output root") {
		t.Errorf("err = %v, want an Invalid error naming the output root", err)
	}
}

// schedule ends in failure when a job's last run failed.
func TestScheduleFailsWhenLastRunFailed(t *testing.T) {
	w := wikitest.New(t, 50)
	r := testRunner(t, w.URL())
	r.Now = nil
	job := testJob("broken", 5)
	job.Schedule, job.Seeds = "@every 1s", []string{"/wiki/Nowhere"}
	ran := make(chan error, 10)
	r.OnScheduledRun = func(_ string, _ *Manifest, err error) { ran <- err }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Schedule(ctx, &Config{Path: "jobs.yaml", Jobs: []Job{job}}) }()
	if err := <-ran; err == nil {
		t.Fatal("the broken job's run succeeded")
	}
	cancel()
	if err := <-done; KindOf(err) != Failed || !strings.Contains(err.Error(), "broken") {
		t.Errorf("Schedule = %v, want a Failed error naming the job", err)
	}
}

// status tells a healthy job from a broken one and from a stale one.
func TestStatus(t *testing.T) {
	w := wikitest.New(t, 50)
	r := testRunner(t, w.URL()) // runs start at 03:00, 04:00, ... on 2026-11-21
	good := testJob("good", 10)
	good.Schedule = "0 * * * *"
	broken := testJob("broken", 10)
	broken.Schedule, broken.Seeds = "0 * * * *", []string{"/wiki/Nowhere"}
	manual := testJob("manual", 10)
	if _, err := r.Run(context.Background(), good); err != nil {
		t.Fatal(err)
	}
	r.Run(context.Background(), broken)
	cfg := &Config{Jobs: []Job{good, broken, manual}}
	at := func(h, m int) []JobStatus {
		return Status(r.OutDir, cfg, time.Date(2026, 11, 21, h, m, 0, 0, time.UTC))
	}

	st := at(4, 30)
	if !st[0].Healthy || st[0].LastComplete == nil || !st[0].Next.Equal(time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC)) {
		t.Errorf("good: %+v", st[0])
	}
	if st[1].Healthy || st[1].Reason != "no complete run" || st[1].LastPartial == nil {
		t.Errorf("broken: %+v", st[1])
	}
	if !st[2].Healthy || !st[2].Next.IsZero() {
		t.Errorf("manual: %+v", st[2])
	}
	if st := at(5, 30); st[0].Healthy { // the 03:00 run is 2 h 30 old: two hourly runs missed
		t.Errorf("a job two intervals behind is healthy: %+v", st[0])
	}
}

package pipeline

import (
	"context"
	"testing"
	"time"

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
		if err != nil {
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

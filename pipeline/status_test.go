package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

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

// status tells a healthy job from a broken one and from a stale one.
func TestStatus(t *testing.T) {
	w := wikitest.New(t, 50)
	r := testRunner(t, w.URL()) // runs start at 03:00, 04:00, ... on 2026-11-21
	good := testJob("good", 10)
	good.Schedule = "0 * * * *"
	broken := testJob("broken", 10)
	broken.Schedule, broken.Seeds = "0 * * * *", []string{"/wiki/Nowhere"}
	manual := testJob("manual", 10)
	fresh := testJob("fresh", 10)
	fresh.Schedule = "0 * * * *"
	if _, err := r.Run(context.Background(), good); err != nil {
		t.Fatal(err)
	}
	r.Run(context.Background(), broken)
	cfg := &Config{Jobs: []Job{good, broken, manual, fresh}}
	at := func(h, m int) []JobStatus {
		st, err := Status(r.OutDir, cfg, time.Date(2026, 11, 21, h, m, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}

	st := at(4, 30)
	if !st[0].Healthy || st[0].LastComplete == nil || !st[0].Next.Equal(time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC)) {
		t.Errorf("good: %+v", st[0])
	}
	if st[1].Healthy || st[1].Reason != "no complete run, only partial ones" || st[1].LastPartial == nil {
		t.Errorf("broken: %+v", st[1])
	}
	if !st[2].Healthy || !st[2].Next.IsZero() {
		t.Errorf("manual: %+v", st[2])
	}
	if !st[3].Healthy || !st[3].NeverRun {
		t.Errorf("a job that never ran: %+v, want healthy and never run", st[3])
	}
	if _, err := Status(filepath.Join(t.TempDir(), "nowhere"), cfg, time.Now()); err == nil || KindOf(err) != Invalid {
		t.Errorf("a missing output root: %v, want an Invalid error", err)
	}
	if st := at(5, 30); st[0].Healthy { // the 03:00 run is 2 h 30 old: two hourly runs missed
		t.Errorf("a job two intervals behind is healthy: %+v", st[0])
	}
	// A clock stepped back after a run: the run is dated in the future,
	// which is no health (its age would be negative for months).
	if st := at(1, 0); st[0].Healthy || !strings.HasPrefix(st[0].Reason, "clock ahead") {
		t.Errorf("a run dated two hours ahead: %+v", st[0])
	}
	// Every run moved aside: not "never run", but named, with what to do.
	dir := filepath.Join(r.OutDir, "good")
	latest, _ := os.ReadFile(filepath.Join(dir, "LATEST"))
	id := strings.TrimSpace(string(latest))
	if _, err := moveDamaged(dir, id); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "LATEST"))
	st = at(4, 30)
	if st[0].Healthy || st[0].NeverRun || !strings.Contains(st[0].Reason, id) || !strings.Contains(st[0].Reason, "damaged") {
		t.Errorf("every run moved aside: %+v", st[0])
	}
}

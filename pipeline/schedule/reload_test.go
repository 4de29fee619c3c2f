package schedule

import (
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// SIGHUP re-reads jobs.yaml: an added job is scheduled, a removed one
// stops after its run in flight, a changed one runs on its new schedule;
// an invalid edit is logged with file:line and the jobs stay.
func TestReloadOnSIGHUP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec, logs := newRecorder(), &syncBuffer{}
		rec.block, rec.only = make(chan struct{}), "b"
		path := filepath.Join(t.TempDir(), "jobs.yaml")
		cfg := jobsFile(t, path, "", "a", "@every 1s", "b", "@every 1s")
		hup := make(chan os.Signal, 1)
		s := newScheduler(t, rec, logs)
		s.Reload = hup
		stop := start(s, cfg)
		time.Sleep(1500 * time.Millisecond) // a ran once, b's run holds
		synctest.Wait()

		jobsFile(t, path, "", "a", "@every 2s", "c", "@every 1s")
		hup <- syscall.SIGHUP
		synctest.Wait()
		if !strings.Contains(logs.String(), "jobs.yaml reloaded") || !strings.Contains(logs.String(), "added=[c] removed=[b] changed=[a]") {
			t.Fatalf("reload not logged with its changes:\n%s", logs)
		}
		close(rec.block) // b's run in flight finishes
		time.Sleep(4 * time.Second)
		synctest.Wait()
		if a, b, c := rec.count(rec.ended, "a"), rec.count(rec.runs, "b"), rec.count(rec.ended, "c"); a != 3 || b != 1 || c != 4 || rec.count(rec.ended, "b") != 1 {
			t.Errorf("after the reload: a %d (want 1 + 2 on @every 2s), b %d (want 1, finished), c %d (want 4)", a, b, c)
		}

		os.WriteFile(path, []byte(header+"jobs:\n  - {name: a, schedule: \"@every 1s\", seeds: [/wiki/X], max_pages: 0}\n"), 0o644)
		hup <- syscall.SIGHUP
		synctest.Wait()
		if !strings.Contains(logs.String(), "jobs.yaml not reloaded") || !strings.Contains(logs.String(), "jobs.yaml:4: job \\\"a\\\": max_pages") {
			t.Errorf("invalid edit not logged with file:line:\n%s", logs)
		}
		before := rec.count(rec.ended, "c")
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if rec.count(rec.ended, "c") != before+2 {
			t.Errorf("after an invalid edit, c ran %d times in 2 s, want 2: the old jobs must stay", rec.count(rec.ended, "c")-before)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if len(rec.reloads) != 3 || !rec.reloads[0] || !rec.reloads[1] || rec.reloads[2] {
			t.Errorf("reloads observed %v, want [true true false]", rec.reloads)
		}
	})
}

// A real SIGHUP to the process reaches the scheduler and does not stop it.
func TestSIGHUPDoesNotStop(t *testing.T) {
	rec, logs := newRecorder(), &syncBuffer{}
	path := filepath.Join(t.TempDir(), "jobs.yaml")
	cfg := jobsFile(t, path, "", "a", "@daily")
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	reloaded := make(chan bool, 4)
	obs := &notifying{recorder: rec, reloaded: reloaded}
	s := newScheduler(t, rec, logs)
	s.Reload, s.Observer = hup, obs
	stop := start(s, cfg)
	<-reloaded // the initial load
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	if ok := waitFor(t, reloaded); !ok {
		t.Errorf("SIGHUP reload failed:\n%s", logs)
	}
	if err := s.Healthy(); err != nil {
		t.Errorf("after SIGHUP: %v", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// An edit of the file is picked up without a signal, also when the file
// is replaced by a rename as editors and Kubernetes do.
func TestReloadOnFileChange(t *testing.T) {
	rec, logs := newRecorder(), &syncBuffer{}
	dir := t.TempDir()
	path := filepath.Join(dir, "jobs.yaml")
	cfg := jobsFile(t, path, "", "a", "@daily")
	reloaded := make(chan bool, 4)
	s := newScheduler(t, rec, logs)
	s.Watch, s.Observer = true, &notifying{recorder: rec, reloaded: reloaded}
	stop := start(s, cfg)
	<-reloaded

	tmp := filepath.Join(dir, "jobs.yaml.new")
	jobsFile(t, tmp, "", "a", "@daily", "b", "@daily")
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if ok := waitFor(t, reloaded); !ok || !strings.Contains(logs.String(), "added=[b]") {
		t.Errorf("rename over jobs.yaml: reload ok=%v\n%s", ok, logs)
	}
	os.WriteFile(path, []byte("jobs: [\n"), 0o644)
	if ok := waitFor(t, reloaded); ok || !strings.Contains(logs.String(), "jobs.yaml not reloaded") {
		t.Errorf("a broken file was applied (ok=%v)\n%s", ok, logs)
	}
	// Other files in the directory (a log, say) are not jobs.yaml: writing
	// them reloads nothing, and the broken file is not reported again. A
	// fixed file is then picked up: the only reload after the broken one.
	for i := range 5 {
		os.WriteFile(filepath.Join(dir, "runner.log"), []byte(strings.Repeat("x", i)), 0o644)
	}
	jobsFile(t, path, "", "a", "@daily", "b", "@daily", "c", "@daily")
	if ok := waitFor(t, reloaded); !ok || !strings.Contains(logs.String(), "added=[c]") {
		t.Errorf("after other files changed and the file was fixed: ok=%v\n%s", ok, logs)
	}
	// Broken again, then restored to exactly what was applied: the
	// restore is a reload, logged, though no job changed.
	os.WriteFile(path, []byte("jobs: [\n"), 0o644)
	if ok := waitFor(t, reloaded); ok {
		t.Error("a broken file was applied")
	}
	before := strings.Count(logs.String(), "jobs.yaml reloaded")
	jobsFile(t, path, "", "a", "@daily", "b", "@daily", "c", "@daily")
	if ok := waitFor(t, reloaded); !ok || strings.Count(logs.String(), "jobs.yaml reloaded") != before+1 {
		t.Errorf("restoring the file after a broken edit: ok=%v, not logged as reloaded\n%s", ok, logs)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.jobs) != 3 || len(rec.reloads) != 6 {
		t.Errorf("jobs %v after %d reloads, want a, b and c after 6 (start, rename, broken, fixed, broken, restored)", sortedKeys(s.jobs), len(rec.reloads))
	}
}

// notifying passes each reload's outcome to a channel.
type notifying struct {
	*recorder
	reloaded chan bool
}

func (n *notifying) Reloaded(ok bool, at float64) { n.recorder.Reloaded(ok, at); n.reloaded <- ok }

// waitFor returns the next reload outcome; a minute without one fails the
// test (a bound on failure, not a synchronisation).
func waitFor(t *testing.T, c chan bool) bool {
	t.Helper()
	select {
	case ok := <-c:
		return ok
	case <-time.After(time.Minute):
		t.Fatalf("no reload within a minute")
		return false
	}
}

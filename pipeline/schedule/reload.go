package schedule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/topicrank/topicrank/pipeline"
)

// settle is how long the file must stay quiet after a change before it is
// re-read: an editor's save or a ConfigMap update is a burst of events.
const settle = 500 * time.Millisecond

// loop waits for the stop, reloading jobs.yaml on SIGHUP and on events.
func (s *Scheduler) loop(ctx context.Context, events <-chan fsnotify.Event) {
	var quiet <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.Reload:
			s.reload(ctx, "SIGHUP", true)
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if ev.Op != fsnotify.Chmod && s.concerns(ev.Name) {
				quiet = time.After(settle)
			}
		case <-quiet:
			quiet = nil
			s.reload(ctx, "file changed", false)
		}
	}
}

// startWatch watches jobs.yaml when s.Watch is set; a watch that cannot
// be set up leaves SIGHUP as the way to reload. The caller closes w.
func (s *Scheduler) startWatch() (w *fsnotify.Watcher, events <-chan fsnotify.Event) {
	if !s.Watch {
		return nil, nil
	}
	w, err := watch(s.path)
	if err != nil {
		s.log().Warn("not watching jobs.yaml; reload it with SIGHUP", "file", s.path, "err", err)
		return nil, nil
	}
	go func() {
		for err := range w.Errors {
			s.log().Warn("watching jobs.yaml", "err", err)
		}
	}()
	return w, w.Events
}

// concerns reports whether an event on name can change jobs.yaml: the
// file itself, or Kubernetes's ..data link, which a ConfigMap update
// swaps. Other files in the directory (a log, the outputs) do not.
func (s *Scheduler) concerns(name string) bool {
	base := filepath.Base(name)
	return base == filepath.Base(s.path) || strings.HasPrefix(base, "..data")
}

// watch watches the directory of path: editors and Kubernetes replace the
// file (rename, symlink swap) rather than write it, which a watch on the
// file itself would lose.
func watch(path string) (*fsnotify.Watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// reload re-reads jobs.yaml and applies it; an invalid file is logged
// (with file:line) and the jobs stay as they were. A file event that left
// the file's bytes as they were is not a reload (the directory's other
// files change too); SIGHUP always is.
func (s *Scheduler) reload(ctx context.Context, why string, always bool) {
	log := s.log().With("file", s.path, "trigger", why)
	b, readErr := os.ReadFile(s.path) // read once: what is parsed is what is digested
	d := digest(b, readErr)
	s.mu.Lock()
	// Applied, or already reported; a file restored to what was applied
	// after a rejected edit is news: it is reloaded (and logged) again.
	seen := d == s.digest && s.rejected == "" || d == s.rejected
	s.mu.Unlock()
	if seen && !always {
		return
	}
	var cfg *pipeline.Config
	var err error = &pipeline.Error{Op: "config", Kind: pipeline.Invalid, Err: readErr}
	if readErr == nil {
		cfg, err = pipeline.ParseConfig(s.path, b)
	}
	if err == nil {
		var ch changes
		ch, err = s.apply(ctx, cfg)
		if err == nil {
			s.mu.Lock()
			s.digest, s.rejected = d, ""
			s.mu.Unlock()
			log.Info("jobs.yaml reloaded", "added", ch.added, "removed", ch.removed, "changed", ch.changed,
				"max_parallel_jobs", cfg.MaxParallelJobs, "unchanged", ch.none())
			if s.Observer != nil {
				s.Observer.Reloaded(true, now())
			}
			return
		}
	}
	s.mu.Lock()
	s.rejected = d
	s.mu.Unlock()
	log.Error("jobs.yaml not reloaded: the jobs stay as they were; fix the file", "err", err)
	if s.Observer != nil {
		s.Observer.Reloaded(false, 0)
	}
}

// fileDigest is the sha256 of the file's bytes ("" if unreadable).
func fileDigest(path string) string { return digest(os.ReadFile(path)) }

// digest is the sha256 of b ("" if it could not be read).
func digest(b []byte, err error) string {
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

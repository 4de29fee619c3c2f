package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/topicrank/topicrank/internal/flock"
)

// Politeness across processes. Inside one process every job's requests
// to a host share one limiter (crawl.Politeness); processes share
// nothing, so runs of jobs on one host in separate processes that share
// a state volume (one container or CronJob per job, a manual run beside
// schedule) would each send max_rps. A host lease makes them take turns:
// a lock file per host beside the crawl states (<root>/.hosts/<host>.lock,
// root being state_dir or the output root), held while a run crawls that
// host. Within a process the lease is taken once and shared by its jobs,
// whose requests the shared limiter already spaces.
type hostLeases struct {
	mu   sync.Mutex
	held map[string]*lease // by lock file path
}

// leases are this process's host leases.
var leases hostLeases

type lease struct {
	f     *os.File
	users int
}

// leasePoll is how often a run waiting for a host lease tries again.
const leasePoll = 250 * time.Millisecond

// hostLockPath is the lease file of the host job crawls.
func (r *Runner) hostLockPath(job Job) (string, error) {
	base := job.BaseURL
	if r.BaseURL != "" {
		base = r.BaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("base URL %q has no host", base)
	}
	root := r.OutDir
	if job.StateDir != "" {
		root = job.StateDir
	}
	host := strings.NewReplacer(":", "_", "/", "_").Replace(strings.ToLower(u.Host))
	return filepath.Join(root, ".hosts", host+".lock"), nil
}

// leaseHost takes the lease of job's host, waiting (with a log line
// naming who holds it) while another process does, until ctx ends. The
// returned function gives it back.
func (r *Runner) leaseHost(ctx context.Context, job Job, log *slog.Logger) (func(), error) {
	path, err := r.hostLockPath(job)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("host lease: %w", err)
	}
	leases.mu.Lock()
	if leases.held == nil {
		leases.held = map[string]*lease{}
	}
	if l, ok := leases.held[path]; ok {
		l.users++
		leases.mu.Unlock()
		return releaser(path), nil
	}
	leases.mu.Unlock()
	waiting := false
	for {
		f, err := flock.TryLock(path)
		if err == nil {
			// The last holder's requests count against the host's
			// window of a second: start after it has passed.
			if last, ok := releasedAt(f); ok { // by another process: ours share one limiter
				select {
				case <-ctx.Done():
					f.Close()
					return nil, ctx.Err()
				case <-time.After(time.Until(last.Add(time.Second))):
				}
			}
			f.Truncate(0)
			f.WriteAt([]byte(fmt.Sprintf("job %s, pid %d, since %s\n", job.Name, os.Getpid(), time.Now().UTC().Format(time.RFC3339))), 0)
			f.Sync()
			leases.mu.Lock()
			if l, ok := leases.held[path]; ok { // another job of this process took it meanwhile
				l.users++
				f.Close()
			} else {
				leases.held[path] = &lease{f: f, users: 1}
			}
			leases.mu.Unlock()
			if waiting {
				log.Info("host lease taken", "lease", path)
			}
			return releaser(path), nil
		}
		if !errors.Is(err, flock.ErrHeld) {
			return nil, fmt.Errorf("host lease %s: %w", path, err)
		}
		leases.mu.Lock()
		if l, ok := leases.held[path]; ok { // taken by a job of this process
			l.users++
			leases.mu.Unlock()
			return releaser(path), nil
		}
		leases.mu.Unlock()
		if !waiting {
			holder, _ := os.ReadFile(path)
			log.Info("waiting for the host lease: another process crawls this host (its requests and ours share the host's max_rps)",
				"lease", path, "held_by", strings.TrimSpace(string(holder)))
			waiting = true
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(leasePoll):
		}
	}
}

// releasedPrefix begins a lease file no one holds: when it was given back.
const releasedPrefix = "released at "

// releasedAt reads when another process last gave back the lease in f.
func releasedAt(f *os.File) (time.Time, bool) {
	b := make([]byte, 128)
	n, _ := f.ReadAt(b, 0)
	s, ok := strings.CutPrefix(strings.TrimSpace(string(b[:n])), releasedPrefix)
	if !ok {
		return time.Time{}, false
	}
	at, by, _ := strings.Cut(s, " by pid ")
	if by == strconv.Itoa(os.Getpid()) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	return t, err == nil
}

// releaser gives back one use of the lease at path; the last closes it.
func releaser(path string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			leases.mu.Lock()
			defer leases.mu.Unlock()
			if l := leases.held[path]; l != nil {
				if l.users--; l.users == 0 {
					l.f.Truncate(0)
					l.f.WriteAt([]byte(fmt.Sprintf("%s%s by pid %d\n", releasedPrefix, time.Now().UTC().Format(time.RFC3339Nano), os.Getpid())), 0)
					l.f.Sync()
					l.f.Close()
					delete(leases.held, path)
				}
			}
		})
	}
}

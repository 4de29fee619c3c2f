package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"

	"github.com/topicrank/topicrank/internal/access"
	"github.com/topicrank/topicrank/internal/flock"
)

// The output tree of one job:
//
//	<root>/<job>/<run_id>/           a complete run
//	<root>/<job>/partial/<run_id>/   a run cut short
//	<root>/<job>/.tmp/<run_id>/      a run being written (removed if stale)
//	<root>/<job>/LATEST              the newest complete run's id
//	<root>/<job>/runs.parquet        one row per run, complete or partial
//	<root>/<job>/.lock               held while a run of the job is under way
//	<root>/<job>/crawl-state.sqlite  the crawl state across runs (package store)
//
// The documented globs (<root>/*/*/pages.parquet and the like) see complete
// runs only: partial and temporary runs live one level deeper.
const (
	latestFile = "LATEST"
	partialDir = "partial"
	tmpDir     = ".tmp"
	oldTmp     = ".tmp-" // the layout before .tmp/: <job>/.tmp-<run_id>
	lockFile   = ".lock"
	stateFile  = "crawl-state.sqlite"
	runsFile   = "runs.parquet"
)

// runIDPattern is what a run directory is named: the run's UTC start.
var runIDPattern = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z$`)

// jobDir returns root/job, refusing names that would leave root.
func jobDir(root, job string) (string, error) {
	if !jobName.MatchString(job) {
		return "", fmt.Errorf("job name %q is not a safe path segment", job)
	}
	return filepath.Join(root, job), nil
}

// lockJob takes an exclusive lock on the job's directory so that two
// processes never run the same job at once. The lock dies with the process.
func lockJob(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, lockFile)
	f, err := flock.TryLock(path)
	if errors.Is(err, flock.ErrHeld) {
		return nil, fmt.Errorf("another run of this job holds %s", path)
	}
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

// busy reports whether a run of the job in dir holds its lock now: a
// reader that finds a publication under way (a run folder newer than
// LATEST) then says so rather than calling it damaged. It creates
// nothing.
func busy(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// removeStale deletes temporary run directories left by crashed runs. The
// caller holds the job lock, so none of them is being written.
func removeStale(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), oldTmp) {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return os.RemoveAll(filepath.Join(dir, tmpDir))
}

// runDir returns where a run of the given status is published.
// RunDir is where run m of its job is published under the output root:
// <root>/<job>/<run_id>, or <root>/<job>/partial/<run_id> for a partial run.
func RunDir(root string, m *Manifest) string {
	return runDir(filepath.Join(root, m.Job), m.RunID, m.Status)
}

func runDir(dir, runID, status string) string {
	if status == StatusComplete {
		return filepath.Join(dir, runID)
	}
	return filepath.Join(dir, partialDir, runID)
}

// promote renames a finished temporary run into place and syncs the
// directory it lands in so the rename survives a crash.
func promote(tmp, final string) error {
	if err := syncDir(tmp); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	return syncDir(filepath.Dir(final))
}

// setLatest atomically replaces LATEST with runID.
func setLatest(dir, runID string) error {
	tmp := filepath.Join(dir, latestFile+".tmp")
	if err := writeSynced(tmp, []byte(runID+"\n")); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, latestFile)); err != nil {
		return err
	}
	return syncDir(dir)
}

// Latest returns the id of the job's newest complete run ("" if none),
// as its catalogue says; an error when LATEST is damaged.
func Latest(root, job string) (string, error) {
	c, err := ReadCatalog(root, job)
	if err != nil {
		return "", err
	}
	return c.Latest, c.Damaged
}

// prune keeps the newest keep complete runs and the newest keep partial
// runs of the job in dir (0 keeps all). The run LATEST names is the newest
// complete run of the catalogue, so it is never removed.
func prune(dir string, keep int) error {
	if keep <= 0 {
		return nil
	}
	c, err := readCatalog(dir)
	if err != nil {
		return err
	}
	for _, runs := range [][]string{c.Complete, c.Partial} {
		for i := 0; i < len(runs)-keep; i++ {
			if runs[i] == c.Latest {
				continue
			}
			if err := os.RemoveAll(c.Find(runs[i])); err != nil {
				return err
			}
		}
	}
	return nil
}

// publishedRuns lists the run directories directly in dir (complete runs,
// in a job's directory), oldest first: run ids sort by time.
func publishedRuns(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var runs []string
	for _, e := range entries {
		if e.IsDir() && runIDPattern.MatchString(e.Name()) {
			runs = append(runs, e.Name())
		}
	}
	sort.Strings(runs)
	return runs, nil
}

func writeSynced(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// FindRun returns the directory and manifest of a published run of job:
// runID, complete or partial, or the newest complete run when runID is "".
// Errors name what is missing or damaged, and the runs there are.
func FindRun(root, job, runID string) (string, *Manifest, error) {
	c, err := ReadCatalog(root, job)
	if err != nil {
		return "", nil, err
	}
	if runID == "" {
		switch {
		case c.Damaged != nil:
			return "", nil, fmt.Errorf("%w; 'runner verify -job %s -repair' rebuilds it", c.Damaged, job)
		case c.Latest == "":
			return "", nil, fmt.Errorf("job %q has no complete run under %s: run it first ('runner run -job %s')", job, root, job)
		}
		runID = c.Latest
	}
	if !runIDPattern.MatchString(runID) {
		return "", nil, fmt.Errorf("-run %q is not a run id (like 20261121T020000Z)%s", runID, c.listing())
	}
	dir := c.Find(runID)
	if dir == "" {
		return "", nil, fmt.Errorf("job %q has no run %s%s", job, runID, c.listing())
	}
	m, err := readManifest(dir)
	if err != nil {
		return "", nil, fmt.Errorf("run %s of job %q is damaged: %s: %w ('runner verify -job %s' checks every run)",
			runID, job, filepath.Join(dir, "manifest.json"), err, job)
	}
	return dir, m, nil
}

// listing is ": runs are …" naming the newest runs of c, for errors.
func (c *Catalog) listing() string {
	runs := append(append([]string(nil), c.Complete...), c.Partial...)
	sort.Strings(runs)
	if len(runs) == 0 {
		return " (it has none)"
	}
	if len(runs) > 10 {
		runs = append([]string{"…"}, runs[len(runs)-10:]...)
	}
	return "; its runs: " + strings.Join(runs, ", ")
}

// Writable checks that files can be created under dir, creating it. A
// folder the process may not write is an Invalid error that names it and
// the process's uid and gid: in a container, the usual cause is a host
// folder mounted as a volume that the image's user does not own.
func Writable(dir, what string) error {
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(dir, ".writable-*"); err == nil {
			f.Close()
			err = os.Remove(f.Name())
		}
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrPermission):
		why := access.Folder(dir) // the owner and mode, and the chown
		if why == nil {
			why = errors.New("make it writable by that user")
		}
		err = fmt.Errorf("%s %s is not writable by uid %d (gid %d): %w: %v "+
			"(a container's volume: chown the host folder to that uid, or run the container with --user)",
			what, dir, os.Getuid(), os.Getgid(), err, why)
	default:
		err = fmt.Errorf("%s %s: %w", what, dir, err)
	}
	return &Error{Kind: Invalid, Err: err}
}

// IsJobName says whether name is a job name (a safe path segment).
func IsJobName(name string) bool { return jobName.MatchString(name) }

// StateFile is the crawl state's file name.
const StateFile = stateFile

// StatePath is where job's crawl state lives under the output root.
func StatePath(root string, job Job) string { return statePath(filepath.Join(root, job.Name), job) }

package pipeline

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Catalog is the one home of a job's runs: every reader (status, report,
// search, evaluate, the next run's changes) and every writer (publish,
// keep, verify) sees the same runs in the same order through it.
//
// LATEST is the truth of what is published: the complete runs are the
// whole run folders up to the one LATEST names. A complete folder newer
// than LATEST is a publication cut short (between the folder's rename and
// LATEST's); readers do not see it, and the next run of the job finishes
// it, or moves it aside when it is not whole.
//
// Runs are ordered by publication: a run's id is its UTC start, but never
// less than a second after the newest run the job has (nextRunID), so a
// clock stepped back cannot put a new run before an old one.
type Catalog struct {
	Dir      string
	Latest   string   // the newest complete run ("" if none)
	Complete []string // complete runs up to Latest, oldest first
	Partial  []string // partial runs, oldest first
	Pending  []string // complete folders newer than LATEST, oldest first
	// Damaged says why LATEST cannot be trusted: unreadable, not a run
	// id, or naming no run folder (nil when sound).
	Damaged error
}

const damagedDir = "damaged" // <job>/damaged/<run_id>: runs moved aside, never deleted

// ReadCatalog reads the catalogue of job under root.
func ReadCatalog(root, job string) (*Catalog, error) {
	dir, err := jobDir(root, job)
	if err != nil {
		return nil, err
	}
	return readCatalog(dir)
}

func readCatalog(dir string) (*Catalog, error) {
	c := &Catalog{Dir: dir}
	folders, err := publishedRuns(dir)
	if err != nil {
		return nil, err
	}
	if c.Partial, err = publishedRuns(filepath.Join(dir, partialDir)); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, latestFile))
	latest := strings.TrimSpace(string(b))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		c.Damaged = fmt.Errorf("%s: %w", filepath.Join(dir, latestFile), err)
	case !runIDPattern.MatchString(latest):
		c.Damaged = fmt.Errorf("%s does not name a run (it holds %q)", filepath.Join(dir, latestFile), truncate(latest, 40))
	case !slices.Contains(folders, latest):
		c.Damaged = fmt.Errorf("%s names run %s, which has no folder", filepath.Join(dir, latestFile), latest)
	default:
		c.Latest = latest
	}
	for _, id := range folders {
		if c.Latest != "" && id <= c.Latest {
			c.Complete = append(c.Complete, id)
		} else {
			c.Pending = append(c.Pending, id)
		}
	}
	return c, nil
}

// newest returns the newest run id the job has in any state (damaged
// runs moved aside included), "" if none.
func (c *Catalog) newest() string {
	var ids []string
	ids = append(ids, c.Complete...)
	ids = append(ids, c.Partial...)
	ids = append(ids, c.Pending...)
	if d, err := publishedRuns(filepath.Join(c.Dir, damagedDir)); err == nil {
		ids = append(ids, d...)
	}
	if len(ids) == 0 {
		return ""
	}
	return slices.Max(ids)
}

// nextRunID is the id of a run started at start: its UTC start, or one
// second after the newest run of the job when the clock is behind it.
func (c *Catalog) nextRunID(start time.Time) (id string, behind string) {
	id = start.UTC().Format(runIDFormat)
	newest := c.newest()
	if newest == "" || id > newest {
		return id, ""
	}
	t, err := time.Parse(runIDFormat, newest)
	if err != nil { // runIDPattern admits no such name
		return id, ""
	}
	return t.Add(time.Second).Format(runIDFormat), newest
}

const runIDFormat = "20060102T150405Z"

// Find returns the folder of run id, complete or partial ("" if the
// catalogue has no such run).
func (c *Catalog) Find(id string) string {
	switch {
	case slices.Contains(c.Complete, id):
		return filepath.Join(c.Dir, id)
	case slices.Contains(c.Partial, id):
		return filepath.Join(c.Dir, partialDir, id)
	}
	return ""
}

// manifests returns the manifests of the catalogue's complete and partial
// runs, oldest complete first; a run whose manifest does not read (not
// one this program wrote whole) is left out.
func (c *Catalog) manifests() []*Manifest {
	var out []*Manifest
	for _, id := range slices.Concat(c.Complete, c.Partial) {
		if m, err := readManifest(c.Find(id)); err == nil {
			out = append(out, m)
		}
	}
	return out
}

// repair brings the catalogue of the job in dir back to one truth before
// a run (the caller holds the job's lock): debris of an interrupted
// publication is removed, a whole run newer than LATEST becomes LATEST
// (its publication is finished), one that is not whole is moved aside, a
// damaged LATEST is rebuilt from the newest whole complete run, and
// runs.parquet is rewritten from the run folders so it lists exactly the
// runs on disk.
func repair(dir, job string, log *slog.Logger) (*Catalog, error) {
	for _, debris := range []string{latestFile + ".tmp", "." + runsFile + ".tmp"} {
		os.Remove(filepath.Join(dir, debris))
	}
	c, err := readCatalog(dir)
	if err != nil {
		return nil, err
	}
	if len(c.Pending) == 0 && c.Damaged == nil {
		return c, writeRunsIfBehind(dir, job, c)
	}
	if c.Damaged != nil {
		// Without a LATEST to trust, every folder is pending (readCatalog).
		named, _ := os.ReadFile(filepath.Join(dir, latestFile))
		if id := strings.TrimSpace(string(named)); runIDPattern.MatchString(id) && exists(filepath.Join(dir, damagedDir, id)) {
			log.Info("LATEST named a run moved aside as damaged: pointing it at the newest whole complete run", "moved", filepath.Join(dir, damagedDir, id))
		} else {
			log.Warn("LATEST is damaged: rebuilding it from the newest whole complete run", "err", c.Damaged)
		}
	}
	latest := ""
	for i := len(c.Pending) - 1; i >= 0 && latest == ""; i-- { // the newest whole one
		id := c.Pending[i]
		if _, err := wholeRun(filepath.Join(dir, id)); err != nil {
			aside, merr := moveDamaged(dir, id)
			log.Error("a run newer than LATEST is not whole: moved aside", "run_id", id, "err", err, "to", aside, "move_err", merr)
			continue
		}
		latest = id
	}
	switch {
	case latest != "":
		if c.Damaged == nil {
			log.Warn("finishing a publication cut short: LATEST now names the run", "run_id", latest, "was", c.Latest)
		}
		if err := setLatest(dir, latest); err != nil {
			return nil, err
		}
	case c.Damaged != nil: // no whole run: no LATEST
		if err := os.Remove(filepath.Join(dir, latestFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	if c, err = readCatalog(dir); err != nil {
		return nil, err
	}
	return c, writeRuns(dir, job)
}

// moveDamaged moves run id of the job in dir (complete or partial) to
// damaged/<id>, out of the documented globs; it never deletes.
func moveDamaged(dir, id string) (string, error) {
	from := filepath.Join(dir, id)
	if !exists(from) {
		from = filepath.Join(dir, partialDir, id)
	}
	to := filepath.Join(dir, damagedDir, id)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return "", err
	}
	if exists(to) {
		to += time.Now().UTC().Format(".20060102T150405.000")
	}
	return to, os.Rename(from, to)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

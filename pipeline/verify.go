package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"github.com/topicrank/topicrank/stages/publish"
)

// Finding is one thing runner verify found wrong.
type Finding struct {
	Run      string // "" when not about one run
	Path     string // the damaged file or folder
	Problem  string
	Repaired string // what -repair did ("" if nothing)
	// Note says it is no damage, only worth knowing (an older crawl state
	// schema, which the next run migrates): never a reason for -repair.
	Note bool
}

// Verify checks every published run of job under root against its
// manifest (every file there, with its size and sha256), LATEST,
// runs.parquet and the crawl state at statePath. With repair, it takes
// the job's lock, moves damaged runs and a damaged state aside (never
// deleting), and rebuilds LATEST, runs.parquet and feed.atom from the
// runs left.
func Verify(root, job, statePath string, mend bool, log *slog.Logger) ([]Finding, error) {
	dir, err := jobDir(root, job)
	if err != nil {
		return nil, &Error{Op: "verify", Job: job, Kind: Invalid, Err: err}
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, &Error{Op: "verify", Job: job, Kind: Invalid, Err: fmt.Errorf("nothing published under %s", dir)}
	}
	if mend {
		unlock, err := lockJob(dir)
		if err != nil {
			return nil, &Error{Op: "verify", Job: job, Kind: Busy, Err: err}
		}
		defer unlock()
		return verifyOnce(dir, job, statePath, mend, log)
	}
	// A run of the job may publish while verify reads (it holds the job's
	// lock for the whole run, hours, so verify does not wait for it): a
	// verify whose catalogue changed under it read a publication halfway
	// and is read again, the few times one publication takes.
	var out []Finding
	untilStill(dir, func() bool {
		out, err = verifyOnce(dir, job, statePath, mend, log)
		return false
	})
	return out, err
}

// verifyOnce is Verify of a catalogue as it stands.
func verifyOnce(dir, job, statePath string, mend bool, log *slog.Logger) ([]Finding, error) {
	c, err := readCatalog(dir)
	if err != nil {
		return nil, &Error{Op: "verify", Job: job, Kind: Failed, Err: err}
	}
	out := append(verifyRuns(dir, c), verifyFeed(dir, c)...)
	for _, id := range slices.Concat(c.Complete, c.Pending, c.Partial) {
		runDir := c.Find(id)
		if runDir == "" {
			runDir = filepath.Join(dir, id)
		}
		out = append(out, unlisted(dir, id, runDir, mend)...)
		if err := checkRun(runDir); err != nil {
			f := Finding{Run: id, Path: runDir, Problem: err.Error()}
			if mend {
				to, err := moveDamaged(dir, id)
				if err != nil {
					return out, &Error{Op: "verify", Job: job, Kind: Failed, Err: err}
				}
				f.Repaired = "moved to " + to
			}
			out = append(out, f)
		}
	}
	if c.Damaged != nil {
		out = append(out, Finding{Path: filepath.Join(dir, latestFile), Problem: c.Damaged.Error()})
	} else if b, err := os.ReadFile(filepath.Join(dir, latestFile)); err == nil && string(b) != c.Latest+"\n" {
		out = append(out, Finding{Path: filepath.Join(dir, latestFile),
			Problem: fmt.Sprintf("holds %q, not the run id and a newline as written (readers take it as %s)", truncate(string(b), 40), c.Latest)})
	}
	publishing := !mend && busy(dir)
	for _, id := range c.Pending {
		if publishing {
			out = append(out, Finding{Run: id, Path: filepath.Join(dir, id), Note: true,
				Problem: "publishing: a run of the job holds its lock and is making this run LATEST"})
			continue
		}
		out = append(out, Finding{Run: id, Path: filepath.Join(dir, latestFile),
			Problem: fmt.Sprintf("run %s is newer than the run LATEST names (%q): a publication cut short", id, c.Latest)})
	}
	state, err := verifyState(statePath, mend)
	if err != nil {
		return out, &Error{Op: "verify", Job: job, Kind: Failed, Err: err}
	}
	out = append(out, state...)
	out = append(out, strayFolders(dir, mend)...)
	if mend && damage(out) {
		if _, err := repair(dir, job, log); err != nil {
			return out, &Error{Op: "verify", Job: job, Kind: Failed, Err: err}
		}
		if err := writeRuns(dir, job); err != nil {
			return out, &Error{Op: "verify", Job: job, Kind: Failed, Err: err}
		}
		if err := rewriteFeed(dir); err != nil {
			return out, &Error{Op: "verify", Job: job, Kind: Failed, Err: err}
		}
		for i := range out {
			if out[i].Repaired == "" && !out[i].Note {
				out[i].Repaired = "LATEST, runs.parquet and feed.atom rebuilt from the runs left"
			}
		}
	}
	return out, nil
}

// checkRun checks a run folder against its manifest: every file listed
// is there with its size and sha256.
func checkRun(runDir string) error {
	m, err := wholeRun(runDir)
	if err != nil {
		return err
	}
	path := filepath.Join(runDir, "manifest.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := checkSeal(b); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, f := range m.Files {
		path := filepath.Join(runDir, filepath.FromSlash(f.Path))
		if f.SHA256 == "" {
			continue
		}
		sum, err := fileSHA256(path)
		if err != nil {
			return err
		}
		if sum != f.SHA256 {
			return fmt.Errorf("%s: sha256 %s, the manifest says %s", path, sum, f.SHA256)
		}
	}
	return nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// damage reports whether findings hold damage, not only notes.
func damage(findings []Finding) bool {
	return slices.ContainsFunc(findings, func(f Finding) bool { return !f.Note })
}

// verifyRuns checks that runs.parquet lists exactly the runs of the
// catalogue, with their statuses, and holds exactly what their manifests
// say: it is made from them alone, so it is compared with the table they
// make, cell by cell (publish.CheckRuns: a flipped bit in any cell or
// column name is found, whichever version wrote the table).
func verifyRuns(dir string, c *Catalog) []Finding {
	path := filepath.Join(dir, runsFile)
	var want []string
	for _, m := range c.manifests() {
		want = append(want, m.RunID+" "+m.Status)
	}
	slices.Sort(want)
	if !exists(path) {
		if len(want) == 0 {
			return nil
		}
		return []Finding{{Path: path, Problem: "missing"}}
	}
	ids, statuses, err := publish.ReadRunIDs(path)
	if err != nil {
		return []Finding{{Path: path, Problem: err.Error()}}
	}
	var got []string
	for i := range ids {
		got = append(got, ids[i]+" "+statuses[i])
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		return []Finding{{Path: path, Problem: fmt.Sprintf("lists %d runs, the folders hold %d: %v against %v", len(got), len(want), got, want)}}
	}
	if err := publish.CheckRuns(path, filepath.Base(dir), runRows(c)); err != nil {
		return []Finding{{Path: path, Problem: "its content differs from what the runs' manifests say: " + err.Error()}}
	}
	return nil
}

package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// unlisted finds the files in the run folder runDir that its manifest
// does not list: the documented globs would read them as the run's (a
// copied ranks/0.5.parquet adds rows to every query). With mend they are
// moved aside to <job>/damaged/unlisted-<run>/, never deleted.
func unlisted(dir, id, runDir string, mend bool) []Finding {
	m, err := readManifest(runDir)
	if err != nil {
		return nil // checkRun says what is wrong with the manifest
	}
	listed := map[string]bool{"manifest.json": true}
	for _, f := range m.Files {
		listed[f.Path] = true
	}
	var out []Finding
	filepath.WalkDir(runDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(runDir, path)
		if listed[filepath.ToSlash(rel)] {
			return nil
		}
		f := Finding{Run: id, Path: path, Problem: "not in the run's manifest: the documented globs would read it as the run's"}
		if mend {
			to := filepath.Join(dir, damagedDir, "unlisted-"+id, rel)
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err == nil {
				if err := os.Rename(path, to); err == nil {
					f.Repaired = "moved to " + to
				}
			}
		}
		out = append(out, f)
		return nil
	})
	return out
}

// knownFolders are a job folder's own subfolders besides its runs.
var knownFolders = []string{partialDir, tmpDir, damagedDir, "evaluate"}

// strayFolders finds folders of the job folder that no run names but the
// documented globs (outputs/<job>/*/pages.parquet, .../ranks/*.parquet)
// would read: a copied run, a backup. With mend they are moved aside to
// <job>/damaged/stray-<name>/, never deleted.
func strayFolders(dir string, mend bool) []Finding {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Finding
	for _, e := range entries {
		if !e.IsDir() || runIDPattern.MatchString(e.Name()) || slices.Contains(knownFolders, e.Name()) {
			continue
		}
		globbed, _ := filepath.Glob(filepath.Join(dir, e.Name(), "*.parquet"))
		ranks, _ := filepath.Glob(filepath.Join(dir, e.Name(), "*", "*.parquet"))
		if len(globbed)+len(ranks) == 0 {
			continue
		}
		f := Finding{Path: filepath.Join(dir, e.Name()),
			Problem: fmt.Sprintf("a folder no run names, holding %d Parquet files the documented globs read: move it out of %s", len(globbed)+len(ranks), dir)}
		if mend {
			to := filepath.Join(dir, damagedDir, "stray-"+e.Name())
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err == nil {
				if err := os.Rename(f.Path, to); err == nil {
					f.Repaired = "moved to " + to
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// untilStill calls read until no publication changed the job folder dir
// while it read (its generation is the same before and after), or read
// reports it needs no second look, at most maxReads times: a reader
// beside a publishing run reads again rather than report a catalogue
// halfway changed.
func untilStill(dir string, read func() (settled bool)) {
	for attempt := 1; ; attempt++ {
		before := generation(dir)
		if read() || generation(dir) == before || attempt == maxReads {
			return
		}
	}
}

// maxReads bounds how often a reader reads a job whose catalogue keeps
// changing under it.
const maxReads = 5

// generation says what a publication changes in a job folder: LATEST,
// the run folders (complete and partial), runs.parquet and feed.atom. Two
// equal generations around a read say no publication happened during it.
func generation(dir string) string {
	var b strings.Builder
	latest, _ := os.ReadFile(filepath.Join(dir, latestFile))
	b.Write(latest)
	for _, d := range []string{dir, filepath.Join(dir, partialDir)} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			b.WriteString("|" + e.Name())
		}
	}
	for _, f := range []string{runsFile, feedFile} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil {
			fmt.Fprintf(&b, "|%s %d %d", f, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

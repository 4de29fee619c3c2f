package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Migrate moves the runs under the output root into the current layout:
// partial runs into <job>/partial/, ranks/epsilon=<e>/ranks.parquet into
// ranks/<e>.parquet (the manifest follows), and stale temporary runs
// away; then it rewrites each job's runs.parquet. Each run is rebuilt
// beside itself from hard links and swapped in with one rename, so a
// reader sees it whole in the old layout or whole in the new, and a crash
// loses nothing. It takes each job's lock, as a run does, and returns how
// many runs it moved.
func Migrate(root string) (moved int, err error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		if !e.IsDir() || !jobName.MatchString(e.Name()) {
			continue
		}
		n, err := migrateJob(filepath.Join(root, e.Name()), e.Name())
		moved += n
		if err != nil {
			return moved, &Error{Op: "migrate", Job: e.Name(), Kind: Failed, Err: err}
		}
	}
	return moved, nil
}

func migrateJob(dir, job string) (int, error) {
	unlock, err := lockJob(dir)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if err := removeStale(dir); err != nil {
		return 0, err
	}
	runs, err := publishedRuns(dir)
	if err != nil {
		return 0, err
	}
	moved := 0
	for _, id := range runs {
		ok, err := migrateRun(dir, id)
		if err != nil {
			return moved, fmt.Errorf("run %s: %w", id, err)
		}
		if ok {
			moved++
		}
	}
	os.Remove(filepath.Join(dir, tmpDir)) // only if empty
	return moved, writeRuns(dir, job)
}

// migrateRun brings one run at <dir>/<id> into the current layout and
// reports whether it had to change.
func migrateRun(dir, id string) (bool, error) {
	old := filepath.Join(dir, id)
	raw, err := os.ReadFile(filepath.Join(old, "manifest.json"))
	if err != nil {
		return false, nil // not a run this program wrote whole: leave it
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return false, nil
	}
	renames := renamedFiles(m)
	partial := m["status"] == StatusPartial
	if len(renames) == 0 && !partial {
		return false, nil
	}
	// The new run is built from hard links in .tmp/, with its manifest.
	tmp := filepath.Join(dir, tmpDir, id)
	os.RemoveAll(tmp)
	if err := linkTree(old, tmp, renames); err != nil {
		return false, err
	}
	delete(m, "seal") // of the bytes before: sealed again as written
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return false, err
	}
	if err := writeSynced(filepath.Join(tmp, "manifest.json"), append(seal(b), '\n')); err != nil {
		return false, err
	}
	if partial { // out of the globs: in place under partial/, then the old one goes
		if err := promote(tmp, runDir(dir, id, StatusPartial)); err != nil {
			return false, err
		}
		return true, removeRun(dir, old, id)
	}
	if err := exchange(tmp, old); err != nil { // the new run in place, the old one in .tmp/
		return false, err
	}
	return true, os.RemoveAll(tmp)
}

// renamedFiles rewrites the manifest's old ranks paths and returns the
// renames, old path to new.
func renamedFiles(m map[string]any) map[string]string {
	renames := map[string]string{}
	files, _ := m["files"].([]any)
	for _, f := range files {
		f, ok := f.(map[string]any)
		if !ok {
			continue
		}
		p, _ := f["path"].(string)
		if eps, ok := strings.CutPrefix(p, "ranks/epsilon="); ok && strings.HasSuffix(eps, "/ranks.parquet") {
			np := "ranks/" + strings.TrimSuffix(eps, "/ranks.parquet") + ".parquet"
			renames[p] = np
			f["path"] = np
		}
	}
	return renames
}

// linkTree recreates the files of src under dst as hard links, renaming
// those in renames (slash-separated paths relative to src).
func linkTree(src, dst string, renames map[string]string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		rel = filepath.ToSlash(rel)
		if rel == "manifest.json" {
			return nil
		}
		if np, ok := renames[rel]; ok {
			rel = np
		}
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.Link(path, target)
	})
}

// removeRun takes a run out of the job directory with one rename, then
// deletes it.
func removeRun(dir, path, id string) error {
	gone := filepath.Join(dir, tmpDir, id+".old")
	if err := os.Rename(path, gone); err != nil {
		return err
	}
	return os.RemoveAll(gone)
}

package pipeline

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/topicrank/topicrank/stages/publish"
)

// publish writes the run into .tmp/<run_id>, adds the manifest, renames it
// into place (<run_id>/, or partial/<run_id>/ for a run cut short) and,
// for a complete run, points LATEST at it; then rewrites runs.parquet.
func (r *Runner) publish(dir string, m *Manifest, in *publish.Input, log *slog.Logger) error {
	tmp := filepath.Join(dir, tmpDir, m.RunID)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	var files []publish.File
	var err error
	m.timed("publish", func() { files, err = publish.Write(tmp, in) })
	if err == nil && m.Config.Indexed() {
		var index []publish.File
		m.timed("index", func() { index, err = buildIndex(tmp, in) })
		files = append(files, index...)
	}
	if err == nil {
		m.Files = files
		m.Finished = r.now()
		var b []byte
		b, err = json.MarshalIndent(m, "", "  ")
		if err == nil {
			err = writeSynced(filepath.Join(tmp, "manifest.json"), append(seal(b), '\n'))
		}
	}
	if err == nil {
		err = promote(tmp, runDir(dir, m.RunID, m.Status))
		os.Remove(filepath.Join(dir, tmpDir)) // only if empty: no debris in the listing
	}
	if err != nil {
		os.RemoveAll(tmp)
		os.Remove(filepath.Join(dir, tmpDir)) // only if empty
		return err
	}
	if m.Status == StatusComplete {
		if err := setLatest(dir, m.RunID); err != nil {
			return rollback(dir, m.RunID, err)
		}
	}
	if err := prune(dir, m.Config.Keep); err != nil {
		log.Warn("retention: could not remove old runs", "err", err)
	}
	if err := writeRuns(dir, m.Job); err != nil {
		return fmt.Errorf("run %s is published, but %s could not be rewritten (the next run repairs it): %w", m.RunID, runsFile, err)
	}
	if err := writeFeed(dir, m.Config); err != nil {
		log.Warn("the feed could not be rewritten (the next run does)", "file", filepath.Join(dir, feedFile), "err", err)
	}
	return nil
}

// rollback takes back a complete run whose LATEST could not be written
// (cause), so that no reader or glob sees a run that LATEST does not
// name. If LATEST names it after all (only syncing failed), the run stays.
// If the rollback is cut short too, the next run of the job finishes the
// publication (repair).
func rollback(dir, runID string, cause error) error {
	os.Remove(filepath.Join(dir, latestFile+".tmp"))
	if latest, err := os.ReadFile(filepath.Join(dir, latestFile)); err == nil && strings.TrimSpace(string(latest)) == runID {
		return nil
	}
	tmp := filepath.Join(dir, tmpDir, runID)
	if err := os.MkdirAll(filepath.Dir(tmp), 0o755); err == nil {
		if err := os.Rename(filepath.Join(dir, runID), tmp); err == nil {
			os.RemoveAll(tmp)
			os.Remove(filepath.Join(dir, tmpDir))
		}
	}
	return fmt.Errorf("writing %s: %w (the run is taken back; LATEST still names the previous run)", filepath.Join(dir, latestFile), cause)
}

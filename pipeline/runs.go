package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/topicrank/topicrank/stages/publish"
)

// writeRuns rewrites the job's runs.parquet from the manifests of the
// complete and partial runs of its catalogue, oldest first.
func writeRuns(dir, job string) error {
	c, err := readCatalog(dir)
	if err != nil {
		return err
	}
	return publish.WriteRuns(filepath.Join(dir, runsFile), job, runRows(c))
}

// runRows are runs.parquet's rows of catalogue c, oldest first.
func runRows(c *Catalog) []publish.RunRow {
	var rows []publish.RunRow
	for _, m := range c.manifests() {
		rows = append(rows, runRow(m))
	}
	slices.SortFunc(rows, func(a, b publish.RunRow) int { return strings.Compare(a.RunID, b.RunID) })
	return rows
}

// ReadManifest reads the manifest.json of the run in runDir.
func ReadManifest(runDir string) (*Manifest, error) { return readManifest(runDir) }

// CompleteRuns lists the job's complete runs under root, oldest first:
// those of its catalogue, up to the one LATEST names.
func CompleteRuns(root, job string) ([]string, error) {
	c, err := ReadCatalog(root, job)
	if err != nil {
		return nil, err
	}
	return c.Complete, nil
}

func readManifest(runDir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(runDir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if m.RunID == "" {
		return nil, errors.New("manifest without a run id")
	}
	m.Counts.upgrade()
	return &m, nil
}

func runRow(m *Manifest) publish.RunRow {
	c := m.Counts
	return publish.RunRow{
		RunID: m.RunID, Status: m.Status, Problems: strings.Join(m.Problems, "\n"),
		Started: m.Started, Finished: m.Finished,
		CrawlSeconds: m.StageSeconds["crawl"], GraphSeconds: m.StageSeconds["graph"],
		RankSeconds: m.StageSeconds["rank"], PublishSeconds: m.StageSeconds["publish"],
		Vertices: c.Vertices, Edges: c.Edges, Fetched: c.Fetched, Failed: c.Failed, NotFound: c.NotFound,
		Changed: c.Changed, NotModified: c.NotModified, Replayed: c.Replayed, Relevant: c.Relevant,
		Carried: c.Carried, NotFetched: c.NotFetched, Judged: c.Judged, Requests: c.Requests,
		BytesDownloaded: c.BytesDownloaded,
		HarvestRate:     c.HarvestRate, PreviousRunID: m.PreviousRunID, ResumedFrom: m.ResumedFrom,
		ConfigDigest: m.ConfigDigest, Robots: m.Robots, Version: m.Version, Churn: c.Churn,
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// wholeRun is the cheap check of a published run: its manifest reads, and
// every file it lists is there with the size it lists. (runner verify
// also checks each file's sha256.)
func wholeRun(runDir string) (*Manifest, error) {
	m, err := readManifest(runDir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(runDir, "manifest.json"), err)
	}
	for _, f := range m.Files {
		path := filepath.Join(runDir, filepath.FromSlash(f.Path))
		fi, err := os.Stat(path)
		switch {
		case err != nil:
			return m, err
		case f.Bytes > 0 && fi.Size() != f.Bytes:
			return m, fmt.Errorf("%s: %d bytes, the manifest says %d", path, fi.Size(), f.Bytes)
		}
	}
	return m, nil
}

// writeRunsIfBehind rewrites runs.parquet when a run's manifest is newer
// than it (a publication stopped between the run and runs.parquet).
func writeRunsIfBehind(dir, job string, c *Catalog) error {
	fi, err := os.Stat(filepath.Join(dir, runsFile))
	if err != nil {
		return writeRuns(dir, job)
	}
	for _, id := range slices.Concat(c.Complete, c.Partial) {
		if m, err := os.Stat(filepath.Join(c.Find(id), "manifest.json")); err == nil && m.ModTime().After(fi.ModTime()) {
			return writeRuns(dir, job)
		}
	}
	return nil
}

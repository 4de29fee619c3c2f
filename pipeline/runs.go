package pipeline

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/topicrank/topicrank/stages/publish"
)

// writeRuns rewrites the job's runs.parquet from the manifests of its
// complete and partial runs, oldest first.
func writeRuns(dir, job string) error {
	var rows []publish.RunRow
	for _, sub := range []string{"", partialDir} {
		runs, err := publishedRuns(filepath.Join(dir, sub))
		if err != nil {
			return err
		}
		for _, id := range runs {
			m, err := readManifest(filepath.Join(dir, sub, id))
			if err != nil {
				continue // not a run this program wrote whole: leave it out
			}
			rows = append(rows, runRow(m))
		}
	}
	slices.SortFunc(rows, func(a, b publish.RunRow) int { return strings.Compare(a.RunID, b.RunID) })
	return publish.WriteRuns(filepath.Join(dir, runsFile), job, rows)
}

// ReadManifest reads the manifest.json of the run in runDir.
func ReadManifest(runDir string) (*Manifest, error) { return readManifest(runDir) }

// CompleteRuns lists the job's complete runs under root, oldest first.
func CompleteRuns(root, job string) ([]string, error) {
	dir, err := jobDir(root, job)
	if err != nil {
		return nil, err
	}
	return publishedRuns(dir)
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
		ConfigDigest: m.ConfigDigest, Robots: m.Robots, Version: m.Version,
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Package publish writes a run's tables: the classic edge list and the
// Parquet files of DESIGN.md ("Outputs"). It writes into a directory it is
// given; making that directory appear atomically is the caller's job.
package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/rank"
)

// Input is everything a run publishes.
type Input struct {
	Job, RunID string
	Crawl      *crawl.Result // nil for a ranked edge-list file: no pages table
	Graph      *graph.Graph
	Ranks      []rank.Result
	// Previous is the job's previous complete run, nil for the first: it
	// fills pages.changed and changes.parquet.
	Previous *Previous
}

// File describes one published file.
type File struct {
	Path   string `json:"path"` // relative to the run directory, slash-separated
	Rows   int64  `json:"rows"` // table rows; edge lines for graph.txt
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// EpsilonDir returns the directory of an epsilon's ranks, "ranks/epsilon=0.01".
func EpsilonDir(eps float64) string {
	return "ranks/epsilon=" + strconv.FormatFloat(eps, 'g', -1, 64)
}

// Write writes every file of the run into dir, each synced to disk, and
// describes them in the order written.
func Write(dir string, in *Input) ([]File, error) {
	var files []File
	add := func(f File, err error) error {
		if err == nil {
			files = append(files, f)
		}
		return err
	}
	if err := add(writeFile(dir, "graph.txt", int64(in.Graph.NumEdges()), func(w io.Writer) error {
		return graph.WriteEdgeList(w, in.Graph)
	})); err != nil {
		return nil, err
	}
	type tableFile struct {
		path  string
		build func() *table // built only when written, one table in memory at a time
	}
	tables := []tableFile{
		{"edges.parquet", func() *table { return edgesTable(in) }},
		{"degrees.parquet", func() *table { return degreesTable(in) }},
	}
	if in.Crawl != nil {
		tables = append(tables, tableFile{"pages.parquet", func() *table { return pagesTable(in) }},
			tableFile{"changes.parquet", func() *table { return changesTable(in) }})
	}
	for _, r := range in.Ranks {
		tables = append(tables, tableFile{EpsilonDir(r.Epsilon) + "/ranks.parquet", func() *table { return ranksTable(in, r) }})
	}
	for _, t := range tables {
		if err := add(writeParquet(dir, t.path, t.build())); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func writeParquet(dir, path string, t *table) (File, error) {
	rec := t.b.NewRecordBatch()
	defer rec.Release()
	t.b.Release()
	return writeFile(dir, path, rec.NumRows(), func(w io.Writer) error {
		fw, err := pqarrow.NewFileWriter(t.schema, w, writerProps(), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
		if err != nil {
			return err
		}
		if err := fw.Write(rec); err != nil {
			fw.Close()
			return err
		}
		return fw.Close()
	})
}

// writeFile creates dir/path, fills it with write, syncs it and returns its
// description. w is not an io.Closer: the file's lifetime stays here.
func writeFile(dir, path string, rows int64, write func(io.Writer) error) (File, error) {
	full := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return File{}, err
	}
	f, err := os.Create(full)
	if err != nil {
		return File{}, err
	}
	h := sha256.New()
	cw := &countWriter{w: io.MultiWriter(f, h)}
	err = write(cw)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return File{}, fmt.Errorf("writing %s: %w", path, err)
	}
	return File{Path: path, Rows: rows, Bytes: cw.n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Package publish writes a run's tables: the classic edge list and the
// Parquet files of DESIGN.md ("Outputs"). It writes into a directory it is
// given; making that directory appear atomically is the caller's job.
package publish

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/sync/errgroup"

	"github.com/topicrank/topicrank/internal/names"
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
	// TopicRanks is topic-sensitive PageRank per epsilon (nil: none).
	TopicRanks []rank.Result
	// NearDuplicateOf is, per vertex, the earlier vertex it is a
	// near-duplicate of (-1: none), with the estimated Jaccard similarity.
	NearDuplicateOf      []int
	NearDuplicateJaccard []float64
	// Previous is the job's previous complete run, nil for the first: it
	// fills pages.changed and changes.parquet.
	Previous *Previous
	// History is each page's change history from the crawl state, by key
	// (nil: no state).
	History map[string]PageHistory
	// EdgeList says how graph.txt is written: plain (the default), gzip
	// (graph.txt.gz) or zstd (graph.txt.zst), which rank -graph and
	// DuckDB's read_csv read as they are, or not at all.
	EdgeList EdgeListMode
	// Global are whole-wiki ranks (a job's global_ranks; nil: none), set
	// beside the job's own in its ranks tables: joined on page id where
	// both sides have one (a page renamed since still joins), on the
	// page's name otherwise.
	Global *GlobalRanks
	// PageIDs are the vertices' MediaWiki page ids, by vertex, for a graph
	// read from a wiki's dumps (nil: none; a crawl's come from its pages).
	PageIDs []int64

	// version is the writer's version the tables' footers name (""
	// for this program's): verify remakes a table another build wrote.
	version   string
	namesOnce sync.Once
	names     []string // the graph's names made safe (names.Safe), by vertex id
}

// PageHistory is what pages.parquet says of a page's changes across runs.
type PageHistory struct {
	Visits, Textual, Structural int
	Edits                       int       // visits that found a new revision
	ChangeRate                  float64   // changes per day, NaN if not estimated
	LastChanged                 time.Time // zero: no change seen
}

// safeNames returns the graph's vertex names, each made safe once for
// every table (names.Safe).
func (in *Input) safeNames() []string {
	in.namesOnce.Do(func() {
		if in.Graph == nil {
			return
		}
		in.names = make([]string, in.Graph.NumVertices())
		for v := range in.names {
			in.names[v] = names.Safe(in.Graph.Name(uint32(v)))
		}
	})
	return in.names
}

// File describes one published file.
type File struct {
	Path   string `json:"path"` // relative to the run directory, slash-separated
	Rows   int64  `json:"rows"` // table rows; edge lines for graph.txt
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// RanksPath returns the file of an epsilon's ranks, "ranks/0.01.parquet":
// no key=value folder, so no reader takes epsilon from the path as text.
func RanksPath(eps float64) string {
	return "ranks/" + strconv.FormatFloat(eps, 'g', -1, 64) + ".parquet"
}

// Write writes every file of the run into dir, each synced to disk, and
// describes them: graph.txt, then the tables. Files are written in
// parallel, one per core; each table holds one row group in memory at a
// time.
func Write(dir string, in *Input) ([]File, error) {
	type output struct {
		path  string
		write func(io.Writer) (int64, error) // returns the rows written
	}
	var outputs []output
	switch in.EdgeList {
	case EdgeListPlain:
		outputs = append(outputs, output{"graph.txt", func(w io.Writer) (int64, error) {
			return int64(in.Graph.NumEdges()), graph.WriteEdgeList(w, in.Graph)
		}})
	case EdgeListGzip:
		outputs = append(outputs, output{"graph.txt.gz", compressedEdgeList(in.Graph, func(w io.Writer) (io.WriteCloser, error) {
			return gzip.NewWriterLevel(w, gzip.BestSpeed)
		})})
	case EdgeListZstd:
		// The fastest level: on a 155 M-edge graph it wrote 0.80 GB for
		// 8.3 GB, and took 10% less time than gzip's fastest level (0.84
		// GB).
		outputs = append(outputs, output{"graph.txt.zst", compressedEdgeList(in.Graph, func(w io.Writer) (io.WriteCloser, error) {
			return zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedFastest))
		})})
	}
	addTable := func(path string, spec tableSpec) {
		outputs = append(outputs, output{path, func(w io.Writer) (int64, error) { return writeTable(w, in, spec) }})
	}
	addTable("edges.parquet", edgesTable(in))
	addTable("degrees.parquet", degreesTable(in))
	if in.Crawl != nil {
		addTable("pages.parquet", pagesTable(in))
		addTable("changes.parquet", changesTable(in))
		addTable("categories.parquet", categoriesTable(in))
	}
	for _, r := range in.Ranks {
		addTable(RanksPath(r.Epsilon), ranksTable(in, r))
	}
	for _, r := range in.TopicRanks {
		addTable("topic_"+RanksPath(r.Epsilon), ranksTable(in, r))
	}

	files := make([]File, len(outputs))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	// A file is synced apart from its writing: a sync waits on the disk,
	// and the core is better spent on the next file meanwhile.
	var syncs errgroup.Group
	for i, o := range outputs {
		g.Go(func() (err error) {
			// A table's writer runs beyond the caller's recovery: a panic
			// fails the publication, not the process.
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic writing %s: %v\n%s", o.path, p, debug.Stack())
				}
			}()
			f, file, err := writeUnsynced(dir, o.path, o.write)
			if err != nil {
				return err
			}
			files[i] = file
			syncs.Go(func() error { return syncClose(f, o.path) })
			return nil
		})
	}
	err := g.Wait()
	if serr := syncs.Wait(); err == nil {
		err = serr
	}
	if err != nil {
		return nil, err
	}
	return files, nil
}

// writeTable writes one table as Parquet, a row group at a time, and
// returns its number of rows.
func writeTable(w io.Writer, in *Input, spec tableSpec) (int64, error) {
	t, err := newTable(w, in, spec.fields)
	if err != nil {
		return 0, err
	}
	spec.rows(t)
	return t.close()
}

// writeFile creates dir/path, fills it with write, which returns the rows
// it wrote, syncs it and returns its description. w is not an io.Closer:
// the file's lifetime stays here.
func writeFile(dir, path string, write func(io.Writer) (int64, error)) (File, error) {
	f, file, err := writeUnsynced(dir, path, write)
	if err == nil {
		err = syncClose(f, path)
	}
	return file, err
}

// writeUnsynced is writeFile but for the sync: it returns the file still
// open, for syncClose.
func writeUnsynced(dir, path string, write func(io.Writer) (int64, error)) (*os.File, File, error) {
	full := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return nil, File{}, err
	}
	f, err := os.Create(full)
	if err != nil {
		return nil, File{}, err
	}
	h := sha256.New()
	cw := &countWriter{w: io.MultiWriter(f, h)}
	rows, err := write(cw)
	if err != nil {
		f.Close()
		return nil, File{}, fmt.Errorf("writing %s: %w", path, err)
	}
	return f, File{Path: path, Rows: rows, Bytes: cw.n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// syncClose syncs a written file to disk and closes it.
func syncClose(f *os.File, path string) error {
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
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

// compressedEdgeList returns a writer of g's edge list through the
// compressor compress makes; it returns the rows written.
func compressedEdgeList(g *graph.Graph, compress func(io.Writer) (io.WriteCloser, error)) func(io.Writer) (int64, error) {
	return func(w io.Writer) (int64, error) {
		zw, err := compress(w)
		if err != nil {
			return 0, err
		}
		if err := graph.WriteEdgeList(zw, g); err != nil {
			zw.Close()
			return 0, err
		}
		return int64(g.NumEdges()), zw.Close()
	}
}

// EdgeListMode is how a run's edge list is published.
type EdgeListMode int

const (
	EdgeListPlain EdgeListMode = iota // graph.txt
	EdgeListGzip                      // graph.txt.gz
	EdgeListZstd                      // graph.txt.zst
	EdgeListNone                      // no edge list: edges.parquet holds the edges
)

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/dump"
	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/graph/parquetin"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
)

func cmdRank(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rank", stderr)
	file := fs.String("graph", "", "edge-list file, gzip- or zstd-compressed or not; - for standard input; or Parquet edges (x.parquet, or a glob of them) (required)")
	dumpDir := fs.String("dump", "", "rank a wiki from its SQL dumps in this directory (*-page.sql.gz, *-pagelinks.sql.gz, *-redirect.sql.gz, *-linktarget.sql.gz) instead of -graph")
	vertices := fs.String("vertices", "", "with Parquet edges: a vertices table (vertex_id and page, e.g. a run's degrees.parquet) naming integer ids and fixing the vertices and their order")
	epsilons := fs.String("epsilon", "0.01,0.005", "comma-separated L1 stopping thresholds")
	beta := fs.Float64("beta", 0.85, "damping factor, in (0,1)")
	top := fs.Int("top", 10, "length of the top lists")
	format := fs.String("format", "text", "output format: text or json")
	out := fs.String("out", "", "also write degrees, edges and ranks as Parquet into this directory")
	edgeList := fs.String("edge-list", "plain", "with -out: the edge list as graph.txt (plain), graph.txt.gz (gzip) or graph.txt.zst (zstd), both read by rank and by DuckDB's read_csv, or none")
	lenient := fs.Bool("lenient", false, "accept vertices beyond the header's count")
	noHeader := fs.Bool("no-header", false, "the file has no vertex-count line (SNAP, Wikispeedia)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole command to this file (read it with go tool pprof)")
	if err := parse(fs, args); err != nil {
		return err
	}
	eps, err := parseEpsilons(*epsilons)
	mode, knownMode := map[string]publish.EdgeListMode{"plain": publish.EdgeListPlain, "gzip": publish.EdgeListGzip, "zstd": publish.EdgeListZstd, "none": publish.EdgeListNone}[*edgeList]
	switch {
	case err != nil:
		return err
	case *file == "" && *dumpDir == "":
		return usageError{"-graph FILE (or -dump DIR) is required"}
	case !(*beta > 0 && *beta < 1):
		return usageError{fmt.Sprintf("-beta %v: must be in (0,1)", *beta)}
	case !knownMode:
		return usageError{fmt.Sprintf("-edge-list %q: want plain, gzip, zstd or none", *edgeList)}
	case *top < 1:
		return usageError{fmt.Sprintf("-top %d: must be at least 1", *top)}
	case *format != "text" && *format != "json":
		return usageError{fmt.Sprintf("-format %q: want text or json", *format)}
	}
	if *out != "" { // checked first: reading a whole wiki takes minutes
		if err := pipeline.Writable(*out, "-out folder"); err != nil {
			return err
		}
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	rep, log := newReporter(stderr)
	name := filepath.Base(*file) // names the input in progress and as the run id
	if *file == "-" {
		name = "stdin"
	}
	task := "reading " + name
	opt := graph.ReadOptions{
		Lenient:  *lenient,
		NoHeader: *noHeader,
		Progress: func(done, total int64) { rep.Work(task, done, total) },
	}
	start := time.Now()
	var g *graph.Graph
	var st graph.ReadStats
	var pageIDs []int64 // a dump's, by vertex
	if *dumpDir != "" {
		if *file != "" {
			return usageError{"give -graph or -dump, not both"}
		}
		name = filepath.Base(filepath.Clean(*dumpDir))
		g, pageIDs, err = readDump(ctx, *dumpDir, log)
	} else if parquetin.IsParquet(*file) {
		g, st, err = parquetin.Read(ctx, *file, *vertices)
		if err != nil && ctx.Err() == nil {
			err = usageError{err.Error()}
		}
		if err == nil && *vertices == "" {
			log.Warn("an edges table cannot name a vertex with no edges: isolated vertices are left out, so ranks differ from the whole graph's; "+
				"give its vertices table (-vertices, e.g. a run's degrees.parquet) to keep them", "file", *file)
		}
	} else if *vertices != "" {
		err = usageError{"-vertices goes with Parquet edges (-graph x.parquet)"}
	} else {
		g, st, err = readGraph(ctx, *file, opt)
	}
	if err != nil {
		rep.Clear()
		return err
	}
	log.Info("read graph", "file", *file, "vertices", g.NumVertices(), "edges", g.NumEdges(),
		"dropped_duplicates", st.Duplicates, "dropped_self_loops", st.SelfLoops, "seconds", seconds(start))
	if st.HeaderIgnored {
		log.Warn("the header names far more vertices than the edges: ignored (-lenient)", "vertices", g.NumVertices())
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	start = time.Now()
	results := rank.PageRank(g, *beta, eps)
	iterations := 0
	for _, r := range results {
		iterations = max(iterations, r.Iterations)
	}
	log.Info("PageRank", "epsilons", eps, "iterations", iterations, "seconds", seconds(start))
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	if *out != "" {
		in := &publish.Input{Job: "rank", RunID: name, Graph: g, Ranks: results, EdgeList: mode, PageIDs: pageIDs}
		log.Info("writing outputs", "dir", *out)
		start = time.Now()
		files, err := publish.Write(*out, in)
		if err != nil {
			return err
		}
		log.Info("wrote outputs", "dir", *out, "files", len(files), "seconds", seconds(start),
			"read_back", fmt.Sprintf("runner rank -graph %s -vertices %s", filepath.Join(*out, "edges.parquet"), filepath.Join(*out, "degrees.parquet")))
	}
	s := rank.Summarize(g, results, *top)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		return enc.Encode(s)
	}
	printSummary(stdout, s)
	return nil
}

// seconds returns the time since start in seconds, to the millisecond.
func seconds(start time.Time) float64 {
	return float64(time.Since(start).Milliseconds()) / 1000
}

// readDump reads a wiki's SQL dumps into its article graph and each
// vertex's page id.
func readDump(ctx context.Context, dir string, log *slog.Logger) (*graph.Graph, []int64, error) {
	files, err := dump.FindFiles(dir)
	if err != nil {
		return nil, nil, usageError{err.Error()}
	}
	g, st, err := dump.Read(ctx, files)
	if err != nil {
		return nil, nil, err
	}
	log.Info("read dump", "dir", dir, "articles", st.Articles, "redirects", st.Redirects, "links", st.Links,
		"edges", st.Edges, "not_article", st.NotArticle, "missing", st.Missing, "via_redirect", st.ViaRedirect,
		"redirect_chains", st.RedirectChain, "redirect_loops", st.RedirectLoop)
	return g, st.PageIDs, nil
}

func readGraph(ctx context.Context, path string, opt graph.ReadOptions) (*graph.Graph, graph.ReadStats, error) {
	r, closeInput, err := graph.OpenInput(ctx, path, os.Stdin)
	if err != nil {
		return nil, graph.ReadStats{}, usageError{err.Error()}
	}
	defer closeInput()
	g, st, err := graph.ReadEdgeList(r, opt)
	if ctx.Err() != nil {
		return nil, st, fmt.Errorf("%s: interrupted: %w", path, ctx.Err())
	}
	if err != nil {
		return nil, st, usageError{fmt.Sprintf("%s: %v", path, err)}
	}
	return g, st, nil
}

func parseEpsilons(s string) ([]float64, error) {
	var eps []float64
	for _, part := range strings.Split(s, ",") {
		e, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || !(e > 0) {
			return nil, usageError{fmt.Sprintf("-epsilon %q: want positive numbers separated by commas", s)}
		}
		eps = append(eps, e)
	}
	return eps, nil
}

func printSummary(w io.Writer, s rank.Summary) {
	fmt.Fprintf(w, "%d %s, %d %s\n", s.Vertices, plural(s.Vertices, "vertex", "vertices"), s.Edges, plural(s.Edges, "edge", "edges"))
	fmt.Fprintf(w, "top in-degree:  %s\n", withValues(s.TopInDegree, s.InDegrees))
	fmt.Fprintf(w, "top out-degree: %s\n", withValues(s.TopOutDegree, s.OutDegrees))
	for _, r := range s.Results {
		fmt.Fprintf(w, "\nepsilon %g: %d %s, residual %.3g\n", r.Epsilon, r.Iterations, plural(r.Iterations, "iteration", "iterations"), r.Residual)
		for i, p := range r.TopPageRank {
			fmt.Fprintf(w, "  %2d. %-40s %.6g\n", i+1, p, r.PageRanks[i])
		}
		fmt.Fprintf(w, "  overlap of the top %d by in-degree, out-degree and PageRank (Jaccard: shared / either, 1 = same pages):\n", rank.JaccardTop)
		fmt.Fprintf(w, "    in-degree & out-degree %.3f   in-degree & PageRank %.3f   out-degree & PageRank %.3f\n",
			r.Jaccard.InOut, r.Jaccard.InRank, r.Jaccard.OutRank)
	}
}

// withValues lists names each with its value: "/wiki/A (12) /wiki/B (9)".
func withValues(names []string, values []int) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s (%d)", n, values[i])
	}
	return strings.Join(parts, " ")
}

// startCPUProfile profiles the process into path until stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-cpuprofile %s: %w", path, err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

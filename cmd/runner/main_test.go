package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/graph"
)

func runner(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeJobs(t *testing.T, yaml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "jobs.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const jobsYAML = `defaults:
  user_agent: "topicrank-test/0.1 (ops@example.org)"
  politeness: {max_rps: 1000, concurrency: 4}
jobs:
  - name: gen
    seeds: [/wiki/Page_0]
    topics: [tennis]
    max_pages: 40
`

func TestValidateExitCodes(t *testing.T) {
	if code, out, _ := runner(t, "validate", "-config", "../../jobs.yaml"); code != 0 || !strings.Contains(out, "valid") {
		t.Errorf("the repository's jobs.yaml: exit %d, %s", code, out)
	}
	bad := writeJobs(t, strings.Replace(jobsYAML, "max_pages: 40", "max_pages: 0", 1))
	code, _, errs := runner(t, "validate", "-config", bad)
	if code != 2 || !strings.Contains(errs, `jobs.yaml:8: job "gen": max_pages: must be between 1 and`) {
		t.Errorf("invalid config: exit %d, %s", code, errs)
	}
	if code, _, errs := runner(t, "validate", "-config", "/nonexistent/jobs.yaml"); code != 2 || !strings.Contains(errs, "no such file") {
		t.Errorf("missing config: exit %d, %s", code, errs)
	}
}

// TestValidateColumns checks that validate's listing stays in columns
// whatever the names' lengths, on the learned strategy's topics file
// (which must stay valid: docs/learned/harvest.sh reads it).
func TestValidateColumns(t *testing.T) {
	code, out, errs := runner(t, "validate", "-config", "../../docs/learned/topics.yaml")
	if code != 0 {
		t.Fatalf("docs/learned/topics.yaml: exit %d, %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	lines = lines[:len(lines)-1] // the summary
	if len(lines) < 2 {
		t.Fatalf("want a line per job, got %q", out)
	}
	col := strings.Index(lines[0], "max_pages=")
	for _, l := range lines {
		if strings.Index(l, "max_pages=") != col {
			t.Errorf("max_pages= not at column %d in %q", col, l)
		}
	}
}

// The usage lists every command, and under each every flag its flag set
// has (as the command's -h prints them), so it cannot fall behind them.
func TestUsageListsEveryFlag(t *testing.T) {
	entries := map[string]string{}
	var name string
	for _, line := range strings.Split(usage, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") {
			name = f[0]
		}
		entries[name] += line + "\n"
	}
	flagLine := regexp.MustCompile(`(?m)^  (-[a-z0-9-]+)`)
	for _, cmd := range commandNames() {
		entry, ok := entries[cmd]
		if !ok {
			t.Errorf("usage has no entry for %s", cmd)
			continue
		}
		_, _, help := runner(t, cmd, "-h")
		flags := flagLine.FindAllStringSubmatch(help, -1)
		if len(flags) == 0 {
			t.Errorf("%s -h lists no flags: %s", cmd, help)
		}
		for _, f := range flags {
			if !regexp.MustCompile(regexp.QuoteMeta(f[1]) + `\b`).MatchString(entry) {
				t.Errorf("usage of %s lacks %s:\n%s", cmd, f[1], entry)
			}
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{}, {"frobnicate"}, {"run", "-bogus"}, {"rank"}, {"rank", "-graph", "x", "-epsilon", "0"},
		{"rank", "-graph", "x", "-format", "xml"}, {"run", "-config", writeJobs(t, jobsYAML), "-job", "nope"},
		{"run", "-config", writeJobs(t, jobsYAML), "-base-url", ""}, // an empty override must not mean the real host
		{"run", "-config", writeJobs(t, jobsYAML), "-log-level", "chatty"},
	} {
		if code, _, _ := runner(t, args...); code != 2 {
			t.Errorf("runner %q: exit %d, want 2", args, code)
		}
	}
}

func TestRunCommand(t *testing.T) {
	w := wikitest.New(t, 200)
	out := t.TempDir()
	code, stdout, stderr := runner(t, "run", "-config", writeJobs(t, jobsYAML), "-out", out, "-base-url", w.URL())
	if code != 0 || !strings.Contains(stdout, "gen: complete run") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	latest, err := os.ReadFile(filepath.Join(out, "gen", "LATEST"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "gen", strings.TrimSpace(string(latest)), "manifest.json")); err != nil {
		t.Error(err)
	}
	printedRunExists(t, stdout)
	// A seed that 404s: exit 1, with the cause; the partial run's path as printed.
	bad := writeJobs(t, strings.Replace(jobsYAML, "/wiki/Page_0", "/wiki/Nowhere", 1))
	code, stdout, stderr = runner(t, "run", "-config", bad, "-out", t.TempDir(), "-base-url", w.URL())
	if code != 1 || !strings.Contains(stderr, "seed /wiki/Nowhere: HTTP 404") {
		t.Errorf("seed 404: exit %d, %s", code, stderr)
	}
	if dir := printedRunExists(t, stdout); !strings.Contains(dir, string(filepath.Separator)+"partial"+string(filepath.Separator)) {
		t.Errorf("a partial run printed as %s, want it under partial/", dir)
	}
}

// printedRunExists checks that the run directory `run` printed after
// "-> " holds the run's manifest, and returns it.
func printedRunExists(t *testing.T, stdout string) string {
	t.Helper()
	_, dir, ok := strings.Cut(strings.TrimSpace(stdout), "-> ")
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); !ok || err != nil {
		t.Errorf("run printed %q: no manifest there (%v)", stdout, err)
	}
	return dir
}

// report of a job that neither jobs.yaml nor the outputs know is bad
// usage, said with the jobs there are; one jobs.yaml names but that never
// ran says to run it.
func TestReportUnknownJob(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runner(t, "report", "-out", out, "-config", "../../jobs.yaml", "-job", "nope")
	if code != 2 || !strings.Contains(stderr, "no job nope in ../../jobs.yaml (jobs: tennis, seattle") {
		t.Errorf("report -job nope: exit %d, %s", code, stderr)
	}
	code, _, stderr = runner(t, "report", "-out", out, "-config", "../../jobs.yaml", "-job", "seattle")
	if code != 2 || !strings.Contains(stderr, "run it first ('runner run -job seattle')") {
		t.Errorf("report of a job that never ran: exit %d, %s", code, stderr)
	}
}

func TestRankJSON(t *testing.T) {
	g := filepath.Join(t.TempDir(), "g.txt")
	os.WriteFile(g, []byte("3\r\na b\r\nb c\r\nc a\r\na c\r\na c\r\n"), 0o644)
	code, stdout, stderr := runner(t, "rank", "-graph", g, "-epsilon", "0.01,0.001", "-top", "2", "-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s struct {
		Vertices, Edges int
		TopIn           []string `json:"top_in_degree"`
		TopOut          []string `json:"top_out_degree"`
		InValues        []int    `json:"top_in_degree_values"`
		OutValues       []int    `json:"top_out_degree_values"`
		Results         []struct {
			Epsilon    float64
			Iterations int
			Residual   float64
			Top        []string  `json:"top_pagerank"`
			Values     []float64 `json:"top_pagerank_values"`
			Jaccard    struct {
				InOut   float64 `json:"in_out"`
				InRank  float64 `json:"in_rank"`
				OutRank float64 `json:"out_rank"`
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	// In-degrees a1 b1 c2, out-degrees a2 b1 c1: c then a lead.
	if s.Vertices != 3 || s.Edges != 4 || strings.Join(s.TopIn, " ") != "c a" || strings.Join(s.TopOut, " ") != "a b" ||
		len(s.Results) != 2 || s.Results[0].Epsilon != 0.01 || s.Results[1].Iterations <= s.Results[0].Iterations ||
		s.Results[0].Top[0] != "c" || s.Results[0].Jaccard.InOut != 1 {
		t.Errorf("summary = %+v", s)
	}
	// Values beside the names. PageRank solved by hand (beta 0.85, 0.05
	// teleport each): a = 0.05 + 0.85c, b = 0.05 + 0.425a,
	// c = 0.05 + 0.425a + 0.85b, so c = 0.3974, a = 0.3878, b = 0.2148.
	if fmt.Sprint(s.InValues, s.OutValues) != "[2 1] [2 1]" || len(s.Results[1].Values) != 2 ||
		math.Abs(s.Results[1].Values[0]-0.3974) > 0.001 || math.Abs(s.Results[1].Values[1]-0.3878) > 0.001 {
		t.Errorf("values: in %v, out %v, PageRank %v; want [2 1], [2 1], [0.3974 0.3878]", s.InValues, s.OutValues, s.Results[1].Values)
	}
	if _, text, _ := runner(t, "rank", "-graph", g, "-epsilon", "0.001", "-top", "2"); !strings.Contains(text, "c (2) a (1)") ||
		!regexp.MustCompile(`1\. c +0\.397`).MatchString(text) || !strings.Contains(text, "overlap of the top 100") {
		t.Errorf("text output without values or a word on the overlap:\n%s", text)
	}
	// stderr is not a terminal: JSON logs, one of them the reading's counts.
	read := false
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("stderr line %q is not JSON: %v", line, err)
		}
		if rec["msg"] == "read graph" {
			read = rec["vertices"] == 3.0 && rec["dropped_duplicates"] == 1.0 && rec["dropped_self_loops"] == 0.0
		}
	}
	if !read {
		t.Errorf("stderr = %q, want a read graph record with the duplicate", stderr)
	}
	out := t.TempDir()
	code, _, wrote := runner(t, "rank", "-graph", g, "-out", out)
	if code != 0 || !strings.Contains(wrote, `"msg":"wrote outputs"`) {
		t.Fatalf("rank -out: exit %d, %s; want a wrote outputs record", code, wrote)
	}
	for _, f := range []string{"graph.txt", "edges.parquet", "degrees.parquet", "ranks/0.01.parquet", "ranks/0.005.parquet"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("rank -out: %v", err)
		}
	}
	// rank -out logs the command that reads its tables back; that command
	// gives the same ranks, and the edges alone say what they lack.
	back := regexp.MustCompile(`"read_back":"runner (rank [^"]*)"`).FindStringSubmatch(wrote)
	_, want, _ := runner(t, "rank", "-graph", g, "-format", "json")
	if back == nil {
		t.Fatalf("rank -out logs no command to read its tables back: %s", stderr)
	} else if _, got, _ := runner(t, append(strings.Fields(back[1]), "-format", "json")...); got != want {
		t.Errorf("%s: %s, want %s", back[1], got, want)
	}
	if _, _, stderr := runner(t, "rank", "-graph", filepath.Join(out, "edges.parquet")); !strings.Contains(stderr, "isolated vertices are left out") {
		t.Errorf("edges.parquet without -vertices: no word on isolated vertices: %s", stderr)
	}
	code, _, stderr = runner(t, "rank", "-graph", writeJobs(t, "3\na b\nb c d\n"))
	if code != 2 || !strings.Contains(stderr, "line 3") {
		t.Errorf("malformed file: exit %d, %s", code, stderr)
	}
}

// rank reads gzip-compressed files and standard input, compressed or not,
// to the same graph as the plain file.
func TestRankGzipAndStdin(t *testing.T) {
	plain := "3\na b\nb c\nc a\na c\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(plain))
	zw.Close()
	dir := t.TempDir()
	for name, data := range map[string][]byte{"g.txt": []byte(plain), "g.txt.gz": gz.Bytes(), "bad.gz": gz.Bytes()[:12]} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, want, _ := runner(t, "rank", "-graph", filepath.Join(dir, "g.txt"), "-format", "json")
	if code, got, stderr := runner(t, "rank", "-graph", filepath.Join(dir, "g.txt.gz"), "-format", "json"); code != 0 || got != want {
		t.Errorf("gzip: exit %d, %s%s; want %s", code, got, stderr, want)
	}
	if code, _, stderr := runner(t, "rank", "-graph", filepath.Join(dir, "bad.gz")); code != 2 || !strings.Contains(stderr, "bad.gz") ||
		!strings.Contains(stderr, "truncated") {
		t.Errorf("truncated gzip: exit %d, %s", code, stderr)
	}
	for _, stdin := range [][]byte{[]byte(plain), gz.Bytes()} {
		r, closeInput, err := graph.OpenInput(context.Background(), "-", bytes.NewReader(stdin))
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := graph.ReadEdgeList(r, graph.ReadOptions{})
		closeInput()
		if err != nil || g.NumVertices() != 3 || g.NumEdges() != 4 {
			t.Errorf("stdin: %v", err)
		}
	}
}

// evaluate prints a row per strategy and writes its tables and chart;
// bad flags are usage errors.
func TestEvaluateCommand(t *testing.T) {
	jobs := writeJobs(t, jobsYAML)
	for _, args := range [][]string{
		{"evaluate", "-config", jobs},
		{"evaluate", "-config", jobs, "-job", "gen", "-strategies", "bfs,greedy"},
		{"evaluate", "-config", jobs, "-job", "gen", "-admission", "eager"},
		{"evaluate", "-config", jobs, "-job", "nope"},
	} {
		if code, _, stderr := runner(t, args...); code != 2 {
			t.Errorf("runner %q: exit %d, want 2 (%s)", args, code, stderr)
		}
	}
	w := wikitest.New(t, 200)
	out := t.TempDir()
	code, stdout, stderr := runner(t, "evaluate", "-config", jobs, "-job", "gen", "-strategies", "bfs,similarity",
		"-admission", "best-first", "-out", out, "-base-url", w.URL())
	if code != 0 || !strings.Contains(stdout, "best-first admission, 40 pages") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, s := range []string{"bfs", "similarity"} {
		// fetched and 404s add up to the 40 pages.
		m := regexp.MustCompile(`(?m)^ +` + s + ` +(\d+) +(\d+) +\d+ +[01]\.\d{3} +\d+ +\d+ *$`).FindStringSubmatch(stdout)
		if m == nil || atoi(m[1])+atoi(m[2]) != 40 {
			t.Errorf("no row for %s accounting for 40 pages:\n%s", s, stdout)
		}
	}
	runs, _ := filepath.Glob(filepath.Join(out, "gen", "evaluate", "*", "harvest.png"))
	if len(runs) != 1 {
		t.Errorf("harvest.png written %d times, want once", len(runs))
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// A hostile input ends rank at once with exit 2 and a message naming what
// is wrong; SIGINT or SIGTERM (a done context) stops it with exit 1.
func TestRankHostileInputs(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"header.txt": "4000000000\n", "big-header.txt": "100000000\na b\n"}
	for name, data := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
		if code, _, stderr := runner(t, "rank", "-graph", filepath.Join(dir, name)); code != 2 || !strings.Contains(stderr, "the header says") {
			t.Errorf("%s: exit %d, %s", name, code, stderr)
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if code, _, stderr := runner(t, "rank", "-graph", "/dev/zero"); code != 2 || !strings.Contains(stderr, "longer than") {
			t.Errorf("/dev/zero: exit %d, %s", code, stderr)
		}
	}
	g := filepath.Join(dir, "g.txt")
	os.WriteFile(g, []byte("2\na b\n"), 0o644)
	outDir := filepath.Join(dir, "out")
	if code, _, stderr := runner(t, "rank", "-graph", g, "-out", outDir, "-edge-list", "xz"); code != 2 || !strings.Contains(stderr, `-edge-list "xz"`) {
		t.Errorf("-edge-list xz: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(outDir); !os.IsNotExist(err) {
		t.Errorf("-edge-list xz wrote %s: %v", outDir, err)
	}
	// -edge-list zstd writes graph.txt.zst, which rank reads back as it is.
	if code, _, stderr := runner(t, "rank", "-graph", g, "-out", outDir, "-edge-list", "zstd"); code != 0 {
		t.Fatalf("-edge-list zstd: exit %d, %s", code, stderr)
	}
	if code, stdout, stderr := runner(t, "rank", "-graph", filepath.Join(outDir, "graph.txt.zst"), "-format", "json"); code != 0 || !strings.Contains(stdout, `"b"`) {
		t.Errorf("rank of graph.txt.zst: exit %d, %s %s", code, stdout, stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	err := cmdRank(ctx, []string{"-graph", g}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("cancelled rank: %v", err)
	}
}

func TestVersion(t *testing.T) {
	if code, out, _ := runner(t, "--version"); code != 0 || !strings.HasPrefix(out, "topicrank runner ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// status exits 1 while a scheduled job has no complete run, 0 once it has.
func TestStatusCommand(t *testing.T) {
	jobs := writeJobs(t, strings.Replace(jobsYAML, "  - name: gen\n", "  - name: gen\n    schedule: \"@daily\"\n", 1))
	out := t.TempDir()
	if code, stdout, _ := runner(t, "status", "-config", jobs, "-out", out); code != 0 || !strings.Contains(stdout, "gen  never run") {
		t.Errorf("no runs: exit %d\n%s", code, stdout)
	}
	code, _, stderr := runner(t, "status", "-config", jobs, "-out", filepath.Join(out, "missing"))
	if code != 2 || !strings.Contains(stderr, "missing is not a folder") || strings.Contains(stderr, "status: status") {
		t.Errorf("a missing -out: exit %d, %s", code, stderr)
	}
	bad := writeJobs(t, strings.Replace(jobsYAML, "/wiki/Page_0", "/wiki/Nowhere", 1))
	bad = writeJobs(t, strings.Replace(readFile(t, bad), "  - name: gen\n", "  - name: gen\n    schedule: \"@daily\"\n", 1))
	runner(t, "run", "-config", bad, "-out", out, "-base-url", wikitest.New(t, 10).URL())
	code, stdout, stderr := runner(t, "status", "-config", bad, "-out", out)
	if code != 1 || !strings.Contains(stdout, "FAILING: no complete run") || strings.Count(stderr, "status:") != 1 {
		t.Errorf("only a partial run: exit %d\n%s%s", code, stdout, stderr)
	}
	out = t.TempDir()
	w := wikitest.New(t, 100)
	if code, _, stderr := runner(t, "run", "-config", jobs, "-out", out, "-base-url", w.URL()); code != 0 {
		t.Fatalf("run: exit %d, %s", code, stderr)
	}
	if code, stdout, _ := runner(t, "status", "-config", jobs, "-out", out); code != 0 || !strings.Contains(stdout, "gen  ok") {
		t.Errorf("after a run: exit %d\n%s", code, stdout)
	}
}

// rank -cpuprofile writes a profile pprof reads: a gzipped protocol
// buffer. A profile file it cannot create is an error before any work.
func TestRankCPUProfile(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "g.txt")
	os.WriteFile(g, []byte("3\na b\nb c\nc a\n"), 0o644)
	prof := filepath.Join(dir, "cpu.prof")
	if code, _, stderr := runner(t, "rank", "-graph", g, "-cpuprofile", prof); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("profile of %d bytes does not start as gzip: % x", len(data), data[:min(len(data), 4)])
	}
	code, _, stderr := runner(t, "rank", "-graph", g, "-cpuprofile", filepath.Join(dir, "no", "such", "dir", "cpu.prof"))
	if code == 0 || !strings.Contains(stderr, "-cpuprofile") {
		t.Errorf("a profile in a missing directory: exit %d, %s", code, stderr)
	}
}

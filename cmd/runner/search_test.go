package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// runner search finds the crawled pages by their words, as text and
// JSON; a bad query, a missing run and a run without an index are errors
// that say what is wrong.
func TestSearchCommand(t *testing.T) {
	w := wikitest.New(t, 200)
	out := t.TempDir()
	if code, stdout, stderr := runner(t, "run", "-config", writeJobs(t, jobsYAML), "-out", out, "-base-url", w.URL()); code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr := runner(t, "search", "-out", out, "-job", "gen", "-top", "3", "tennis")
	if code != 0 || !strings.Contains(stdout, "pages match \"tennis\"") || !strings.Contains(stdout, " 1. ") || !strings.Contains(stdout, "«tennis»") {
		t.Fatalf("search: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// Flags after the query are flags, not query words; after -- they are words.
	before := stdout
	if code, after, stderr := runner(t, "search", "-out", out, "-job", "gen", "tennis", "-top", "3"); code != 0 || after != before {
		t.Errorf("search with -top 3 after the query: exit %d, %s\n%s\nwant what it gives before the query:\n%s", code, stderr, after, before)
	}
	if _, quoted, _ := runner(t, "search", "-out", out, "-job", "gen", `"grand slam"`); !strings.Contains(quoted, `pages match "grand slam"`+"\n") {
		t.Errorf("a quoted query is not echoed as typed: %s", quoted)
	}
	if _, words, _ := runner(t, "search", "-out", out, "-job", "gen", "--", "tennis", "-top"); !strings.Contains(words, `match "tennis -top"`) {
		t.Errorf("after --, -top is a query word: %s", words)
	}
	code, stdout, _ = runner(t, "search", "-out", out, "-job", "gen", "-format", "json", "-rank-weight", "0", "tennis")
	var res struct {
		RunID string `json:"run_id"`
		Total int    `json:"total"`
		Hits  []struct {
			Page        string
			Score, BM25 float64
			TitleScore  float64 `json:"title_score"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != 0 || len(res.Hits) == 0 || res.Total < len(res.Hits) {
		t.Fatalf("json: exit %d, %v\n%s", code, err, stdout)
	}
	for _, h := range res.Hits {
		if h.Score != h.BM25+h.TitleScore {
			t.Errorf("-rank-weight 0: %s scores %v, want bm25 + title %v", h.Page, h.Score, h.BM25+h.TitleScore)
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-job", "gen", `"unclosed`}, "unterminated quote"},
		{[]string{"-job", "gen"}, "no query"},
		{[]string{"tennis"}, "-job is required"},
		{[]string{"-job", "gen", "-run", "20000101T000000Z", "tennis"}, "job \"gen\" has no run 20000101T000000Z; its runs: "},
		{[]string{"-job", "nojob", "tennis"}, "nothing published under " + filepath.Join(out, "nojob")},
		{[]string{"-job", "nojob", "-config", writeJobs(t, jobsYAML), "tennis"}, "no job nojob in "},
	} {
		code, _, stderr := runner(t, append([]string{"search", "-out", out}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("search %q: exit %d, %s\nwant exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if err := os.RemoveAll(filepath.Join(out, "gen", res.RunID, "index")); err != nil {
		t.Fatal(err)
	}
	// The manifest lists the index: a run whose index is gone is damaged.
	if code, _, stderr := runner(t, "search", "-out", out, "-job", "gen", "tennis"); code != 1 ||
		!strings.Contains(stderr, "is damaged: its manifest lists a search index, but "+filepath.Join(out, "gen", res.RunID, "index")+" is missing") {
		t.Errorf("a run whose index was deleted: exit %d, %s", code, stderr)
	}
}

// -category folds titles as MediaWiki does.
func TestFoldCategory(t *testing.T) {
	for in, want := range map[string]string{
		"cities in King County, Washington":          "Cities_in_King_County,_Washington",
		"Category:Cities_in_King_County,_Washington": "Cities_in_King_County,_Washington",
		" category:écoles ":                          "Écoles",
		"Living people":                              "Living_people",
	} {
		if got := foldCategory(in); got != want {
			t.Errorf("foldCategory(%q) = %q, want %q", in, got, want)
		}
	}
}

// -category keeps the pages of a category; a run without categories.parquet
// (published before it existed) says so.
func TestSearchCategory(t *testing.T) {
	w := wikitest.New(t, 100)
	out := t.TempDir()
	if code, stdout, stderr := runner(t, "run", "-config", writeJobs(t, jobsYAML), "-out", out, "-base-url", w.URL()); code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The generated wiki's pages have no categories: nothing is kept.
	if code, stdout, _ := runner(t, "search", "-out", out, "-job", "gen", "-category", "Tennis", "tennis"); code != 0 || !strings.Contains(stdout, "0 of ") {
		t.Errorf("a category no page has: exit %d\n%s", code, stdout)
	}
	_, m, err := pipeline.FindRun(out, "gen", "")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(out, "gen", m.RunID, "categories.parquet"))
	if code, _, stderr := runner(t, "search", "-out", out, "-job", "gen", "-category", "Tennis", "tennis"); code != 2 || !strings.Contains(stderr, "has no categories.parquet") {
		t.Errorf("a run without categories: exit %d\n%s", code, stderr)
	}
}

// evaluate with nothing reachable (offline, a wrong -base-url) fails as
// run does, and leaves no results folder.
func TestEvaluateNothingFetchedFails(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runner(t, "evaluate", "-config", "../../internal/snapshot/demo.yaml", "-job", "demo", "-strategies", "bfs",
		"-out", out, "-base-url", "http://127.0.0.1:1")
	if code != 1 || !strings.Contains(stderr, "no crawl fetched a page") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if entries, _ := os.ReadDir(filepath.Join(out, "demo", "evaluate")); len(entries) > 0 {
		t.Errorf("results left: %v", entries)
	}
}

// rank -out checks its folder before reading anything: a file as -out
// fails at once, naming it, not after the graph was read and ranked.
func TestRankOutCheckedFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	code, _, stderr := runner(t, "rank", "-graph", filepath.Join(t.TempDir(), "no-such-graph.txt"), "-out", file)
	if code != 2 || !strings.Contains(stderr, "-out folder "+file) || strings.Contains(stderr, "no-such-graph") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

// Wording a newcomer met: --help, singulars, the usage's defaults.
func TestWording(t *testing.T) {
	if code, stdout, _ := runner(t, "--help"); code != 0 || !strings.Contains(stdout, "usage: runner") {
		t.Errorf("--help: exit %d\n%s", code, stdout)
	}
	if !strings.Contains(usage, "[-grace 2m]") {
		t.Error("the usage's -grace default is not schedule's")
	}
	one := writeJobs(t, "defaults:\n  user_agent: \"x/0.1 (ops@example.org)\"\njobs:\n  - {name: a, seeds: [/wiki/A], topics: [a]}\n")
	if code, stdout, _ := runner(t, "validate", "-config", one); code != 0 || !strings.Contains(stdout, ": 1 job, valid") {
		t.Errorf("validate of one job: exit %d\n%s", code, stdout)
	}
	t.Chdir(t.TempDir())
	if code, _, stderr := runner(t, "report", "-job", "demo"); code != 2 || !strings.Contains(stderr, "outputs is relative to the current folder; -out names the output root") {
		t.Errorf("report with nothing under the relative outputs: exit %d\n%s", code, stderr)
	}
	g := filepath.Join(t.TempDir(), "g.txt")
	os.WriteFile(g, []byte("2\na b\n"), 0o644)
	if code, stdout, _ := runner(t, "rank", "-graph", g, "-epsilon", "2"); code != 0 || !strings.Contains(stdout, "2 vertices, 1 edge\n") || !strings.Contains(stdout, ": 1 iteration,") {
		t.Errorf("rank of one edge: exit %d\n%s", code, stdout)
	}
}

//go:build cgo

package main

import (
	"database/sql"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	_ "github.com/marcboeker/go-duckdb" // real DuckDB, for tests only

	"github.com/topicrank/topicrank/internal/snapshot"
	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/report"
	"github.com/topicrank/topicrank/stages/publish"
)

// TestDemo runs the demo, which needs neither ../shared nor a network: two
// nights crawled from the shipped snapshot, the second finding changed
// pages, a report whose rank history has both nights, and next commands
// that each work as printed.
func TestDemo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "outputs")
	code, stdout, stderr := runner(t, "demo", "-out", out)
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s\n%s", code, stdout, stderr)
	}
	runs, err := pipeline.CompleteRuns(out, "demo")
	if err != nil || len(runs) != 2 {
		t.Fatalf("demo published %v (%v), want two complete runs", runs, err)
	}
	second, err := pipeline.ReadManifest(filepath.Join(out, "demo", runs[1]))
	if err != nil {
		t.Fatal(err)
	}
	c := second.Counts
	if c.NotModified == 0 || c.Changed == 0 || c.Fetched == 0 || c.Relevant == 0 || second.PreviousRunID != runs[0] {
		t.Errorf("night 2: %d unchanged, %d changed, %d fetched, %d relevant, previous %q: want a re-crawl that found edits",
			c.NotModified, c.Changed, c.Fetched, c.Relevant, second.PreviousRunID)
	}
	d, err := report.Read(out, "demo", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.History.Runs) != 2 || len(d.Movers) == 0 {
		t.Errorf("the report's rank history has %d runs and %d movers, want 2 and some", len(d.History.Runs), len(d.Movers))
	}
	// The report leads with what changed: exactly the pages the demo
	// edited (a new revision) among those of both nights, each with its
	// diff, and the page it deleted, gone; no failed page is in a top list
	// as if it were an article.
	if c.Changed != len(d.Digest.Edited) || len(d.Digest.Changed) != 0 {
		t.Errorf("night 2: %d pages changed, %d edited, %d changed without an edit: the demo's edits and only they change content", c.Changed, len(d.Digest.Edited), len(d.Digest.Changed))
	}
	if len(d.Digest.Failed) != 1 || d.Digest.Failed[0].Page != "/wiki/"+snapshot.DeletedTitle || d.Digest.Failed[0].Cause != publish.CauseGone {
		t.Errorf("the report's pages gone: %+v, want the deleted %s", d.Digest.Failed, snapshot.DeletedTitle)
	}
	edited := map[string]bool{}
	for _, e := range d.Digest.Edited {
		edited[e.Page] = true
		if e.Revision != e.PreviousRevision+1 || !strings.Contains(e.DiffURL(d.Wiki()), "diff=") {
			t.Errorf("edit of %s: revisions %d and %d, link %s", e.Page, e.PreviousRevision, e.Revision, e.DiffURL(d.Wiki()))
		}
	}
	snap, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	run, err := publish.ReadPrevious(filepath.Join(out, "demo", second.RunID))
	if err != nil {
		t.Fatal(err)
	}
	first, err := publish.ReadPrevious(filepath.Join(out, "demo", runs[0]))
	if err != nil {
		t.Fatal(err)
	}
	for p := range run.InDegree {
		_, failed := run.Unsound[p]
		if _, before := first.InDegree[p]; failed || !before { // an edit is news of a page kept
			continue
		}
		title := strings.TrimPrefix(p, "/wiki/")
		body := snap.Pages[title]
		if body == nil {
			continue
		}
		if _, last := snapshot.Edit(title, body, 2); (last == 2) != edited[p] {
			t.Errorf("%s: edited by the demo on night 2 %v, in the report's edits %v", p, last == 2, edited[p])
		}
	}
	// explain takes a page's rank apart: its shares sum to the published rank.
	code, js, errs := runner(t, "explain", "-out", out, "-job", "demo", "-format", "json", "Seattle")
	var e report.Explanation
	if code != 0 || json.Unmarshal([]byte(js), &e) != nil {
		t.Fatalf("explain Seattle: exit %d\n%s\n%s", code, js, errs)
	}
	if published := run.Ranks[e.Epsilon]["/wiki/Seattle"].Rank; e.Rank != published || math.Abs(e.Sum-e.Rank) > 1e-9 || len(e.Links) == 0 || e.Without == nil || !(e.Without.Rank < e.Rank) || !strings.Contains(e.TopicWords, "seattle") {
		t.Errorf("explain Seattle: rank %v (published %v), shares sum %v, %d in-links, without the best %+v, topic words %q", e.Rank, published, e.Sum, len(e.Links), e.Without, e.TopicWords)
	}
	if code, _, errs := runner(t, "explain", "-out", out, "-job", "demo", "No_such_page"); code != 2 || !strings.Contains(errs, "not a vertex of run "+second.RunID) {
		t.Errorf("explain of no vertex: exit %d\n%s", code, errs)
	}
	// Topic ranks first; the top pages say why they rank there, in shares
	// that sum to their rank.
	if len(d.Tops) != 2 || !d.Tops[0].Topic || d.Tops[1].Topic {
		t.Errorf("the report's top lists: %d, want topic-sensitive PageRank then PageRank", len(d.Tops))
	}
	for _, top := range d.Tops {
		for _, p := range top.Pages[:report.WhyTop] {
			if p.Why == nil || math.Abs(p.Why.Sum-p.Rank) > 1e-9 || len(p.Why.Links) == 0 {
				t.Errorf("%s, %s: why here %+v", top.Measure, p.Name, p.Why)
			}
		}
	}
	for _, top := range d.Tops {
		for _, p := range top.Pages {
			if _, failed := run.Unsound[p.Name]; failed {
				t.Errorf("failed page %s in the top list", p.Name)
			}
		}
	}
	if code, _, stderr := runner(t, "report", "-out", out, "-job", "demo", "-o", "/no/such/dir/r.html"); code != 2 || !strings.Contains(stderr, "-o /no/such/dir/r.html") {
		t.Errorf("report -o into a missing folder: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runner(t, "report", "-out", out, "-job", "demo", "-run", "../x"); code != 2 || !strings.Contains(stderr, `-run "../x" is not a run id`) {
		t.Errorf("report -run ../x: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runner(t, "search", "-out", out, "-job", "demo", "-run", "20000101T000000Z", "x"); code != 2 || !strings.Contains(stderr, "its runs: ") || !strings.Contains(stderr, second.RunID) {
		t.Errorf("search -run of no run: exit %d\n%s", code, stderr)
	}
	// status with jobs.yaml says how to see the demo's job.
	if _, stdout, _ := runner(t, "status", "-config", "../../jobs.yaml", "-out", out); !strings.Contains(stdout, "runner status -config internal/snapshot/demo.yaml") {
		t.Errorf("status names no way to the demo's job:\n%s", stdout)
	}
	if code, stdout, _ := runner(t, "status", "-config", "../../internal/snapshot/demo.yaml", "-out", out); code != 0 || !strings.Contains(stdout, "demo ") {
		t.Errorf("status of the demo's job: exit %d\n%s", code, stdout)
	}
	// The demo's pages keep their categories: the report ranks them.
	if len(d.Categories) != report.TopCategories || d.Categories[0].Rank < d.Categories[1].Rank {
		t.Errorf("the report's categories: %+v", d.Categories)
	}
	for _, c := range d.Categories {
		if strings.HasPrefix(c.Name, "Articles_") || strings.HasPrefix(c.Name, "CS1_") || strings.HasPrefix(c.Name, "Wikipedia_") {
			t.Errorf("a hidden category in the report: %s", c.Name)
		}
	}
	reportPath := regexp.MustCompile(`report of the second night: (\S+)`).FindStringSubmatch(stdout)
	if reportPath == nil {
		t.Fatalf("the demo names no report:\n%s", stdout)
	}
	if _, err := os.Stat(reportPath[1]); err != nil {
		t.Errorf("the report it names: %v", err)
	}

	// The next commands, as printed.
	runnerCmds := regexp.MustCompile(`(?m)^  go run \./cmd/runner (.*?)(\s+#.*)?$`).FindAllStringSubmatch(stdout, -1)
	if len(runnerCmds) != 3 {
		t.Fatalf("%d runner commands printed, want 3:\n%s", len(runnerCmds), stdout)
	}
	for _, m := range runnerCmds {
		args := shellWords(t, m[1])
		if args[0] == "run" { // the real crawl needs the network: check its job exists
			code, _, errs := runner(t, "validate", "-config", "../../jobs.yaml")
			if code != 0 || !strings.Contains(m[1], "-job seattle") {
				t.Errorf("%q: the repository's jobs.yaml: exit %d, %s", m[1], code, errs)
			}
			continue
		}
		code, got, errs := runner(t, args...)
		if code != 0 || got == "" {
			t.Errorf("runner %s: exit %d\n%s", m[1], code, errs)
		}
		if args[0] == "search" && !strings.Contains(got, "Space Needle") && !strings.Contains(got, "Space_Needle") {
			t.Errorf("runner %s finds no Space Needle:\n%s", m[1], got)
		}
	}
	// A second demo replaces the first's runs; a folder holding a run the
	// demo did not make is refused, untouched.
	if code, _, stderr := runner(t, "demo", "-out", out); code != 0 {
		t.Fatalf("second demo: exit %d\n%s", code, stderr)
	}
	if runs, _ := pipeline.CompleteRuns(out, "demo"); len(runs) != 2 {
		t.Errorf("after a second demo: %d runs, want its 2", len(runs))
	}
	mine := filepath.Join(out, "demo", "20200101T000000Z")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "manifest.json"), []byte(`{"job":"demo","run_id":"20200101T000000Z","fetched_from":"https://en.wikipedia.org"}`), 0o644)
	if code, _, stderr := runner(t, "demo", "-out", out); code != 2 || !strings.Contains(stderr, "holds runs runner demo did not make") {
		t.Errorf("a demo folder holding another run: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(mine, "manifest.json")); err != nil {
		t.Errorf("the user's run was touched: %v", err)
	}
	q := regexp.MustCompile(`(?s)duckdb -c "(.*?)"`).FindStringSubmatch(stdout)
	if q == nil {
		t.Fatalf("no DuckDB query printed:\n%s", stdout)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(q[1])
	if err != nil {
		t.Fatalf("the printed query: %v", err)
	}
	defer rows.Close()
	var pages []string
	for rows.Next() {
		var page string
		var rank float64
		if err := rows.Scan(&page, &rank); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page)
	}
	if len(pages) != 10 || !strings.HasPrefix(pages[0], "/wiki/") {
		t.Errorf("the printed query gave %q", pages)
	}
}

// shellWords splits a command line as sh would, for the simple quoting
// the printed commands use.
func shellWords(t *testing.T, s string) []string {
	var words []string
	for _, m := range regexp.MustCompile(`"([^"]*)"|(\S+)`).FindAllStringSubmatch(s, -1) {
		words = append(words, m[1]+m[2])
	}
	return words
}

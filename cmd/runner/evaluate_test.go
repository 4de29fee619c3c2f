package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// evaluate -job all with people's labels evaluates every job, then
// prints each strategy's means over them: night by night, the mean of
// the jobs' own rows. Naming jobs that do not exist, -label-topic with
// several jobs, and -revisit with several are usage errors.
func TestEvaluateSeveralJobs(t *testing.T) {
	jobs := writeJobs(t, jobsYAML+`  - name: gen2
    seeds: [/wiki/Page_3]
    topics: [tennis]
    max_pages: 30
`)
	var tsv strings.Builder
	tsv.WriteString("page\tgen\tgen2\n")
	for i := range 200 {
		fmt.Fprintf(&tsv, "Page_%d\t%d\t%d\n", i, i%3%2, (i+1)%2)
	}
	labels := filepath.Join(t.TempDir(), "labels.tsv")
	if err := os.WriteFile(labels, []byte(tsv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-job", "gen,nope"},
		{"-job", "all", "-labels", labels, "-label-topic", "gen"},
		{"-job", "all", "-revisit"},
		{"-job", "gen", "-label-judge"},
	} {
		if code, _, stderr := runner(t, append([]string{"evaluate", "-config", jobs}, args...)...); code != 2 {
			t.Errorf("evaluate %q: exit %d, want 2 (%s)", args, code, stderr)
		}
	}
	w := wikitest.New(t, 200)
	// A job without its column in the labels fails before any job crawls.
	oneColumn := filepath.Join(t.TempDir(), "gen.tsv")
	os.WriteFile(oneColumn, []byte("page\tgen\nPage_0\t1\n"), 0o644)
	early := t.TempDir()
	code, stdout, stderr := runner(t, "evaluate", "-config", jobs, "-job", "all", "-strategies", "bfs", "-labels", oneColumn,
		"-out", early, "-base-url", w.URL())
	if entries, _ := os.ReadDir(early); code != 2 || !strings.Contains(stderr, `no topic "gen2" (it has gen)`) || len(entries) > 0 || stdout != "" {
		t.Errorf("labels without gen2's column: exit %d, %d outputs\n%s%s", code, len(entries), stdout, stderr)
	}
	code, stdout, stderr = runner(t, "evaluate", "-config", jobs, "-job", "all", "-strategies", "bfs,similarity,oracle",
		"-admission", "best-first", "-nights", "2", "-labels", labels, "-out", t.TempDir(), "-base-url", w.URL())
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	summary := strings.Index(stdout, "similarity over 2 topics, means judged by people's labels")
	if summary < 0 || strings.Count(stdout, "judged by people's labels (relevant") != 2 {
		t.Fatalf("no summary after two jobs' tables:\n%s", stdout)
	}
	for night := 1; night <= 2; night++ {
		rows := regexp.MustCompile(fmt.Sprintf(`(?m)^ +similarity +%d +\d+ +([01]\.\d{3})`, night)).FindAllStringSubmatch(stdout[:summary], -1)
		mean := regexp.MustCompile(fmt.Sprintf(`(?m)^ +%d +([01]\.\d{3}) `, night)).FindStringSubmatch(stdout[summary:])
		if len(rows) != 2 || mean == nil {
			t.Fatalf("night %d: rows %v, mean %v\n%s", night, rows, mean, stdout)
		}
		a, _ := strconv.ParseFloat(rows[0][1], 64)
		b, _ := strconv.ParseFloat(rows[1][1], 64)
		m, _ := strconv.ParseFloat(mean[1], 64)
		if math.Abs((a+b)/2-m) > 0.0011 {
			t.Errorf("night %d: the jobs harvest %.3f and %.3f, the summary says %.3f", night, a, b, m)
		}
	}
	if !strings.Contains(stdout[summary:], "consecutive nights' Jaccard") {
		t.Errorf("the summary lacks the Jaccard:\n%s", stdout[summary:])
	}
	// Without labels: each job's churn, and the means by the crawls' own
	// relevance.
	code, stdout, stderr = runner(t, "evaluate", "-config", jobs, "-job", "all", "-strategies", "similarity",
		"-admission", "best-first", "-nights", "2", "-out", t.TempDir(), "-base-url", w.URL())
	if code != 0 {
		t.Fatalf("without labels: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if strings.Count(stdout, "vertices since the night before") != 2 ||
		!strings.Contains(stdout, "similarity over 2 topics, means judged by the crawls' own relevance") ||
		!strings.Contains(stdout, "consecutive nights' Jaccard") {
		t.Errorf("without labels, no churn or summary:\n%s", stdout)
	}
}

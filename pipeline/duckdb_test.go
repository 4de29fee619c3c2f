//go:build cgo

package pipeline

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	_ "github.com/marcboeker/go-duckdb" // real DuckDB, for tests only: cgo stays out of the runner

	"github.com/topicrank/topicrank/internal/duckdbtest"
	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/rank"
)

// runState is one run's in-memory results, computed by calling the stages
// directly on the same (static) wiki the runner crawled.
type runState struct {
	id    string
	res   *crawl.Result
	g     *graph.Graph
	ranks map[float64]rank.Result
}

// TestOutputsREADMEQueries runs every query of outputs/README.md with
// DuckDB against two published runs and checks each answer.
func TestOutputsREADMEQueries(t *testing.T) {
	queries := readmeQueries(t)
	w := wikitest.New(t, 300)
	r := testRunner(t, w.URL())
	r.OutDir = filepath.Join(t.TempDir(), "outputs")
	var runs []runState
	for _, max := range []int{60, 90} {
		job := testJob("demo", max) // the job outputs/README.md's queries name
		m, err := r.Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := r.CrawlConfig(job, r.logger())
		if err != nil {
			t.Fatal(err)
		}
		res, err := crawl.Crawl(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		g, err := BuildGraph(res)
		if err != nil {
			t.Fatal(err)
		}
		st := runState{id: m.RunID, res: res, g: g, ranks: map[float64]rank.Result{}}
		for _, rr := range rank.PageRank(g, job.Beta, job.Epsilons) {
			st.ranks[rr.Epsilon] = rr
		}
		runs = append(runs, st)
	}

	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // the search path is per connection
	if _, err := db.Exec(fmt.Sprintf("SET file_search_path = '%s'", filepath.Dir(r.OutDir))); err != nil {
		t.Fatal(err)
	}
	readsEveryFile(t, db, filepath.Join(r.OutDir, "demo", runs[1].id))
	want := expectedAnswers(runs)
	for name, q := range queries {
		exp, ok := want[name]
		if !ok {
			t.Errorf("outputs/README.md query %q has no check in this test: add one", name)
			continue
		}
		got := query(t, db, q)
		if !slices.Equal(got, exp) {
			t.Errorf("query %s:\n got %q\nwant %q", name, got, exp)
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("query %s is checked here but missing from outputs/README.md", name)
	}
	checkWithCLI(t, filepath.Dir(r.OutDir), queries, expectedAnswers(runs))
}

// checkWithCLI runs each query through the DuckDB command-line client, a
// second DuckDB version, when one is installed, and compares the number of
// rows and the first column with the driver's answer.
func checkWithCLI(t *testing.T, dir string, queries map[string]string, want map[string][]string) {
	cli, err := exec.LookPath("duckdb")
	if err != nil {
		t.Log("no duckdb command-line client: queries checked with the Go driver's DuckDB only")
		return
	}
	for name, q := range queries {
		cmd := exec.Command(cli, "-csv", "-noheader", "-c", q)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("duckdb CLI, query %s: %v\n%s", name, err, out)
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(want[name]) == 0 && strings.TrimSpace(string(out)) == "" {
			continue
		}
		if len(lines) != len(want[name]) {
			t.Errorf("duckdb CLI, query %s: %d rows, want %d", name, len(lines), len(want[name]))
			continue
		}
		for i, l := range lines {
			first, _, _ := strings.Cut(l, ",")
			if wantFirst, _, _ := strings.Cut(want[name][i], " | "); strings.Trim(first, `"`) != wantFirst {
				t.Errorf("duckdb CLI, query %s row %d: %q, want it to start %q", name, i, l, wantFirst)
			}
		}
	}
}

// readsEveryFile checks that DuckDB reads every file the manifest of the
// run in dir lists, with the row count the manifest gives.
func readsEveryFile(t *testing.T, db *sql.DB, dir string) {
	t.Helper()
	m := verifyRun(t, dir)
	for _, f := range m.Files {
		if strings.HasPrefix(f.Path, indexDir+"/") {
			continue // the search index: bleve's own files
		}
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		q := fmt.Sprintf("SELECT count(*) FROM read_parquet('%s')", path)
		if f.Path == "graph.txt" {
			q = fmt.Sprintf("SELECT count(*) FROM read_csv('%s', delim = ' ', header = false, skip = 1, columns = {'u': 'VARCHAR', 'v': 'VARCHAR'})", path)
		}
		var n int64
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Errorf("DuckDB cannot read %s: %v", f.Path, err)
		} else if n != f.Rows {
			t.Errorf("DuckDB reads %d rows from %s, the manifest says %d", n, f.Path, f.Rows)
		}
	}
}

var queryBlock = regexp.MustCompile("(?s)```sql\n-- query: (\\w+)\n(.*?)```")

func readmeQueries(t *testing.T) map[string]string {
	b, err := os.ReadFile(filepath.Join("..", "outputs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	q := map[string]string{}
	for _, m := range queryBlock.FindAllStringSubmatch(string(b), -1) {
		q[m[1]] = m[2]
	}
	if len(q) < 5 {
		t.Fatalf("found %d queries in outputs/README.md", len(q))
	}
	return q
}

// query returns each row as its values joined by " | ".
func query(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	var out []string
	for _, vals := range duckdbtest.Rows(t, db, q) {
		out = append(out, row(vals...))
	}
	return out
}

func row(vals ...any) string {
	s := make([]string, len(vals))
	for i, v := range vals {
		switch v := v.(type) {
		case float64:
			s[i] = strconv.FormatFloat(v, 'g', -1, 64)
		default:
			s[i] = fmt.Sprint(v)
		}
	}
	return strings.Join(s, " | ")
}

func expectedAnswers(runs []runState) map[string][]string {
	prev, cur := runs[0], runs[1]
	want := map[string][]string{}
	for _, eps := range []float64{0.01, 0.005} {
		rr := cur.ranks[eps]
		for i, v := range rank.TopK(rr.Ranks, 10) {
			want["top_pages"] = append(want["top_pages"], row(eps, int32(i+1), cur.g.Name(v), rr.Ranks[v]))
		}
	}
	top := cur.g.Name(rank.TopK(cur.ranks[0.005].Ranks, 1)[0])
	for _, st := range runs {
		v := slices.IndexFunc(st.res.Pages, func(p crawl.Page) bool { return p.Key == top })
		if v < 0 {
			continue
		}
		for _, eps := range []float64{0.01, 0.005} {
			rr := st.ranks[eps]
			pos := slices.Index(rank.Order(rr.Ranks), uint32(v))
			want["page_history"] = append(want["page_history"], row(st.id, eps, int32(pos+1), rr.Ranks[v]))
		}
	}
	for i := len(runs) - 1; i >= 0; i-- {
		st := runs[i]
		g := st.res
		tally := crawl.CountPages(g.Pages)
		want["runs"] = append(want["runs"], row("demo", st.id, "complete", int32(len(g.Pages)), int64(st.g.NumEdges()),
			int32(tally.Fetched), int32(tally.Failed), int32(tally.Relevant), float64(tally.Relevant)/float64(tally.Judged())))
	}
	want["biggest_moves"] = moves(prev, cur)
	topic := rank.TopicPageRank(cur.g, 0.85, []float64{0.005}, relevances(cur.res))[0]
	byTopic := rank.TopK(topic.Ranks, 10)
	for i, v := range rank.TopK(cur.ranks[0.005].Ranks, 10) {
		want["topic_vs_pagerank"] = append(want["topic_vs_pagerank"], row(int32(i+1), cur.g.Name(v), cur.g.Name(byTopic[i])))
	}

	in, out := rank.Degrees(cur.g)
	r5 := cur.ranks[0.005]
	order := rank.Order(r5.Ranks)
	for _, v := range rank.TopK(in, 10) {
		want["indegree_vs_rank"] = append(want["indegree_vs_rank"],
			row(cur.g.Name(v), int32(in[v]), int32(out[v]), r5.Ranks[v], int32(slices.Index(order, v)+1)))
	}

	// Run 2 crawled the 60 vertices of run 1 and 30 more; the wiki is static.
	want["changes_summary"] = []string{row("kept", int64(60), int64(0)), row("new", int64(30), int64(0))}

	outcomes, states, relevant := map[string]int{}, map[string]int{}, map[string]int{}
	for _, p := range cur.res.Pages {
		outcome := string(p.State)
		if p.Class != "" {
			outcome += ": " + p.Class
		}
		outcomes[outcome]++
		states[string(p.State)]++
		if p.Relevant {
			relevant[string(p.State)]++
		}
	}
	for _, k := range byCount(states) {
		want["fetch_states"] = append(want["fetch_states"], row(k, int64(states[k]), int64(relevant[k])))
	}
	for _, k := range byCount(outcomes) {
		want["fetch_outcomes"] = append(want["fetch_outcomes"], row(k, int64(outcomes[k])))
	}
	return want
}

// byCount returns the keys of counts, the largest count first, then by name.
func byCount(counts map[string]int) []string {
	var names []string
	for k := range counts {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	return names
}

// moves is biggest_moves computed in Go.
func moves(prev, cur runState) []string {
	type move struct {
		page            string
		before, after   float64
		placesUp        int32
		absMoved, moved float64
	}
	pr, cr := prev.ranks[0.005], cur.ranks[0.005]
	prevPos := positions(pr.Ranks)
	curPos := positions(cr.Ranks)
	prevID := map[string]int{}
	for v, n := range prev.g.Names() {
		prevID[n] = v
	}
	failed := map[string]bool{} // in either run: never a mover
	for _, st := range []runState{prev, cur} {
		for _, p := range st.res.Pages {
			if p.State == crawl.Failed {
				failed[p.Key] = true
			}
		}
	}
	var ms []move
	for v, n := range cur.g.Names() {
		p, ok := prevID[n]
		if !ok || failed[n] {
			continue
		}
		d := cr.Ranks[v] - pr.Ranks[p]
		ms = append(ms, move{n, pr.Ranks[p], cr.Ranks[v], int32(prevPos[p] - curPos[v]), max(d, -d), d})
	}
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].absMoved != ms[j].absMoved {
			return ms[i].absMoved > ms[j].absMoved
		}
		return ms[i].page < ms[j].page
	})
	var rows []string
	for _, m := range ms[:10] {
		rows = append(rows, row(m.page, m.before, m.after, m.moved, m.placesUp))
	}
	return rows
}

func positions(ranks []float64) []int {
	pos := make([]int, len(ranks))
	for i, v := range rank.Order(ranks) {
		pos[v] = i + 1
	}
	return pos
}

// After a complete run, an interrupted (partial) run and a crashed
// publication, every documented glob reads complete runs only, epsilon is
// a DOUBLE however the ranks are read, and runs.parquet lists both runs.
func TestGlobsSeeCompleteRunsOnly(t *testing.T) {
	w := wikitest.New(t, 200)
	r := testRunner(t, w.URL())
	r.OutDir = filepath.Join(t.TempDir(), "outputs")
	done, err := r.Run(context.Background(), testJob("tennis", 40))
	if err != nil {
		t.Fatal(err)
	}
	job := testJob("tennis", 40)
	job.Seeds = []string{"/wiki/Nowhere"}
	partial, _ := r.Run(context.Background(), job)
	if partial == nil || partial.Status != StatusPartial {
		t.Fatalf("want a partial run, got %+v", partial)
	}
	// A publication killed midway leaves a half-written table in .tmp/.
	crashed := filepath.Join(r.OutDir, "tennis", tmpDir, "20991231T000000Z")
	os.MkdirAll(filepath.Join(crashed, "ranks"), 0o755)
	os.WriteFile(filepath.Join(crashed, "pages.parquet"), []byte("PAR1"), 0o644)
	os.WriteFile(filepath.Join(crashed, "ranks", "0.01.parquet"), []byte("PAR1"), 0o644)

	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := filepath.ToSlash(r.OutDir)
	for _, q := range []string{
		"SELECT DISTINCT run_id FROM read_parquet('%s/*/*/pages.parquet')",
		"SELECT DISTINCT run_id FROM read_parquet('%s/*/*/edges.parquet')",
		"SELECT DISTINCT run_id FROM read_parquet('%s/*/*/ranks/*.parquet')",
		"SELECT DISTINCT run_id FROM read_parquet('%s/tennis/*/ranks/*.parquet', hive_partitioning = true, union_by_name = true)",
	} {
		if got := query(t, db, fmt.Sprintf(q, out)); !slices.Equal(got, []string{done.RunID}) {
			t.Errorf("%s: runs %q, want only %s", q, got, done.RunID)
		}
	}
	for _, opts := range []string{"", ", hive_partitioning = true", ", union_by_name = true", ", hive_partitioning = true, union_by_name = true"} {
		q := fmt.Sprintf("SELECT DISTINCT typeof(epsilon) FROM read_parquet('%s/*/*/ranks/*.parquet'%s) WHERE epsilon < 0.01", out, opts)
		if got := query(t, db, q); !slices.Equal(got, []string{"DOUBLE"}) {
			t.Errorf("%s: %q, want DOUBLE", q, got)
		}
	}
	// created_by names topicrank's writer as "<program> version <version>";
	// the version is in the metadata too.
	pages := filepath.Join(r.OutDir, "tennis", done.RunID, "pages.parquet")
	if got := query(t, db, fmt.Sprintf("SELECT created_by FROM parquet_file_metadata('%s')", pages)); len(got) != 1 || !strings.HasPrefix(got[0], "topicrank version ") {
		t.Errorf("created_by = %q, want topicrank's", got)
	}
	if got := query(t, db, fmt.Sprintf("SELECT decode(value) FROM parquet_kv_metadata('%s') WHERE decode(key) = 'topicrank.version'", pages)); len(got) != 1 || got[0] == "" {
		t.Errorf("topicrank.version metadata = %q", got)
	}
	// The main README's own queries, with its job swapped for this one.
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readmeQueries := regexp.MustCompile(`(?s)duckdb -c "(.*?)"`).FindAllStringSubmatch(string(readme), -1)
	if len(readmeQueries) < 2 {
		t.Errorf("found %d duckdb -c queries in README.md, want at least 2", len(readmeQueries))
	}
	for _, m := range readmeQueries {
		q := strings.ReplaceAll(strings.ReplaceAll(m[1], "outputs/demo/", out+"/tennis/"), "'outputs/", "'"+out+"/")
		if rows := query(t, db, q); len(rows) == 0 {
			t.Errorf("README query returns nothing:\n%s", q)
		}
	}
	got := query(t, db, fmt.Sprintf("SELECT run_id, status FROM read_parquet('%s/*/runs.parquet') ORDER BY run_id", out))
	if want := []string{row(done.RunID, "complete"), row(partial.RunID, "partial")}; !slices.Equal(got, want) {
		t.Errorf("runs.parquet: %q, want %q", got, want)
	}
}

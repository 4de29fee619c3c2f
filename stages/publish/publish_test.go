package publish

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/rank"
)

// run builds the Input of a crawl over pages with the given edges.
func run(t *testing.T, id string, pages []string, hashes map[string]string, edges [][2]int, prev *Previous) *Input {
	t.Helper()
	res := &crawl.Result{Complete: true}
	b := graph.NewBuilder()
	for _, p := range pages {
		b.Vertex(p)
		res.Pages = append(res.Pages, crawl.Page{Key: p, Status: 200, ContentHash: hashes[p], FetchedAt: time.Unix(1e9, 0)})
	}
	for _, e := range edges {
		b.AddEdge(uint32(e[0]), uint32(e[1]))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return &Input{Job: "j", RunID: id, Crawl: res, Graph: g, Ranks: rank.PageRank(g, 0.85, []float64{0.01, 0.001}), Previous: prev}
}

func TestWriteReadPreviousAndChanges(t *testing.T) {
	dir := t.TempDir()
	first := run(t, "r1", []string{"/wiki/A", "/wiki/B", "/wiki/C"}, map[string]string{"/wiki/A": "a1", "/wiki/B": "b1", "/wiki/C": "c1"},
		[][2]int{{0, 1}, {1, 2}, {2, 0}, {0, 2}}, nil)
	files, err := Write(filepath.Join(dir, "r1"), first)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	want := "graph.txt edges.parquet degrees.parquet pages.parquet changes.parquet categories.parquet ranks/0.01.parquet ranks/0.001.parquet"
	if strings.Join(paths, " ") != want {
		t.Errorf("files = %v", paths)
	}

	prev, err := ReadPrevious(filepath.Join(dir, "r1"))
	if err != nil {
		t.Fatal(err)
	}
	if prev.RunID != "r1" || prev.Hashes["/wiki/B"] != "b1" || prev.InDegree["/wiki/C"] != 2 || len(prev.Ranks) != 2 {
		t.Fatalf("previous = %+v", prev)
	}
	r01 := first.Ranks[0]
	if got := prev.Ranks[0.01]["/wiki/C"]; got.Rank != r01.Ranks[2] || got.Position != 1 {
		t.Errorf("previous rank of C = %+v, want %v at position 1", got, r01.Ranks[2])
	}

	// The next night: B's content changed, C is gone, D is new.
	second := run(t, "r2", []string{"/wiki/A", "/wiki/B", "/wiki/D"}, map[string]string{"/wiki/A": "a1", "/wiki/B": "b2", "/wiki/D": "d1"},
		[][2]int{{0, 1}, {1, 2}, {2, 0}}, prev)
	if _, err := Write(filepath.Join(dir, "r2"), second); err != nil {
		t.Fatal(err)
	}
	var rows []string
	err = readTable(filepath.Join(dir, "r2", "changes.parquet"), func(r row) {
		if r.float64("epsilon") != 0.01 {
			return
		}
		changed := "null"
		if c, ok := r.boolean("content_changed"); ok && c {
			changed = "changed"
		} else if ok {
			changed = "same"
		}
		prevRun, _ := r.str("previous_run_id")
		rows = append(rows, r.mustStr("page")+" "+r.mustStr("change")+" "+changed+" "+prevRun)
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(rows)
	wantRows := []string{"/wiki/A kept same r1", "/wiki/B kept changed r1", "/wiki/C removed null r1", "/wiki/D new null r1"}
	if !reflect.DeepEqual(rows, wantRows) {
		t.Errorf("changes = %q\nwant %q", rows, wantRows)
	}
}

func TestReadPreviousErrors(t *testing.T) {
	if _, err := ReadPrevious(t.TempDir()); err == nil {
		t.Error("an empty directory read as a run")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pages.parquet"), []byte("not parquet"), 0o644)
	if _, err := ReadPrevious(dir); err == nil || !strings.Contains(err.Error(), "pages.parquet") {
		t.Errorf("corrupt table: err = %v", err)
	}
}

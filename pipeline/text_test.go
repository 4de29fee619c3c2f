//go:build cgo

package pipeline

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/search"
)

// A run over real pages: a near copy of a page is flagged with its
// original and a distinct page is not; topic ranks move towards relevant
// pages; the run's index finds the page a query names. Read back with
// DuckDB.
func TestTextOutputs(t *testing.T) {
	needle := wikitest.Page(t, "Space_Needle")
	copyOf := bytes.ReplaceAll(needle, []byte(`rel="canonical"`), []byte(`rel="x-canonical"`)) // its own page, not a redirect
	copyOf = bytes.Replace(copyOf, []byte("observation tower"), []byte("viewing tower"), 1)
	copyOf = bytes.Replace(copyOf, []byte("landmark"), []byte("symbol"), 1)
	pages := map[string][]byte{
		"Space_Needle": needle, "Needle_copy": copyOf,
		"Seattle": wikitest.Page(t, "Seattle"), "Gmail": wikitest.Page(t, "Gmail"), "Sony_Music": wikitest.Page(t, "Sony_Music"),
		"Start": []byte(`<html><head><title>Start - Wikipedia</title></head><body><div id="mw-content-text"><div class="mw-parser-output"><p>` +
			`<a href="/wiki/Space_Needle">a</a> <a href="/wiki/Needle_copy">b</a> <a href="/wiki/Seattle">c</a> <a href="/wiki/Gmail">d</a> <a href="/wiki/Sony_Music">e</a></p></div></div></body></html>`),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b, ok := pages[strings.TrimPrefix(r.URL.Path, "/wiki/")]; ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	r := testRunner(t, srv.URL)
	job := testJob("needle", 6)
	job.Seeds, job.Topics, job.LinkScope = []string{"/wiki/Start"}, []string{"space needle", "observation tower"}, "prose"
	job.MaxDepth = 1
	m, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.OutDir, "needle", m.RunID)
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	query := func(q string, args ...any) *sql.Rows {
		rows, err := db.Query(fmt.Sprintf(q, args...))
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	rows := query(`SELECT page, coalesce(near_duplicate_of, ''), coalesce(near_duplicate_jaccard, 0), depth FROM '%s/pages.parquet' ORDER BY vertex_id`, dir)
	dups := map[string]string{}
	for rows.Next() {
		var page, of string
		var jac float64
		var depth int
		rows.Scan(&page, &of, &jac, &depth)
		dups[page] = of
		if of != "" && jac < 0.9 {
			t.Errorf("%s: near-duplicate of %s at %.3f, below the threshold", page, of, jac)
		}
		if want := map[bool]int{true: 0, false: 1}[page == "/wiki/Start"]; depth != want {
			t.Errorf("%s: depth %d, want %d", page, depth, want)
		}
	}
	if dups["/wiki/Needle_copy"] != "/wiki/Space_Needle" || dups["/wiki/Seattle"] != "" || dups["/wiki/Space_Needle"] != "" || len(dups) != 6 {
		t.Errorf("near duplicates %v: want Needle_copy -> Space_Needle alone", dups)
	}

	// Topic-sensitive ranks: the relevant pages (the needle and its copy)
	// gain, and the rank-weighted relevance of the whole graph rises.
	rows = query(`SELECT t.page, t.rank, r.rank, coalesce(p.relevance, 0) FROM '%[1]s/topic_ranks/0.005.parquet' t
		JOIN '%[1]s/ranks/0.005.parquet' r USING (page) JOIN '%[1]s/pages.parquet' p USING (page)`, dir)
	var topicMean, plainMean float64
	for rows.Next() {
		var page string
		var topic, plain, relevance float64
		rows.Scan(&page, &topic, &plain, &relevance)
		topicMean += topic * relevance
		plainMean += plain * relevance
		if relevance > 0.3 && topic <= plain {
			t.Errorf("%s (relevance %.3f): topic rank %.4f, rank %.4f", page, relevance, topic, plain)
		}
	}
	if topicMean <= plainMean {
		t.Errorf("rank-weighted relevance: %.4f under topic ranks, %.4f under ranks", topicMean, plainMean)
	}
	res, err := search.Search(filepath.Join(dir, "index"), "space needle", search.Options{TitleBoost: search.DefaultTitleBoost, RankWeight: search.DefaultRankWeight})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Page != "/wiki/Space_Needle" {
		t.Errorf("search: %v, %+v", err, res)
	}
}

//go:build cgo

package pipeline

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
)

// identityWiki serves three pages with mw.config and catlinks, ETags and
// 304s; edit gives a page a new revision and text, rerender new HTML
// under the same revision (a template changed).
type identityWiki struct {
	mu       sync.Mutex
	revision map[string]int
	extra    map[string]string
}

func (w *identityWiki) page(title string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := map[string]int{"A": 101, "B": 102, "C": 103}
	links := map[string]string{"A": `<a href="/wiki/B">B</a> <a href="/wiki/C">C</a>`, "B": `<a href="/wiki/A">A</a>`, "C": `<a href="/wiki/A">A</a>`}
	return fmt.Sprintf(`<html><head><title>%s - Wikipedia</title><script>RLCONF={"wgArticleId":%d,"wgRevisionId":%d,"wgWikibaseItemId":"Q%d"};</script></head>`+
		`<body><div id="mw-content-text"><div class="mw-parser-output"><p>Tennis %s %s</p></div></div>`+
		`<div id="catlinks" class="catlinks"><div id="mw-normal-catlinks"><ul><li><a href="/wiki/Category:Tennis">Tennis</a></li></ul></div>`+
		`<div id="mw-hidden-catlinks" class="mw-hidden-catlinks"><ul><li><a href="/wiki/Category:Articles_with_short_description">x</a></li></ul></div></div></body></html>`,
		title, ids[title], w.revision[title], ids[title]+1000, links[title], w.extra[title])
}

func (w *identityWiki) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/robots.txt" {
		return
	}
	title := r.URL.Path[len("/wiki/"):]
	if _, ok := map[string]bool{"A": true, "B": true, "C": true}[title]; !ok {
		http.NotFound(rw, r)
		return
	}
	serveTagged(rw, r, w.page(title))
}

// serveTagged serves an HTML page with an ETag of its bytes, and a 304 to
// a request that names it.
func serveTagged(rw http.ResponseWriter, r *http.Request, body string) {
	sum := sha256.Sum256([]byte(body))
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	rw.Header().Set("ETag", etag)
	rw.Header().Set("Content-Type", "text/html; charset=UTF-8")
	if r.Header.Get("If-None-Match") == etag {
		rw.WriteHeader(http.StatusNotModified)
		return
	}
	fmt.Fprint(rw, body)
}

// Page ids, revisions, items and categories are published; a 304 keeps
// the stored copy's; an edit is edited, a re-render changed but not
// edited, and only the edit is a change in the page's history.
func TestIdentityAcrossNights(t *testing.T) {
	w := &identityWiki{revision: map[string]int{"A": 5001, "B": 5002, "C": 5003}, extra: map[string]string{}}
	srv := httptest.NewServer(w)
	defer srv.Close()
	r := testRunner(t, srv.URL)
	job := testJob("ids", 10)
	job.Seeds = []string{"/wiki/A"}
	if _, err := r.Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	w.revision["B"]++ // an edit
	w.extra["B"] = "edited"
	w.extra["C"] = "re-rendered" // a template changed; the revision did not
	w.mu.Unlock()
	second, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dir := filepath.Join(r.OutDir, "ids", second.RunID)
	// The history counts B's edit, and not C's re-render, as a change.
	got := query(t, db, fmt.Sprintf(`SELECT page, fetch_state, page_id, revision_id, wikidata_id, changed, edited, edits, textual_changes
		FROM read_parquet('%s') ORDER BY page`, filepath.Join(dir, "pages.parquet")))
	want := []string{
		"/wiki/A | not_modified | 101 | 5001 | Q1101 | false | false | 0 | 0",
		"/wiki/B | fetched | 102 | 5003 | Q1102 | true | true | 1 | 1",
		"/wiki/C | fetched | 103 | 5003 | Q1103 | true | false | 0 | 0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages.parquet:\n got %q\nwant %q", got, want)
	}
	got = query(t, db, fmt.Sprintf(`SELECT page, category, hidden, sort_key FROM read_parquet('%s') WHERE page = '/wiki/A' ORDER BY category`,
		filepath.Join(dir, "categories.parquet")))
	if want := []string{"/wiki/A | Articles_with_short_description | true | <nil>", "/wiki/A | Tennis | false | <nil>"}; !slices.Equal(got, want) {
		t.Errorf("categories.parquet:\n got %q\nwant %q", got, want)
	}
	got = query(t, db, fmt.Sprintf(`SELECT page, edited FROM read_parquet('%s') WHERE epsilon = 0.01 ORDER BY page`, filepath.Join(dir, "changes.parquet")))
	if want := []string{"/wiki/A | false", "/wiki/B | true", "/wiki/C | false"}; !slices.Equal(got, want) {
		t.Errorf("changes.parquet:\n got %q\nwant %q", got, want)
	}
}

// A global rank joins on page id where both sides have one: a page
// renamed since the dump (page 101, /wiki/Old_A there, /wiki/A now)
// still gets its global rank; the ranks tables carry page_id.
func TestGlobalRanksJoinOnPageID(t *testing.T) {
	b := graph.NewBuilder()
	for _, n := range []string{"/wiki/Old_A", "/wiki/B", "/wiki/Elsewhere"} {
		b.Vertex(n)
	}
	b.AddEdge(1, 0)
	b.AddEdge(2, 0)
	b.AddEdge(0, 1)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	wiki := t.TempDir()
	if _, err := publish.Write(wiki, &publish.Input{Job: "rank", RunID: "dump", Graph: g, Ranks: rank.PageRank(g, 0.85, []float64{0.001}),
		PageIDs: []int64{101, 102, 999}}); err != nil {
		t.Fatal(err)
	}
	w := &identityWiki{revision: map[string]int{"A": 1, "B": 1, "C": 1}, extra: map[string]string{}}
	srv := httptest.NewServer(w)
	defer srv.Close()
	r := testRunner(t, srv.URL)
	job := testJob("ids", 10)
	job.Seeds, job.GlobalRanks = []string{"/wiki/A"}, filepath.Join(wiki, "ranks", "0.001.parquet")
	m, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := query(t, db, fmt.Sprintf(`SELECT r.page, r.page_id, r.global_position, w.page AS wiki_page
		FROM read_parquet('%s') r LEFT JOIN read_parquet('%s') w ON w.position = r.global_position
		WHERE r.epsilon = 0.01 ORDER BY r.page`, filepath.Join(r.OutDir, "ids", m.RunID, "ranks", "0.01.parquet"), job.GlobalRanks))
	want := []string{"/wiki/A | 101 | 1 | /wiki/Old_A", "/wiki/B | 102 | 2 | /wiki/B", "/wiki/C | 103 | <nil> | <nil>"}
	if !slices.Equal(got, want) {
		t.Errorf("ranks with global ranks:\n got %q\nwant %q", got, want)
	}
}

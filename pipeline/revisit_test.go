//go:build cgo

package pipeline

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// mirrorEpoch moves the dynamic mirror to night n and returns every
// page's true edit count (for judging only: the crawler never reads it).
func mirrorEpoch(t *testing.T, base string, n int) map[string]int {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("%s/_mirror/epoch?set=%d", base, n))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = http.Get(base + "/_mirror/versions")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ Versions map[string]int }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for title, n := range v.Versions {
		out["/wiki/"+title] = n
	}
	return out
}

// TestBudgetedNightsOnDynamicMirror records four nights of revisit: all
// on the dynamic mirror, then runs four budgeted nights of each policy
// that uses change history, each from a copy of the recorded outputs and
// state, and judges each night against the mirror's true versions: the
// run is complete, spends no more than its budget (as the mirror
// counted), carries the pages it did not revisit with their old fetch
// time, and catches the pages that changed since the night before far
// more often than the budget's share would by chance. The runs build no
// search index: it is most of a run's time under the race detector, and
// nothing here reads it.
func TestBudgetedNightsOnDynamicMirror(t *testing.T) {
	base := wikitest.Mirror(t, "-dynamic", "-closed")
	r := testRunner(t, base)
	job, off := testJob("dyn", 300), false
	job.Seeds, job.Topics, job.LinkScope, job.SearchIndex = []string{"/wiki/Seattle"}, []string{"seattle"}, "prose", &off
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	recorded := nights{fetchedAt: map[string]int{}}
	for n := range 4 {
		refetched, _, _ := recorded.run(t, r, db, base, job, n)
		for p := range refetched {
			recorded.fetchedAt[p] = n
		}
	}
	for _, policy := range []string{"dynamicity", "freshness"} {
		t.Run(policy, func(t *testing.T) {
			pr := *r // the same clock: run ids never collide
			pr.OutDir = t.TempDir()
			if err := os.CopyFS(pr.OutDir, os.DirFS(r.OutDir)); err != nil {
				t.Fatal(err)
			}
			recorded.budgeted(t, &pr, db, base, job, policy)
		})
	}
}

// nights is what the recorded nights left: each night's true versions,
// and the night of each page's stored copy.
type nights struct {
	versions  []map[string]int
	fetchedAt map[string]int
	corpus    map[string]corpusPage // by page key, read once
}

// run runs night n of job, checks that its manifest counts the requests
// the mirror saw, and returns the pages it fetched, the number it carried
// and the manifest.
func (rec *nights) run(t *testing.T, r *Runner, db *sql.DB, base string, job Job, n int) (refetched map[string]bool, carried int, m *Manifest) {
	t.Helper()
	rec.versions = append(rec.versions[:n], mirrorEpoch(t, base, n))
	before := wikitest.Stats(t, base).Requests
	m, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatalf("night %d: %v", n, err)
	}
	spent := wikitest.Stats(t, base).Requests - before
	if s := m.Revisit; s != nil && s.Requests != spent {
		t.Fatalf("night %d: the mirror saw %d requests, the manifest says %+v", n, spent, s)
	}
	dir := filepath.Join(r.OutDir, job.Name, m.RunID)
	verifyRun(t, dir)
	rec.identity(t, db, dir, n)
	rows, err := db.Query(fmt.Sprintf(`SELECT page, coalesce(revisit, ''), content_hash IS NOT NULL FROM read_parquet('%s')`,
		filepath.Join(dir, "pages.parquet")))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	refetched = map[string]bool{}
	for rows.Next() {
		var page, reason string
		var ok bool
		if err := rows.Scan(&page, &reason, &ok); err != nil {
			t.Fatal(err)
		}
		switch {
		case reason == "carried":
			carried++
		case ok && reason != "budget":
			refetched[page] = true
		}
	}
	return refetched, carried, m
}

// budgeted runs nights 4 to 7 under policy, from the recorded nights.
func (rec nights) budgeted(t *testing.T, r *Runner, db *sql.DB, base string, job Job, policy string) {
	rec.versions = slices.Clip(rec.versions) // this policy's nights append to a copy, not to the recorded ones' array
	rec.fetchedAt = maps.Clone(rec.fetchedAt)
	fetchedAt := rec.fetchedAt
	job.Revisit, job.MaxRequests = policy, 61 // a fifth of the pages, robots.txt included
	catch, caught := 0, 0
	for n := 4; n <= 7; n++ {
		refetched, carried, m := rec.run(t, r, db, base, job, n)
		s := m.Revisit
		if s == nil || s.Policy != policy || s.Requests > 61 {
			t.Fatalf("night %d: manifest says %+v", n, s)
		}
		if s.Carried != carried || carried < 200 || s.Revisited+s.New+s.Carried+s.Deferred+m.Counts.Failed < m.Counts.Vertices {
			t.Errorf("night %d: carried %d, manifest %+v, counts %+v", n, carried, s, m.Counts)
		}
		// Judge: of the pages whose stored copy was current after last
		// night and that changed since, the share refetched.
		v := rec.versions
		night, hits := 0, 0
		for p, at := range fetchedAt {
			if v[at][p] == v[n-1][p] && v[n][p] != v[n-1][p] {
				night++
				if refetched[p] {
					hits++
				}
			}
		}
		for p := range refetched {
			fetchedAt[p] = n
		}
		catch, caught = catch+night, caught+hits
		t.Logf("night %d: %d requests, %d refetched, %d carried; caught %d of %d next-night changes",
			n, s.Requests, len(refetched), carried, hits, night)
	}
	if recall := float64(caught) / float64(catch); catch < 20 || recall < 0.45 {
		t.Errorf("caught %d of %d pages changed since the night before (%.2f): a fifth of the pages by chance would catch 0.2",
			caught, catch, recall)
	}
}

// identity checks night n's page ids, items and categories against an
// independent parser of the corpus page, each revision against the
// mirror's edits of the page's stored copy (one revision per edit), and
// edited against the edits since the page's previous visit: an edited
// page is edited, a 304 is not, a carried or first visit says nothing.
func (rec *nights) identity(t *testing.T, db *sql.DB, dir string, n int) {
	t.Helper()
	if rec.corpus == nil {
		rec.corpus = corpusIdentities(t)
	}
	rows, err := db.Query(fmt.Sprintf(`SELECT page, fetch_state, coalesce(page_id, 0), coalesce(revision_id, 0), coalesce(wikidata_id, ''), edited,
		coalesce((SELECT list_sort(list(category || '/' || hidden)) FROM read_parquet('%[1]s') c WHERE c.page = p.page), [])
		FROM read_parquet('%[2]s') p WHERE fetch_state IN ('fetched', 'not_modified', 'carried')`,
		filepath.Join(dir, "categories.parquet"), filepath.Join(dir, "pages.parquet")))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	bad := 0
	for rows.Next() {
		var page, state, item string
		var pageID, revision int64
		var edited sql.NullBool
		var cats []any
		if err := rows.Scan(&page, &state, &pageID, &revision, &item, &edited, &cats); err != nil {
			t.Fatal(err)
		}
		want, ok := rec.corpus[unescape(t, page)]
		if !ok {
			t.Fatalf("night %d: %s is not a corpus page", n, page)
		}
		if _, ok := rec.versions[n][want.saved]; !ok {
			t.Fatalf("night %d: the mirror has no versions of %s (%s)", n, want.saved, page)
		}
		edits := func(night int) int { return rec.versions[night][want.saved] }
		at, visited := rec.fetchedAt[page]
		stored := n // the night of the copy this row describes
		if state != "fetched" {
			stored = at
		}
		wantRev, wantEdited := want.RevisionID, sql.NullBool{}
		if wantRev != 0 {
			wantRev += int64(edits(stored))
			if visited && state != "carried" {
				wantEdited = sql.NullBool{Bool: edits(n) != edits(at), Valid: true}
			}
		}
		wantCats := slices.Clone(want.Categories)
		slices.Sort(wantCats)
		got := fmt.Sprint(pageID, " ", revision, " ", item, " ", edited, " ", cats)
		if w := fmt.Sprint(want.PageID, " ", wantRev, " ", want.WikidataID, " ", wantEdited, " ", wantCats); got != w && bad < 5 {
			bad++
			t.Errorf("night %d, %s (%s):\n got %s\nwant %s", n, page, state, got, w)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// corpusPage is a corpus page's identity, as an independent parser
// reads it, and the key it is saved under (the mirror's key for its
// versions).
type corpusPage struct {
	wikitest.Identity
	saved string
}

// corpusIdentities reads every corpus page, keyed by its saved title and,
// where no page is saved under it, by the title it names itself (a page
// saved under a redirect's title, which the mirror serves under both).
func corpusIdentities(t *testing.T) map[string]corpusPage {
	out, alias := map[string]corpusPage{}, map[string]corpusPage{}
	for _, p := range wikitest.Corpus(t) {
		id, err := wikitest.ReadIdentity(p.HTML)
		if err != nil {
			t.Fatal(err)
		}
		c := corpusPage{id, "/wiki/" + p.Title}
		out[unescape(t, c.saved)] = c
		if m := pageName.FindSubmatch(p.HTML); m != nil {
			alias["/wiki/"+string(m[1])] = c
		}
	}
	for k, c := range alias {
		if _, ok := out[k]; !ok {
			out[k] = c
		}
	}
	return out
}

var pageName = regexp.MustCompile(`"wgPageName":"([^"]*)"`)

func unescape(t *testing.T, key string) string {
	s, err := url.PathUnescape(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

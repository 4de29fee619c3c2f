//go:build cgo

package pipeline

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
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
// that uses change history and judges each against the mirror's true
// versions: the run is complete, spends no more than its budget (as the
// mirror counted), carries the pages it did not revisit with their old
// fetch time, and catches the pages that changed since the night before
// far more often than the budget's share would by chance.
func TestBudgetedNightsOnDynamicMirror(t *testing.T) {
	base := wikitest.Mirror(t, "-dynamic", "-closed")
	for _, policy := range []string{"dynamicity", "freshness"} {
		t.Run(policy, func(t *testing.T) { budgetedNights(t, base, policy) })
	}
}

func budgetedNights(t *testing.T, base, policy string) {
	r := testRunner(t, base)
	job := testJob("dyn", 300)
	job.Seeds, job.Topics, job.LinkScope = []string{"/wiki/Seattle"}, []string{"seattle"}, "prose"
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fetchedAt := map[string]int{} // page -> night of the copy the state holds
	catch, caught := 0, 0         // over the budgeted nights
	var versions []map[string]int
	for n := 0; n <= 7; n++ {
		versions = append(versions, mirrorEpoch(t, base, n))
		j := job
		if n >= 4 {
			j.Revisit, j.MaxRequests = policy, 61 // a fifth of the pages, robots.txt included
		}
		before := wikitest.Stats(t, base).Requests
		m, err := r.Run(context.Background(), j)
		if err != nil {
			t.Fatalf("night %d: %v", n, err)
		}
		spent := wikitest.Stats(t, base).Requests - before
		dir := filepath.Join(r.OutDir, j.Name, m.RunID)
		verifyRun(t, dir)
		rows, err := db.Query(fmt.Sprintf(`SELECT page, coalesce(revisit, ''), content_hash IS NOT NULL FROM read_parquet('%s')`,
			filepath.Join(dir, "pages.parquet")))
		if err != nil {
			t.Fatal(err)
		}
		refetched := map[string]bool{}
		carried := 0
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
		rows.Close()
		if n < 4 {
			for p := range refetched {
				fetchedAt[p] = n
			}
			continue
		}
		s := m.Revisit
		if s == nil || s.Policy != policy || s.Requests != spent || spent > 61 {
			t.Fatalf("night %d: the mirror saw %d requests, the manifest says %+v", n, spent, s)
		}
		if s.Carried != carried || carried < 200 || s.Revisited+s.New+s.Carried+s.Deferred+m.Counts.Failed < m.Counts.Vertices {
			t.Errorf("night %d: carried %d, manifest %+v, counts %+v", n, carried, s, m.Counts)
		}
		// Judge: of the pages whose stored copy was current after last
		// night and that changed since, the share refetched.
		night, hits := 0, 0
		for p, at := range fetchedAt {
			if versions[at][p] == versions[n-1][p] && versions[n][p] != versions[n-1][p] {
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
			n, spent, len(refetched), carried, hits, night)
	}
	if recall := float64(caught) / float64(catch); catch < 20 || recall < 0.45 {
		t.Errorf("caught %d of %d pages changed since the night before (%.2f): a fifth of the pages by chance would catch 0.2",
			caught, catch, recall)
	}
}

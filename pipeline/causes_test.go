//go:build cgo

package pipeline

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// On the dynamic mirror (pages edit at rates of their own, night by
// night), every difference between two nights has a cause, judged
// against the mirror's true versions: a kept page is `edited` exactly
// when the mirror edited it since the night before, every page that
// entered or left has a cause, and no page that failed on either night
// is among the sound pages movers are ranked from.
func TestCausesOnDynamicMirror(t *testing.T) {
	if testing.Short() {
		t.Skip("three nights on the dynamic mirror")
	}
	base := wikitest.Mirror(t, "-dynamic", "-closed")
	r := testRunner(t, base)
	job, off := testJob("causes", 150), false
	job.Seeds, job.Topics, job.LinkScope, job.SearchIndex = []string{"/wiki/Seattle"}, []string{"seattle"}, "prose", &off
	job.Admission, job.Strategy = "best-first", "similarity"
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var versions []map[string]int
	edits := 0
	for n := range 3 {
		versions = append(versions, mirrorEpoch(t, base, n))
		m, err := r.Run(context.Background(), job)
		if err != nil {
			t.Fatalf("night %d: %v", n, err)
		}
		if n == 0 {
			continue
		}
		dir := filepath.Join(r.OutDir, job.Name, m.RunID)
		rows, err := db.Query(fmt.Sprintf(`SELECT c.page, c.change, c.cause, coalesce(p.fetch_state, '')
			FROM read_parquet('%s') c LEFT JOIN read_parquet('%s') p USING (page)
			WHERE c.epsilon = 0.005`, filepath.Join(dir, "changes.parquet"), filepath.Join(dir, "pages.parquet")))
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var page, change, cause, state string
			if err := rows.Scan(&page, &change, &cause, &state); err != nil {
				t.Fatal(err)
			}
			switch change {
			case "kept":
				editedNow := versions[n][page] != versions[n-1][page]
				if state == "failed" {
					if cause != "gone" && cause != "failed" {
						t.Errorf("night %d: %s failed, cause %q", n, page, cause)
					}
					continue
				}
				if editedNow != (cause == "edited") && cause != "gone" && cause != "failed" {
					t.Errorf("night %d: %s edited by the mirror %v, cause %q", n, page, editedNow, cause)
				}
				if editedNow {
					edits++
				}
			case "new":
				if !slices.Contains([]string{"linked", "crawl", "gone", "failed"}, cause) {
					t.Errorf("night %d: %s entered with cause %q", n, page, cause)
				}
			case "removed":
				if !slices.Contains([]string{"unlinked", "crawl", "gone", "failed"}, cause) {
					t.Errorf("night %d: %s left with cause %q", n, page, cause)
				}
			}
		}
		rows.Close()
	}
	if edits == 0 {
		t.Error("the mirror edited no kept page in two nights: nothing was judged")
	}
	t.Logf("%d edits of kept pages matched their cause", edits)
}

//go:build cgo

package pipeline

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// renderWiki is a wiki that changes as Wikipedia does between nights, in
// three ways: edits (a new revision; half of them add a link to the
// prose), re-renders under the same revision (the parser cache expired:
// its "Cached time" comment differs; Wikipedia's request id, new on every
// answer, is left out, so that an unchanged page still answers 304), and
// navbox template edits (links change on every page that transcludes the
// navbox, outside the prose, the revision unchanged). Each page edits at
// a rate of its own (the dynamic mirror's four classes). Its night is set
// by the test.
type renderWiki struct {
	n     int
	mu    sync.Mutex
	night int
}

// unit is a deterministic draw in [0,1) for parts.
func unit(parts ...any) float64 {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	x := h.Sum64()
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	x ^= x >> 29
	return float64(x>>11) / float64(uint64(1)<<53)
}

// linkEdits counts page i's edits in nights (from, to] that changed its
// prose links: the changes of its edges in a prose-scoped graph.
func (w *renderWiki) linkEdits(i, from, to int) int {
	n := 0
	for k := from + 1; k <= to; k++ {
		if unit("edit", i, k) < w.editRate(i) && unit("links", i, k) < 0.5 {
			n++
		}
	}
	return n
}

func (w *renderWiki) editRate(i int) float64 {
	switch u := unit("class", i); {
	case u < 0.02:
		return 0.5
	case u < 0.10:
		return 0.2
	case u < 0.30:
		return 0.05
	}
	return 0.01
}

// page renders page i at night.
func (w *renderWiki) page(i, night int) string {
	var prose strings.Builder
	fmt.Fprintf(&prose, `<p>Page %d links to <a href="/wiki/P%d">P%d</a> and <a href="/wiki/P%d">P%d</a>.</p>`,
		i, (i+1)%w.n, (i+1)%w.n, (i*7+3)%w.n, (i*7+3)%w.n)
	edits, rendered := 0, 0
	for k := 1; k <= night; k++ {
		switch {
		case unit("edit", i, k) < w.editRate(i):
			edits++
			rendered = k
			if unit("links", i, k) < 0.5 {
				to := int(unit("to", i, k) * float64(w.n))
				fmt.Fprintf(&prose, `<p>Edit %d links <a href="/wiki/P%d">P%d</a>.</p>`, edits, to, to)
			} else {
				fmt.Fprintf(&prose, `<p>Edit %d fixed a typo.</p>`, edits)
			}
		case unit("cache", i, k) < 0.3:
			rendered = k
		}
	}
	box, version := i%10, 0
	for k := 1; k <= night; k++ {
		if unit("navbox", box, k) < 0.15 {
			version, rendered = version+1, max(rendered, k)
		}
	}
	var nav strings.Builder
	for j := range 3 {
		to := int(unit("box", box, version, j) * float64(w.n))
		fmt.Fprintf(&nav, `<a href="/wiki/P%d">P%d</a> `, to, to)
	}
	return fmt.Sprintf(`<html><head><title>P%d - Wikipedia</title><script>RLCONF={"wgArticleId":%d,"wgRevisionId":%d};</script></head>`+
		`<body><div id="mw-content-text"><div class="mw-parser-output">%s<div role="navigation" class="navbox">%s</div>`+
		`<!-- Cached time: night %d --></div></div></body></html>`, i, 1000+i, 5000+edits, prose.String(), nav.String(), rendered)
}

func (w *renderWiki) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/robots.txt" {
		return
	}
	i, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/wiki/P"))
	if err != nil || i < 0 || i >= w.n {
		http.NotFound(rw, r)
		return
	}
	w.mu.Lock()
	body := w.page(i, w.night)
	w.mu.Unlock()
	serveTagged(rw, r, body)
}

// Which of a page's history predicts that its links (its edges in the
// graph) change next night: its edits or its content changes? Twelve
// nights of a 300-page renderWiki, every page fetched each night; from
// night 5 on, each page's count of edited nights and of changed nights
// so far are each scored, by the area under the ROC curve, on whether the
// page's out-edges change that night. The policies count edits where a
// page names its revisions (stages/crawl/store's history). A content
// change is now a change of what the crawl reads (its prose, its links in
// scope), not of the bytes, so re-renders and navbox edits no longer
// make it noise: it predicts as well as edits do, and edits no worse.
//
// With RENDERWIKI_PAGES=N it measures the policies too (docs/revisit.md):
// ten full nights of N pages, then ten nights again from the tenth's
// outputs and state, each policy with a fifth of the requests, counting
// the pages whose links changed since their stored copy that each night
// refetches.
func TestEditsPredictGraphChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: twelve nights")
	}
	w := &renderWiki{n: 300}
	full, budgeted := 6, 6
	n, _ := strconv.Atoi(os.Getenv("RENDERWIKI_PAGES"))
	if n > 0 {
		w.n, full, budgeted = n, 10, 10
	}
	srv := httptest.NewServer(w)
	defer srv.Close()
	r := testRunner(t, srv.URL)
	job := testJob("renders", w.n)
	job.Seeds, job.LinkScope, job.SearchIndex = []string{"/wiki/P0"}, "prose", new(bool)
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	edited, changed := map[string]int{}, map[string]int{}
	links := map[string]string{}
	var byEdits, byChanges []scored
	recorded := t.TempDir() // the outputs and state after night 5, for the budgeted nights
	for night := 0; night < full+budgeted; night++ {
		if night == full && n > 0 {
			if err := os.CopyFS(recorded, os.DirFS(r.OutDir)); err != nil {
				t.Fatal(err)
			}
		}
		w.setNight(night)
		m, err := r.Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(r.OutDir, job.Name, m.RunID)
		rows := query(t, db, fmt.Sprintf(`SELECT p.page, coalesce(p.edited, false), coalesce(p.changed, false),
			coalesce((SELECT string_agg(e.dst, ' ' ORDER BY e.dst) FROM read_parquet('%s') e WHERE e.src = p.page), '')
			FROM read_parquet('%s') p`, filepath.Join(dir, "edges.parquet"), filepath.Join(dir, "pages.parquet")))
		if len(rows) != w.n {
			t.Fatalf("night %d: %d pages", night, len(rows))
		}
		for _, row := range rows {
			f := strings.SplitN(row, " | ", 4)
			page, out := f[0], f[3]
			moved := night > 0 && out != links[page]
			if night >= 5 {
				byEdits = append(byEdits, scored{float64(edited[page]), moved})
				byChanges = append(byChanges, scored{float64(changed[page]), moved})
			}
			links[page] = out
			if f[1] == "true" {
				edited[page]++
			}
			if f[2] == "true" {
				changed[page]++
			}
		}
	}
	e, c := auc(byEdits), auc(byChanges)
	t.Logf("AUC for next-night graph changes, %d page-nights: edits %.3f, content changes %.3f", len(byEdits), e, c)
	if e < c-0.01 || c < e-0.01 || e < 0.6 {
		t.Errorf("edits (AUC %.3f) and content changes (%.3f): want both to predict graph changes (above 0.6) and alike", e, c)
	}

	if n > 0 {
		measurePolicies(t, r, db, w, job, recorded, full, budgeted)
	}
}

// measurePolicies runs nights full to full+budgeted-1 again from the
// outputs and state recorded before them, each policy with a fifth of the
// requests, and counts, of the pages whose links changed since their
// stored copy, those each night refetches.
func measurePolicies(t *testing.T, r *Runner, db *sql.DB, w *renderWiki, job Job, recorded string, full, budgeted int) {
	for _, policy := range []string{"dynamicity", "adaptive", "freshness"} {
		pr := *r
		pr.OutDir = t.TempDir()
		if err := os.CopyFS(pr.OutDir, os.DirFS(recorded)); err != nil {
			t.Fatal(err)
		}
		job := job
		job.Revisit, job.MaxRequests = policy, w.n/5+1
		fetchedAt := map[int]int{}
		stale, caught, requests := 0, 0, 0
		for night := full; night < full+budgeted; night++ {
			w.setNight(night)
			m, err := pr.Run(context.Background(), job)
			if err != nil {
				t.Fatal(err)
			}
			requests += m.Revisit.Requests
			rows := query(t, db, fmt.Sprintf(`SELECT page FROM read_parquet('%s') WHERE content_hash IS NOT NULL AND revisit NOT IN ('carried', 'budget')`,
				filepath.Join(pr.OutDir, job.Name, m.RunID, "pages.parquet")))
			refetched := map[int]bool{}
			for _, p := range rows {
				i, _ := strconv.Atoi(strings.TrimPrefix(p, "/wiki/P"))
				refetched[i] = true
			}
			for i := range w.n {
				at, ok := fetchedAt[i]
				if !ok {
					at = full - 1
				}
				if w.linkEdits(i, at, night) > 0 {
					stale++
					if refetched[i] {
						caught++
					}
				}
				if refetched[i] {
					fetchedAt[i] = night
				}
			}
		}
		share := float64(caught) / float64(stale)
		t.Logf("%s, a fifth of the requests: caught %d of %d pages whose links changed since their stored copy (%.2f), %d requests",
			policy, caught, stale, share, requests)
		if policy != "adaptive" && share <= 0.2 { // adaptive spends only what is due
			t.Errorf("%s caught no more than a fifth of the budget would by chance", policy)
		}
	}
}

func (w *renderWiki) setNight(n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.night = n
}

type scored struct {
	score float64
	hit   bool
}

// auc is the area under the ROC curve of score for hit: the chance that a
// random hit scores above a random miss, ties counted half.
func auc(s []scored) float64 {
	slices.SortFunc(s, func(a, b scored) int { return cmp.Compare(a.score, b.score) })
	var hits, misses, below, sum float64
	for i := 0; i < len(s); {
		j := i
		var h, m float64
		for ; j < len(s) && s[j].score == s[i].score; j++ {
			if s[j].hit {
				h++
			} else {
				m++
			}
		}
		sum += h * (below + m/2)
		below += m
		hits, misses = hits+h, misses+m
		i = j
	}
	return sum / (hits * misses)
}

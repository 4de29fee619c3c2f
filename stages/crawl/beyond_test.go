package crawl_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl"
)

// A best-first night judges pages beyond its graph, and the next night
// admits those it found relevant in place of its leaves, no more than
// new_share of max_pages entering. The seed links to A0 ... A59, in that
// order and equally weighted; A40 ... A59 are about tennis. With 10
// pages and new_share 0.5, night 1 is S and A0-A8; it judges 8 × 5 = 40
// pages beyond: A9-A48. Night 2 explores 1 page (the least) and takes
// 5 - 1 = 4 known relevant pages, A40-A43, in place of 4 leaves; no more
// than 5 pages enter.
func TestJudgeBeyond(t *testing.T) {
	site := map[string]string{}
	s := "<p>"
	for i := range 60 {
		s += fmt.Sprintf(`<a href="/wiki/A%d">a</a> `, i)
		site[fmt.Sprint("A", i)] = `<p>Gardening is a hobby.</p>`
		if i >= 40 {
			site[fmt.Sprint("A", i)] = `<p>Tennis is a racket sport. Tennis players play tennis.</p>`
		}
	}
	site["S"] = s + "</p>"
	var mu sync.Mutex
	asked := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.URL.Path, "/wiki/")
		mu.Lock()
		asked[key] = true
		mu.Unlock()
		body, ok := site[key]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>%s - Wikipedia</title><div id="mw-content-text"><div class="mw-parser-output">%s</div></div>`, key, body)
	}))
	defer srv.Close()

	cfg := config(srv.URL, 10, 1)
	cfg.Seeds, cfg.Topics, cfg.Admission, cfg.RelevanceThreshold = []string{"/wiki/S"}, []string{"tennis"}, crawl.AdmitBestFirst, 0.25
	cfg.ExploreShare = 0.5
	cfg.Beyond = crawl.BeyondFor(cfg.MaxPages, cfg.ExploreShare)
	path := filepath.Join(t.TempDir(), "state.sqlite")
	first := runStored(t, cfg, path, "r1")
	if want := []string{"/wiki/A0", "/wiki/A1", "/wiki/A2", "/wiki/A3", "/wiki/A4", "/wiki/A5", "/wiki/A6", "/wiki/A7", "/wiki/A8", "/wiki/S"}; !slices.Equal(slices.Sorted(slices.Values(keys(first))), want) {
		t.Fatalf("night 1: %v, want %v", keys(first), want)
	}
	for i := 9; i < 60; i++ {
		if judged := i < 49; asked[fmt.Sprint("A", i)] != judged {
			t.Errorf("night 1 asked for A%d: %v, want %v (the 40 pages after its graph)", i, !judged, judged)
		}
	}

	second := runStored(t, cfg, path, "r2")
	var entered []string
	for _, k := range keys(second) {
		if !slices.Contains(keys(first), k) {
			entered = append(entered, k)
		}
	}
	for _, k := range []string{"/wiki/A40", "/wiki/A41", "/wiki/A42", "/wiki/A43"} {
		if !slices.Contains(entered, k) {
			t.Errorf("night 2 entered %v, not %s: a page judged relevant beyond night 1", entered, k)
		}
	}
	if len(entered) > 5 || len(second.Pages) != 10 {
		t.Errorf("night 2 has %d pages, %d entered (%v); want 10, at most 5 (new_share of max_pages)", len(second.Pages), len(entered), entered)
	}
}

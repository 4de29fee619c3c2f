package crawl_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl"
)

// TestSlowAnswerDoesNotStallTheCrawl serves a hub linking to 120 pages,
// one of which (P60) holds its first request until the crawler gives up
// on it. While it is held, the pages after it are fetched: the crawl does
// not wait for it with all its other work done. The graph is the one a
// site without the slow page gives.
func TestSlowAnswerDoesNotStallTheCrawl(t *testing.T) {
	const pages = 120
	var mu sync.Mutex
	requests, held, whileHeld := 0, false, 0
	slow := func(slowOn bool) *httptest.Server {
		first := true
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			requests++
			if held {
				whileHeld++
			}
			hold := slowOn && r.URL.Path == "/wiki/P60" && first
			if hold {
				first, held = false, true
			}
			mu.Unlock()
			if hold {
				<-r.Context().Done() // until the crawler's deadline
				mu.Lock()
				held = false
				mu.Unlock()
				return
			}
			if r.URL.Path == "/robots.txt" {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			var b strings.Builder
			b.WriteString(`<html><head><title>t</title></head><body><div id="mw-content-text"><p>text`)
			if r.URL.Path == "/wiki/Hub" {
				for i := range pages {
					fmt.Fprintf(&b, ` <a href="/wiki/P%d">p</a>`, i)
				}
			}
			b.WriteString("</p></div></body></html>")
			fmt.Fprint(w, b.String())
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	crawlOf := func(base string) *crawl.Result {
		cfg := config(base, pages+1, 2)
		cfg.Seeds = []string{"/wiki/Hub"}
		return run(t, cfg)
	}
	want := crawlOf(slow(false).URL)
	got := crawlOf(slow(true).URL)
	if fmt.Sprint(got.Edges) != fmt.Sprint(want.Edges) || len(got.Pages) != len(want.Pages) {
		t.Fatal("the slow page changed the graph")
	}
	for i, p := range got.Pages {
		if p.Class != "" || p.ContentHash != want.Pages[i].ContentHash {
			t.Errorf("%s: class %q after the slow answer", p.Key, p.Class)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// A crawl that waits for P60 makes at most window − 1 = 3 requests
	// while it is held (concurrency 2: a window of 4 fetches); one that
	// runs ahead makes up to the 59 after it within the crawler's deadline
	// for P60 (at least 1 s): all of them on an idle machine, 35 under
	// the race detector on a loaded one.
	if whileHeld < 12 {
		t.Errorf("%d requests were made while P60 was held: the crawl waited for it (59 pages came after it)", whileHeld)
	}
}

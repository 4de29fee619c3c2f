//go:build cgo

package pipeline

import (
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// noisyWiki serves one real 2026 page as Wikipedia does: every answer
// carries a new request id, backend time and parser-cache stamps, and no
// validator, so every visit is a full 200. edit, when set, rewrites the
// page's article.
type noisyWiki struct {
	mu    sync.Mutex
	page  string
	views int
	edit  func(string) string
}

var (
	requestID   = regexp.MustCompile(`"wgRequestId":"[^"]*"`)
	backendTime = regexp.MustCompile(`"wgBackendResponseTime":\d+`)
	cacheStamp  = regexp.MustCompile(`timestamp \d{14}|generated at \d{14}|"timestamp":"\d{14}"`)
)

func (w *noisyWiki) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/wiki/Cat" {
		http.NotFound(rw, r)
		return
	}
	w.mu.Lock()
	w.views++
	n := w.views
	body := w.page
	if w.edit != nil {
		body = w.edit(body)
	}
	w.mu.Unlock()
	stamp := strings.Repeat(string(rune('0'+n%10)), 14)
	body = requestID.ReplaceAllString(body, `"wgRequestId":"req-`+stamp+`"`)
	body = backendTime.ReplaceAllString(body, `"wgBackendResponseTime":`+stamp[:3])
	body = cacheStamp.ReplaceAllString(body, "timestamp "+stamp)
	rw.Header().Set("Content-Type", "text/html; charset=UTF-8")
	rw.Write([]byte(body))
}

// A change means the article changed: a real 2026 page served again with
// a new request id, backend time and cache stamps is not changed and
// registers no content change; one prose sentence or one link edited is.
func TestChangedIsTheArticleNotTheBytes(t *testing.T) {
	page := string(wikitest.Modern(t, "Cat.html"))
	if !requestID.MatchString(page) || !backendTime.MatchString(page) || !cacheStamp.MatchString(page) {
		t.Fatal("the modern Cat page lacks the noise this test varies")
	}
	w := &noisyWiki{page: page}
	srv := httptest.NewServer(w)
	defer srv.Close()
	r := testRunner(t, srv.URL)
	job := testJob("cat", 1)
	job.Seeds, job.Topics, job.LinkScope = []string{"/wiki/Cat"}, []string{"cat"}, "prose"
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	night := func(edit func(string) string) (changed sql.NullBool, content int) {
		t.Helper()
		w.mu.Lock()
		w.edit = edit
		w.mu.Unlock()
		m, err := r.Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		pages := filepath.Join(r.OutDir, job.Name, m.RunID, "pages.parquet")
		if err := db.QueryRow(`SELECT changed, textual_changes FROM read_parquet(?) WHERE page = '/wiki/Cat'`, pages).Scan(&changed, &content); err != nil {
			t.Fatal(err)
		}
		return changed, content
	}
	night(nil)
	if c, n := night(nil); !c.Valid || c.Bool || n != 0 {
		t.Errorf("served again with new noise: changed %v, %d content changes; want false, 0", c, n)
	}
	// Edits under the same revision id: only the content can tell them
	// (the history counts revisions where both are known, so it does not).
	const prose, link = "It has a strong, flexible body", `href="https://en.wikipedia.org/wiki/Claw"`
	if !strings.Contains(page, prose) || !strings.Contains(page, link) {
		t.Fatal("the page's lead moved: pick another sentence and link")
	}
	sentence := func(s string) string { return strings.Replace(s, prose, "It has a strong and flexible body", 1) }
	if c, _ := night(sentence); !c.Valid || !c.Bool {
		t.Errorf("a prose sentence edited: changed %v, want true", c)
	}
	if c, _ := night(sentence); !c.Valid || c.Bool {
		t.Errorf("the edited page served again: changed %v, want false", c)
	}
	relink := func(s string) string {
		return strings.Replace(sentence(s), link, `href="https://en.wikipedia.org/wiki/Nail_(anatomy)"`, 1)
	}
	if c, _ := night(relink); !c.Valid || !c.Bool {
		t.Errorf("a link edited: changed %v, want true", c)
	}
}

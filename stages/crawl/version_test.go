package crawl_test

import (
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/crawl/store"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// etagWiki serves the generated wiki with an ETag per page, answering 304
// to a request that names it; it counts whole answers and 304s.
type etagWiki struct {
	wiki *wikitest.Wiki
	mu   sync.Mutex
	ok   int // whole answers to page requests
	not  int // 304s
}

func (e *etagWiki) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/wiki/") {
		tag := fmt.Sprintf("%q", r.URL.Path)
		rw.Header().Set("ETag", tag)
		e.mu.Lock()
		defer e.mu.Unlock()
		if r.Header.Get("If-None-Match") == tag {
			e.not++
			rw.WriteHeader(http.StatusNotModified)
			return
		}
		e.ok++
	}
	e.wiki.ServeHTTP(rw, r)
}

func (e *etagWiki) counts() (ok, not int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	ok, not = e.ok, e.not
	e.ok, e.not = 0, 0
	return ok, not
}

// A page stored by code that reads pages differently (an older
// page.Version) is not kept on a 304 nor replayed from an interrupted
// run: it is fetched whole and read again, once, so no night mixes two
// readings; the night after, it answers 304 again.
func TestStoredCopyOfOtherVersionIsReadAgain(t *testing.T) {
	for _, end := range []string{"complete", store.StatusInterrupted} {
		t.Run(end, func(t *testing.T) {
			srv := &etagWiki{wiki: wikitest.New(t, 120)}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			path := filepath.Join(t.TempDir(), "state.sqlite")
			cfg := config(ts.URL, 40, 4)

			runStored(t, cfg, path, "r1")
			if ok, not := srv.counts(); ok == 0 || not != 0 {
				t.Fatalf("first night: %d whole answers and %d 304s, want only whole ones", ok, not)
			}
			runStored(t, cfg, path, "r1b") // an unchanged night, as it goes without an upgrade
			okBefore, notBefore := srv.counts()
			if notBefore == 0 {
				t.Fatal("an unchanged night had no 304")
			}
			stored := downgrade(t, path, "r2", end)

			res := runStored(t, cfg, path, "r3")
			ok, not := srv.counts()
			if not != 0 || ok < stored {
				t.Errorf("after the upgrade: %d whole answers and %d 304s, want every stored page (%d) whole", ok, not, stored)
			}
			for _, p := range res.Pages {
				if p.State == crawl.NotModified || p.State == crawl.Replayed {
					t.Errorf("%s is %s: a copy read by other code was kept", p.Key, p.State)
				}
			}

			runStored(t, cfg, path, "r4")
			if ok, not := srv.counts(); ok != okBefore || not != notBefore {
				t.Errorf("the night after: %d whole answers and %d 304s, want %d and %d as before the upgrade", ok, not, okBefore, notBefore)
			}
		})
	}
}

// downgrade makes every page of the state at path look stored by code
// before versions were kept (Document.Version 0), through the store as
// run runID, which ends with status end; it returns how many pages it
// rewrote.
func downgrade(t *testing.T, path, runID, end string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT key, digest FROM pages`)
	if err != nil {
		t.Fatal(err)
	}
	digests := map[string]string{}
	for rows.Next() {
		var key, digest string
		if err := rows.Scan(&key, &digest); err != nil {
			t.Fatal(err)
		}
		digests[key] = digest
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	db.Close()

	st, err := store.Open(path, runID)
	if err != nil {
		t.Fatal(err)
	}
	for key, digest := range digests {
		s, _, ok := st.Load(key, digest)
		if !ok {
			t.Fatalf("%s: no stored copy", key)
		}
		if s.Doc.Version != page.Version {
			t.Fatalf("%s: stored with version %d, want %d", key, s.Doc.Version, page.Version)
		}
		s.Doc.Version = 0
		if err := st.Save(key, digest, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Finish(end); err != nil {
		t.Fatal(err)
	}
	return len(digests)
}

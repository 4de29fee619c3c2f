package snapshot

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Links to pages the snapshot lacks are served as red links, not
// followed; links to pages it holds stay; the deleted page answers 404
// from the second night.
func TestServerRedLinksAndDeletion(t *testing.T) {
	snap := &Snapshot{Pages: map[string][]byte{
		"A":          []byte(`<p><a href="/wiki/B" title="B">b</a> <a href="/wiki/Missing_page" title="Missing page">m</a> <a href="/wiki/File:X.jpg">f</a></p>`),
		"B":          []byte(`<p>b</p>`),
		DeletedTitle: []byte(`<p>hotel</p>`),
	}}
	s := NewServer(snap)
	srv := httptest.NewServer(s)
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	_, body := get("/wiki/A")
	for _, want := range []string{`href="/wiki/B"`, `class="new" href="/w/index.php?title=Missing_page&amp;action=edit&amp;redlink=1"`, `href="/wiki/File:X.jpg"`} {
		if !strings.Contains(body, want) {
			t.Errorf("A lacks %s:\n%s", want, body)
		}
	}
	if code, _ := get("/wiki/" + DeletedTitle); code != http.StatusOK {
		t.Errorf("night 1: the page to delete answers %d", code)
	}
	s.SetNight(2)
	if code, _ := get("/wiki/" + DeletedTitle); code != http.StatusNotFound {
		t.Errorf("night 2: the deleted page answers %d, want 404", code)
	}
	s.AllLinks = true
	if _, body := get("/wiki/A"); !strings.Contains(body, `href="/wiki/Missing_page"`) {
		t.Errorf("AllLinks: the link to the missing page was changed:\n%s", body)
	}
}

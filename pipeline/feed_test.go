package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// tinyWiki is four articles with revision ids. Night 2 edits A: a new
// revision whose prose links to D as well.
type tinyWiki struct {
	mu     sync.Mutex
	edited bool
}

func (w *tinyWiki) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	edited := w.edited
	w.mu.Unlock()
	links := map[string][]string{"S": {"A", "B"}, "A": {"B"}, "B": {"C"}, "C": {"S"}, "D": {"S"}}
	rev := map[string]int{"S": 100, "A": 200, "B": 300, "C": 400, "D": 500}
	if edited {
		links["A"], rev["A"] = []string{"B", "D"}, 201
	}
	title := strings.TrimPrefix(r.URL.Path, "/wiki/")
	if _, ok := links[title]; !ok {
		http.NotFound(rw, r)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<html><head><title>%s - Wikipedia</title><script>RLCONF={"wgArticleId":%d,"wgRevisionId":%d};</script></head>`,
		title, rev[title]/100, rev[title])
	fmt.Fprintf(&b, `<body><div id="mw-content-text"><div class="mw-parser-output"><p>%s is about tennis.`, title)
	for _, l := range links[title] {
		fmt.Fprintf(&b, ` See <a href="/wiki/%s">%s</a>.`, l, l)
	}
	b.WriteString(`</p></div></div></body></html>`)
	rw.Header().Set("Content-Type", "text/html; charset=UTF-8")
	rw.Write([]byte(b.String()))
}

// feed.atom: an Atom feed a real parser (Python's feedparser) reads as
// Atom 1.0 without complaint, newest run first, each entry the digest of
// its run (the edit with its diff link, the page that entered and why),
// with ids that stay the same when the feed is rewritten.
func TestFeedIsAtomWithTheDigest(t *testing.T) {
	python := "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import feedparser").Run(); err != nil {
		t.Skip("no feedparser (Debian's python3-feedparser; .ci/run installs it)")
	}
	w := &tinyWiki{}
	srv := httptest.NewServer(w)
	defer srv.Close()
	r := testRunner(t, srv.URL)
	job := testJob("tiny", 10)
	job.Seeds, job.LinkScope, job.FeedEntries = []string{"/wiki/S"}, "prose", 2
	var ids []string
	for night := range 3 {
		w.mu.Lock()
		w.edited = night >= 1
		w.mu.Unlock()
		m, err := r.Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.RunID)
	}
	script := `import feedparser, json, sys
f = feedparser.parse(sys.argv[1])
print(json.dumps({"version": f.version, "bozo": int(bool(f.bozo)), "entries": [
  {"id": e.id, "title": e.title, "content": e.content[0].value, "link": e.link} for e in f.entries]}))`
	parse := func() (out struct {
		Version string
		Bozo    int
		Entries []struct{ ID, Title, Content, Link string }
	}) {
		b, err := exec.Command(python, "-c", script, filepath.Join(r.OutDir, "tiny", "feed.atom")).Output()
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	f := parse()
	if f.Version != "atom10" || f.Bozo != 0 {
		t.Fatalf("feedparser: version %q, bozo %d", f.Version, f.Bozo)
	}
	if len(f.Entries) != 2 || !strings.Contains(f.Entries[0].Title, ids[2]) || !strings.Contains(f.Entries[1].Title, ids[1]) {
		t.Fatalf("entries, newest first and at most feed_entries (2): %+v", f.Entries)
	}
	night2 := f.Entries[1]
	for _, want := range []string{"/w/index.php?diff=201&amp;oldid=200", ">D</a> (linked)", "1 edited", "1 entered"} {
		if !strings.Contains(night2.Content+night2.Title, want) {
			t.Errorf("night 2's entry lacks %q:\n%s\n%s", want, night2.Title, night2.Content)
		}
	}
	if !strings.Contains(f.Entries[0].Title, "nothing changed") {
		t.Errorf("night 3, the wiki unchanged: %q", f.Entries[0].Title)
	}
	if night2.Link == "" || !strings.HasSuffix(night2.Link, ids[1]+"/") {
		t.Errorf("night 2's link %q, want its run folder", night2.Link)
	}
	before := f.Entries[0].ID
	os.Remove(filepath.Join(r.OutDir, "tiny", "feed.atom"))
	if err := writeFeed(filepath.Join(r.OutDir, "tiny"), job); err != nil {
		t.Fatal(err)
	}
	if again := parse(); again.Entries[0].ID != before {
		t.Errorf("id %q rewritten as %q", before, again.Entries[0].ID)
	}
}

// Command gensnapshot cuts the demo's snapshot (internal/snapshot) from
// the 2018 Wikipedia corpus: it serves the whole corpus on the loopback,
// crawls the demo job's first two nights from it, and keeps every page
// those crawls requested that the corpus holds, reduced to what the
// crawler reads (scripts, styles, comments and head metadata removed),
// with links to pages the corpus lacks turned into text (a closed world).
// It then crawls the reduced snapshot the same way and fails unless both
// crawls give the same pages, states, relevances and edges. The same
// corpus gives the same bytes.
//
//	go run ./cmd/gensnapshot \
//	  -corpus ../shared/data/wikipedia-2018/uw-cse373-en-wikipedia-2018.tar.zst \
//	  -robots ../shared/data/robots/en.wikipedia.org-robots-2023.txt \
//	  -out internal/snapshot/data/pages.tar.zst
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/topicrank/topicrank/internal/snapshot"
	"github.com/topicrank/topicrank/internal/tarzst"
	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl"
)

func main() {
	corpus := flag.String("corpus", "", "the 2018 corpus (.tar.zst)")
	robots := flag.String("robots", "", "robots.txt to serve")
	out := flag.String("out", "internal/snapshot/data/pages.tar.zst", "where to write the snapshot")
	flag.Parse()
	if err := cut(*corpus, *robots, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gensnapshot:", err)
		os.Exit(1)
	}
}

func cut(corpusPath, robotsPath, out string) error {
	whole, err := readCorpus(corpusPath)
	if err != nil {
		return err
	}
	if whole.Robots, err = os.ReadFile(robotsPath); err != nil {
		return err
	}
	closeWorld(whole)
	requested, before, err := crawlNights(whole)
	if err != nil {
		return err
	}
	snap := &snapshot.Snapshot{Robots: whole.Robots, Pages: map[string][]byte{}}
	for title := range requested {
		if body, ok := whole.Pages[title]; ok {
			snap.Pages[title] = reduce(body)
		}
	}
	_, after, err := crawlNights(snap)
	if err != nil {
		return err
	}
	if err := same(before, after); err != nil {
		return fmt.Errorf("the reduced snapshot crawls differently from the corpus (reduce removed something the crawler reads): %w", err)
	}
	var buf bytes.Buffer
	if err := snapshot.Write(&buf, snap); err != nil {
		return err
	}
	fmt.Printf("%d pages, %d bytes\n", len(snap.Pages), buf.Len())
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// readCorpus reads the corpus archive's article pages by title.
func readCorpus(path string) (*snapshot.Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := &snapshot.Snapshot{Pages: map[string][]byte{}}
	err = tarzst.Walk(f, func(name string, contents io.Reader) error {
		if !strings.HasSuffix(name, ".html") {
			return nil
		}
		b, err := io.ReadAll(contents)
		if err != nil {
			return err
		}
		meta, body, ok := bytes.Cut(b, []byte("-->"))
		_, uri, _ := bytes.Cut(meta, []byte("uri: https://en.wikipedia.org/wiki/"))
		uri, _, _ = bytes.Cut(uri, []byte("\n"))
		if ok && len(uri) > 0 && !bytes.ContainsAny(uri, ":#?") {
			s.Pages[string(uri)] = bytes.TrimLeft(body, "\n")
		}
		return nil
	})
	return s, err
}

// crawlNights crawls the demo job's nights 1 and 2 from snap and returns
// the titles requested and what each crawl found.
func crawlNights(snap *snapshot.Snapshot) (map[string]bool, []finding, error) {
	cfg, err := pipeline.ParseConfig("demo.yaml", snapshot.JobsYAML)
	if err != nil {
		return nil, nil, err
	}
	job, _ := cfg.Job("demo")
	srv := snapshot.NewServer(snap)
	srv.AllLinks = true // the corpus and its reduction, link for link
	var mu sync.Mutex
	requested := map[string]bool{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if t, ok := strings.CutPrefix(r.URL.Path, "/wiki/"); ok {
			mu.Lock()
			requested[t] = true
			mu.Unlock()
		}
		srv.ServeHTTP(w, r)
	}))
	defer hs.Close()
	var results []finding
	for night := 1; night <= 2; night++ {
		srv.SetNight(night)
		r := pipeline.NewRunner("", slog.New(slog.DiscardHandler))
		r.BaseURL = hs.URL
		cc, err := r.CrawlConfig(job, slog.New(slog.DiscardHandler))
		if err != nil {
			return nil, nil, err
		}
		cc.KeepText = false
		res, err := crawl.Crawl(context.Background(), cc)
		if err != nil {
			return nil, nil, err
		}
		results = append(results, found(res))
	}
	return requested, results, nil
}

// same reports the first difference between two nights' findings.
func same(a, b []finding) error {
	for n := range a {
		if len(a[n].Pages) != len(b[n].Pages) {
			return fmt.Errorf("night %d: %d pages, then %d", n+1, len(a[n].Pages), len(b[n].Pages))
		}
		for i := range a[n].Pages {
			if a[n].Pages[i] != b[n].Pages[i] {
				return fmt.Errorf("night %d: %+v, then %+v", n+1, a[n].Pages[i], b[n].Pages[i])
			}
		}
		if !reflect.DeepEqual(a[n].Edges, b[n].Edges) {
			return fmt.Errorf("night %d: the edges differ", n+1)
		}
	}
	return nil
}

// finding is what a crawl found, not when or how fast.
type finding struct {
	Pages []pageFinding
	Edges []crawl.Edge
}

type pageFinding struct {
	Key, Title, Class string
	State             crawl.FetchState
	Status, Links     int
	Relevance         float64
}

func found(res *crawl.Result) finding {
	f := finding{Edges: res.Edges}
	for _, p := range res.Pages {
		f.Pages = append(f.Pages, pageFinding{p.Key, p.Title, p.Class, p.State, p.Status, p.Links, p.Relevance})
	}
	return f
}

// articleLink is an anchor to an article of the corpus's host: group 1 is
// the href's path after /wiki/, group 2 the anchor's inner HTML.
var articleLink = regexp.MustCompile(`(?s)<a\s[^>]*?href="(?:(?:https?:)?//en\.wikipedia\.org)?/wiki/([^"#?:]*)"[^>]*>(.*?)</a>`)

// closeWorld turns each link to an article the corpus lacks into its
// anchor's text: the corpus is a partial crawl, and a demo whose crawl
// met a 404 at most links would show little else.
func closeWorld(s *snapshot.Snapshot) {
	for title, body := range s.Pages {
		s.Pages[title] = articleLink.ReplaceAllFunc(body, func(a []byte) []byte {
			m := articleLink.FindSubmatch(a)
			target, err := url.PathUnescape(html.UnescapeString(string(m[1])))
			if _, ok := s.Pages[strings.ReplaceAll(target, " ", "_")]; err != nil || ok {
				return a
			}
			return m[2]
		})
	}
}

// What reduce removes: elements the crawler never reads (their text is
// not the article's; their links are not article links), comments, and
// head elements other than the title, charset and canonical link.
var (
	dropElements = regexp.MustCompile(`(?s)<(script|style|noscript)\b[^>]*>.*?</(script|style|noscript)>`)
	dropComments = regexp.MustCompile(`(?s)<!--.*?-->`)
	dropHead     = regexp.MustCompile(`<(meta|link)\b[^>]*>`)
	keepHead     = regexp.MustCompile(`rel="canonical"|charset=`)
	blankLines   = regexp.MustCompile(`\n\s*\n+`)
)

func reduce(body []byte) []byte {
	config := identityConfig(body)
	body = dropElements.ReplaceAll(body, nil)
	body = dropComments.ReplaceAll(body, nil)
	body = dropHead.ReplaceAllFunc(body, func(tag []byte) []byte {
		if keepHead.Match(tag) {
			return tag
		}
		return nil
	})
	if config != "" {
		body = bytes.Replace(body, []byte("</head>"), []byte(config+"</head>"), 1)
	}
	return blankLines.ReplaceAll(body, []byte("\n"))
}

// identityConfig is the part of a page's mw.config that says who it is
// (page id, revision, Wikidata item), as a script of its own: the demo's
// tables have page ids to join on, and an edit between nights a new
// revision (snapshot.Edit). The categories are in the catlinks block,
// which reduce keeps.
func identityConfig(body []byte) string {
	var keys []string
	for _, re := range identityKeys {
		if m := re.Find(body); m != nil {
			keys = append(keys, string(m))
		}
	}
	if len(keys) == 0 {
		return ""
	}
	return "<script>RLCONF={" + strings.Join(keys, ",") + "};</script>"
}

var identityKeys = []*regexp.Regexp{
	regexp.MustCompile(`"wgArticleId":[0-9]+`),
	regexp.MustCompile(`"wgRevisionId":[0-9]+`),
	regexp.MustCompile(`"wgWikibaseItemId":"Q[0-9]+"`),
}

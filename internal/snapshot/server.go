package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Server serves a snapshot as en.wikipedia.org: GET /robots.txt and
// /wiki/Title, with ETag and Last-Modified, 304 to a conditional request
// for an unchanged page, and 404 for a title the snapshot lacks. Night 1
// serves the pages as saved; each later night edits some of them (Edit).
type Server struct {
	snap  *Snapshot
	night atomic.Int32
	// AllLinks serves every link as saved, links to pages the snapshot
	// lacks included (cmd/gensnapshot, to crawl the corpus and the
	// snapshot alike); by default they are red links.
	AllLinks bool
}

// NewServer returns a server of snap at night 1.
func NewServer(snap *Snapshot) *Server {
	s := &Server{snap: snap}
	s.night.Store(1)
	return s
}

// SetNight moves the server to night n (at least 1).
func (s *Server) SetNight(n int) { s.night.Store(int32(max(n, 1))) }

// FirstNight is when night 1's pages were last modified; night n is n-1
// days after it.
var FirstNight = time.Date(2018, 2, 1, 0, 0, 0, 0, time.UTC)

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == "/robots.txt" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(s.snap.Robots)
		return
	}
	title, ok := strings.CutPrefix(r.URL.Path, "/wiki/")
	body := s.snap.Pages[strings.ReplaceAll(title, " ", "_")]
	if !ok || body == nil {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<!DOCTYPE html><html><body><p>Wikipedia does not have an article with this exact name.</p></body></html>")
		return
	}
	night := int(s.night.Load())
	if Deleted(title, night) {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<!DOCTYPE html><html><body><p>This page has been deleted.</p></body></html>")
		return
	}
	body, last := Edit(title, body, night)
	if !s.AllLinks {
		body = s.redLinks(body)
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Last-Modified", FirstNight.AddDate(0, 0, last-1).Format(http.TimeFormat))
	h.Set("Content-Type", "text/html; charset=UTF-8")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

// DeletedTitle is the page the demo deletes from its second night on, so
// that a re-crawl finds a page gone (changes.parquet's cause "gone").
// Links to it stay, as they do on a wiki until someone edits them away.
const DeletedTitle = "Seattle_Hotel"

// Deleted reports whether title is deleted on night n.
func Deleted(title string, n int) bool { return n >= 2 && title == DeletedTitle }

// articleHref is a /wiki/ link's href and title, as the snapshot writes
// them.
var articleHref = regexp.MustCompile(`href="/wiki/([^"#?]*)"`)

// redLinks serves links to pages the snapshot lacks as a wiki serves
// links to missing pages: red links to the edit form (class "new"), which
// a crawl does not follow, so the demo stays inside its snapshot.
func (s *Server) redLinks(body []byte) []byte {
	return articleHref.ReplaceAllFunc(body, func(m []byte) []byte {
		raw := string(articleHref.FindSubmatch(m)[1])
		title, err := url.PathUnescape(raw)
		if err != nil || strings.Contains(title, ":") || s.snap.Pages[strings.ReplaceAll(title, " ", "_")] != nil {
			return m
		}
		return []byte(`class="new" href="/w/index.php?title=` + url.QueryEscape(title) + `&amp;action=edit&amp;redlink=1"`)
	})
}

// Edit returns page title's body as it is on night n, and the night it
// last changed. Each night after the first, about one page in sixteen
// gets a sentence added to its first paragraph, and about one in twelve a
// link there to one of that night's three pages in the news, which the
// links lift in PageRank. Edits accumulate, and depend on the title and night
// alone: every run of the demo sees the same pages.
func Edit(title string, body []byte, n int) ([]byte, int) {
	last := 1
	for night := 2; night <= n; night++ {
		var add string
		switch x := roll(title, night); {
		case x < 0.06:
			add = fmt.Sprintf("On night %d this article was revised. ", night)
		case x < 0.14:
			news := inTheNews(night)
			to := news[int(roll(title+"/link", night)*float64(len(news)))]
			add = fmt.Sprintf(`See also <a href="/wiki/%s" title="%s">%s</a>, in the news on night %d. `,
				to, strings.ReplaceAll(to, "_", " "), strings.ReplaceAll(to, "_", " "), night)
		default:
			continue
		}
		if b, ok := intoFirstParagraph(body, add); ok {
			body, last = bumpRevision(b), night
		}
	}
	return body, last
}

// revisionID is a page's revision in its mw.config.
var revisionID = regexp.MustCompile(`"wgRevisionId":([0-9]+)`)

// bumpRevision gives an edited page a new revision id, as a wiki does
// with every edit (the next number: ids only grow).
func bumpRevision(body []byte) []byte {
	return revisionID.ReplaceAllFunc(body, func(m []byte) []byte {
		n, err := strconv.ParseInt(string(revisionID.FindSubmatch(m)[1]), 10, 64)
		if err != nil {
			return m
		}
		return []byte(`"wgRevisionId":` + strconv.FormatInt(n+1, 10))
	})
}

// newsworthy are the pages that can be in the news: well-known pages of
// the demo's topic. Edits depend on titles and nights alone, never on
// which pages a snapshot holds, so a snapshot and the corpus it was cut
// from edit alike (cmd/gensnapshot checks that they crawl alike).
var newsworthy = []string{"Space_Needle", "Mount_Rainier", "Seattle_Seahawks",
	"Puget_Sound", "University_of_Washington", "King_County,_Washington", "Seattle_Mariners",
	"Lake_Washington", "Seattle–Tacoma_International_Airport"}

// inTheNews returns night n's three pages in the news.
func inTheNews(n int) []string {
	var news []string
	for i := 0; len(news) < 3; i++ {
		t := newsworthy[int(roll("news/"+strconv.Itoa(i), n)*float64(len(newsworthy)))]
		if !slices.Contains(news, t) {
			news = append(news, t)
		}
	}
	return news
}

// roll is a number in [0,1) fixed by key and night.
func roll(key string, night int) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%d", key, night)
	return float64(h.Sum64()%1_000_000) / 1_000_000
}

// intoFirstParagraph inserts html at the start of the article's first
// paragraph.
func intoFirstParagraph(body []byte, html string) ([]byte, bool) {
	content := bytes.Index(body, []byte(`id="mw-content-text"`))
	if content < 0 {
		return body, false
	}
	// The first paragraph of the prose, not one inside a table (an
	// infobox, a maintenance box), which a reader of the article skips.
	at := -1
	for from := content; ; {
		p := bytes.Index(body[from:], []byte("<p>"))
		if p < 0 {
			return body, false
		}
		p += from
		between := body[content:p]
		if bytes.Count(between, []byte("<table")) == bytes.Count(between, []byte("</table>")) {
			at = p + len("<p>")
			break
		}
		from = p + len("<p>")
	}
	out := make([]byte, 0, len(body)+len(html))
	out = append(out, body[:at]...)
	out = append(out, html...)
	return append(out, body[at:]...), true
}

// Package wikitest serves Wikipedia-shaped test sites: a generated wiki on
// an httptest server, and the real 2018 corpus through ../shared's
// wikimirror when it is present. It is for tests only.
package wikitest

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Robots is the generated wiki's robots.txt: it bans the /wiki/Secret_
// pages that articles link to, for every agent.
const Robots = "User-agent: *\nDisallow: /w/\nDisallow: /wiki/Secret_\nAllow: /wiki/Secret_Garden\n"

// Wiki is a generated wiki: Pages articles named Page_0 ... with links
// between them, topic words in their text, a redirect title, links to
// pages that do not exist (404) and to pages robots.txt disallows.
type Wiki struct {
	Pages  int
	Server *httptest.Server

	mu       sync.Mutex
	requests map[string]int // request path -> count
}

// New starts a generated wiki of n pages; it is closed with the test.
func New(t testing.TB, n int) *Wiki {
	w := &Wiki{Pages: n, requests: map[string]int{}}
	w.Server = httptest.NewServer(w)
	t.Cleanup(w.Server.Close)
	return w
}

// URL returns the server's base URL.
func (w *Wiki) URL() string { return w.Server.URL }

// Requests returns how often each path was requested.
func (w *Wiki) Requests() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := make(map[string]int, len(w.requests))
	for k, v := range w.requests {
		m[k] = v
	}
	return m
}

func (w *Wiki) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	w.requests[r.URL.Path]++
	w.mu.Unlock()
	if r.URL.Path == "/robots.txt" {
		rw.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(rw, Robots)
		return
	}
	title, ok := strings.CutPrefix(r.URL.Path, "/wiki/")
	i, exists := w.index(title)
	if !ok || !exists {
		rw.Header().Set("Content-Type", "text/html; charset=UTF-8")
		rw.WriteHeader(http.StatusNotFound)
		fmt.Fprint(rw, "<html><body><p>Wikipedia does not have an article with this exact name.</p></body></html>")
		return
	}
	rw.Header().Set("Content-Type", "text/html; charset=UTF-8")
	fmt.Fprint(rw, Article(i, w.Pages))
}

// index maps a title to its article number. "Alias_of_Page_3" is a
// redirect title: it serves Page_3, whose canonical link names Page_3.
func (w *Wiki) index(title string) (int, bool) {
	title = strings.TrimPrefix(title, "Alias_of_")
	var i int
	if _, err := fmt.Sscanf(title, "Page_%d", &i); err != nil || fmt.Sprintf("Page_%d", i) != title {
		return 0, false
	}
	return i, i >= 0 && i < w.Pages
}

var topicWords = []string{"tennis", "grand slam", "racket", "court"}

// Article returns the HTML of article i of an n-page wiki, shaped like
// Wikipedia's desktop HTML: header, #mw-content-text with an infobox before
// the first paragraph, paragraphs with links, then sidebar and footer.
func Article(i, n int) string {
	rng := rand.New(rand.NewPCG(uint64(i), 7))
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html><html><head><title>Page %d - Wikipedia</title>`, i)
	fmt.Fprintf(&b, `<link rel="canonical" href="https://en.wikipedia.org/wiki/Page_%d"/></head><body>`, i)
	b.WriteString(`<div id="mw-head"><a href="/wiki/Main_Page">Main page</a></div>`)
	b.WriteString(`<div id="content"><div id="bodyContent"><div id="mw-content-text" lang="en"><div class="mw-parser-output">`)
	fmt.Fprintf(&b, `<table class="infobox"><tr><td><a href="/wiki/Infobox_%d">infobox</a></td></tr></table>`, i)
	for p := 0; p < 3; p++ {
		b.WriteString("<p>")
		for k := 0; k < 6; k++ {
			for range 1 + rng.IntN(12) {
				b.WriteString("lorem ")
			}
			if rng.IntN(4) == 0 {
				b.WriteString(topicWords[rng.IntN(len(topicWords))] + " ")
			}
			b.WriteString(link(rng, i, n))
		}
		b.WriteString("</p>\n")
	}
	b.WriteString(`</div><noscript><img src="//en.wikipedia.org/wiki/Special:CentralAutoLogin/start"/></noscript></div>`)
	b.WriteString(`<div class="printfooter">Retrieved from <a href="https://en.wikipedia.org/w/index.php?title=X">here</a></div></div></div>`)
	b.WriteString(`<div id="mw-navigation"><a href="/wiki/Main_Page">Main page</a> <a href="/wiki/Special:Random">Random article</a> <a href="/wiki/Portal:Contents">Contents</a></div>`)
	b.WriteString(`<div id="footer"><a href="/wiki/Wikipedia:About">About Wikipedia</a></div></body></html>`)
	return b.String()
}

// link returns one anchor: mostly to other articles, sometimes to a
// redirect title, a missing page, a disallowed page, a section or a file.
func link(rng *rand.Rand, i, n int) string {
	target := rng.IntN(n)
	switch rng.IntN(20) {
	case 0:
		return fmt.Sprintf(`<a href="/wiki/Secret_%d">secret</a> `, target)
	case 1:
		return fmt.Sprintf(`<a href="/wiki/Missing_%d">missing</a> `, target)
	case 2:
		return `<a href="/wiki/Alias_of_Page_3">alias</a> `
	case 3:
		return fmt.Sprintf(`<a href="/wiki/Page_%d#History">section</a> <a href="/wiki/File:Photo_%d.jpg">file</a> `, target, target)
	case 4:
		return fmt.Sprintf(`<a href="/wiki/Page_%d">%s</a> `, target, topicWords[rng.IntN(len(topicWords))])
	case 5:
		return fmt.Sprintf(`<a href="https://en.wikipedia.org/wiki/%s">absolute</a> `, url.PathEscape(fmt.Sprintf("Page %d", target)))
	}
	return fmt.Sprintf(`<a href="/wiki/Page_%d" title="Page %d">page %d</a> `, target, target, target)
}

package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
)

// hostile is a site whose robots.txt and pages a test sets; it records
// every path requested.
type hostile struct {
	robots func(w http.ResponseWriter, r *http.Request)
	pages  map[string]string // path -> prose, or "redirect:URL"
	mu     sync.Mutex
	seen   map[string]int
}

func (h *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.seen[r.URL.RawPath+r.URL.Path] = h.seen[r.URL.RawPath+r.URL.Path] + 1
	h.mu.Unlock()
	if r.URL.Path == "/robots.txt" {
		h.robots(w, r)
		return
	}
	body, ok := h.pages[r.URL.Path]
	switch {
	case !ok:
		http.NotFound(w, r)
	case strings.HasPrefix(body, "redirect:"):
		http.Redirect(w, r, strings.TrimPrefix(body, "redirect:"), http.StatusFound)
	default:
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<div id="mw-content-text"><div class="mw-parser-output">%s</div></div>`, body)
	}
}

func (h *hostile) requested(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for p, c := range h.seen {
		if strings.Contains(p, path) {
			n += c
		}
	}
	return n
}

func serveHostile(t *testing.T, robots func(http.ResponseWriter, *http.Request), pages map[string]string) (*hostile, string) {
	h := &hostile{robots: robots, pages: pages, seen: map[string]int{}}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return h, srv.URL
}

func robotsText(txt string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, txt) }
}

var seedPage = map[string]string{
	"/wiki/S":      `<p><a href="/wiki/Secret">s</a> <a href="/wiki/Open">o</a></p>`,
	"/wiki/Open":   `<p>open</p>`,
	"/wiki/Secret": `<p>secret</p>`,
}

// A robots.txt that cannot be read whole disallows everything: a body cut
// short of its Content-Length, one served until the time-out, one that
// answers 5xx or 429. Nothing but robots.txt is requested.
func TestRobotsUnreadableDisallowsAll(t *testing.T) {
	for name, robots := range map[string]func(http.ResponseWriter, *http.Request){
		"closed before Content-Length": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000")
			fmt.Fprint(w, "User-agent: *\nDisallow: /wiki/Secret\n")
		},
		"slow until the time-out": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000")
			fmt.Fprint(w, "User-agent: *\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done() // the client gives up
		},
		"503": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) },
		"429": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(429) },
		"garbage": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			fmt.Fprint(w, "not gzip")
		},
	} {
		t.Run(name, func(t *testing.T) {
			h, base := serveHostile(t, robots, seedPage)
			cfg := config(base, 10, 2)
			cfg.Seeds, cfg.Fetch.MaxAttempts, cfg.Fetch.Timeout = []string{"/wiki/S"}, 2, 200*time.Millisecond
			cfg.Fetch.MaxBackoff = time.Millisecond
			res := run(t, cfg)
			if !strings.HasPrefix(res.Robots, "disallow-all") || res.Complete || len(res.Pages) != 0 {
				t.Errorf("robots %q, complete %v, %d pages", res.Robots, res.Complete, len(res.Pages))
			}
			if n := h.requested("/wiki/"); n != 0 {
				t.Errorf("%d page requests, want none", n)
			}
		})
	}
}

// A robots.txt larger than the body cap is parsed up to 512 KiB: its rules
// there apply.
func TestRobotsLargerThanCap(t *testing.T) {
	big := "User-agent: *\nDisallow: /wiki/Secret\n" + strings.Repeat("# padding\n", 200_000)
	h, base := serveHostile(t, robotsText(big), seedPage)
	cfg := config(base, 10, 2)
	cfg.Seeds = []string{"/wiki/S"}
	res := run(t, cfg)
	if !strings.HasPrefix(res.Robots, "ok (first 512 KiB") || h.requested("/wiki/Secret") != 0 || h.requested("/wiki/Open") != 1 {
		t.Errorf("robots %q; Secret requested %d times, Open %d", res.Robots, h.requested("/wiki/Secret"), h.requested("/wiki/Open"))
	}
}

// Redirect targets and dot segments are checked against robots.txt as
// the server resolves them, and no request leaves the base URL's host:
// not even for the job's own host when -base-url points elsewhere.
func TestNoBypassAndContainment(t *testing.T) {
	pages := map[string]string{
		"/wiki/S": `<p><a href="/wiki/Jump">j</a> <a href="/wiki/Foo/../Secret">dots</a> <a href="/wiki/%2E%2E/w/private">encoded dots</a>
			<a href="/wiki/Away">away</a> <a href="/wiki/Open">open</a></p>`,
		"/wiki/Jump":   "redirect:/wiki/Secret",
		"/wiki/Away":   "redirect:https://en.wikipedia.org/wiki/Open",
		"/wiki/Open":   `<p>open</p>`,
		"/wiki/Secret": `<p>secret</p>`,
		"/w/private":   `<p>private</p>`,
	}
	h, base := serveHostile(t, robotsText("User-agent: *\nDisallow: /wiki/Secret\nDisallow: /w/\n"), pages)
	cfg := config(base, 10, 2)
	cfg.Seeds, cfg.Hosts = []string{"/wiki/S"}, []string{"en.wikipedia.org"}
	res := run(t, cfg)
	for _, p := range []string{"/wiki/Secret", "/w/private", "Foo/../"} {
		if n := h.requested(p); n != 0 {
			t.Errorf("%s requested %d times", p, n)
		}
	}
	classes := map[string]string{}
	for _, p := range res.Pages {
		classes[p.Key] = p.Class + " " + p.Error
	}
	if c := classes["/wiki/Jump"]; !strings.Contains(c, "disallowed by robots.txt") {
		t.Errorf("Jump: %q, want a redirect refused by robots.txt", c)
	}
	if c := classes["/wiki/Away"]; !strings.Contains(c, "leaves the job's hosts") {
		t.Errorf("Away: %q, want a redirect refused for leaving the host", c)
	}
	if _, ok := classes["/wiki/Secret"]; ok {
		t.Error("/wiki/Foo/../Secret became a vertex")
	}
}

// A body whose gzip is broken is an encoding error, not retried as a
// network one: the same bytes would come again.
func TestBrokenGzipIsNotRetried(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		fmt.Fprint(w, "\x1f\x8b\x08\x00garbage that is no deflate stream")
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, noCompression := range []bool{false, true} { // the transport decodes, or we never asked
		f := crawl.NewFetcher(crawl.FetchOptions{UserAgent: ua, NoCompression: noCompression, Backoff: time.Millisecond},
			crawl.NewPoliteness().Host(host, 0, 1), []string{host})
		resp := f.Get(context.Background(), crawl.Request{URL: srv.URL + "/wiki/X", HTML: true})
		if resp.Class != crawl.ClassEncoding || resp.Attempts != 1 {
			t.Errorf("no compression %v: class %q after %d attempts (%v), want %q after 1", noCompression, resp.Class, resp.Attempts, resp.Err, crawl.ClassEncoding)
		}
	}
}

package crawl

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const ua = "topicrank/0.1 (https://example.org; ops@example.org)"

func TestRobotsPrecedence(t *testing.T) {
	txt := `User-agent: *
Disallow: /wiki/Secret
Allow: /wiki/Secret_Garden
Disallow: /wiki/Tie
Allow: /wiki/Tie
Allow: /wiki/Long
Disallow: /wiki/Longer

User-agent: topicrank
Disallow: /wiki/Only_us
`
	r := ParseRobots(200, []byte(txt), ua)
	tests := []struct {
		key   string
		allow bool
	}{
		{"/wiki/Secret_1", true},          // the topicrank group replaces '*'
		{"/wiki/Only_us", false},          // matched on the product token
		{"/wiki/Only_us_and_more", false}, // rules are prefixes
		{"/wiki/Tennis", true},
	}
	for _, tt := range tests {
		if got := r.Allowed(tt.key); got != tt.allow {
			t.Errorf("Allowed(%s) = %v, want %v", tt.key, got, tt.allow)
		}
	}

	star := ParseRobots(200, []byte(txt), "otherbot/1.0")
	for _, tt := range []struct {
		key   string
		allow bool
	}{
		{"/wiki/Secret_1", false},
		{"/wiki/Secret_Garden", true}, // longest match wins
		{"/wiki/Tie", true},           // equal length: Allow wins, though Disallow comes first
		{"/wiki/Longer_x", false},     // longest match wins over an earlier Allow
		{"/wiki/Long_x", true},
	} {
		if got := star.Allowed(tt.key); got != tt.allow {
			t.Errorf("'*' group: Allowed(%s) = %v, want %v", tt.key, got, tt.allow)
		}
	}
}

func TestRobotsStatus(t *testing.T) {
	for _, tt := range []struct {
		status int
		allow  bool
	}{{404, true}, {403, true}, {500, false}, {503, false}, {0, false}} {
		r := ParseRobots(tt.status, []byte("User-agent: *\nDisallow: /\n"), ua)
		if got := r.Allowed("/wiki/Tennis"); got != tt.allow {
			t.Errorf("status %d: Allowed = %v, want %v", tt.status, got, tt.allow)
		}
	}
}

// Percent-encoded and decoded rules both apply.
func TestRobotsEncodedPaths(t *testing.T) {
	r := ParseRobots(200, []byte("User-agent: *\nDisallow: /wiki/Caf%C3%A9_secret\nDisallow: /wiki/Ünicode\n"), ua)
	for _, key := range []string{"/wiki/Café_secret", "/wiki/Ünicode"} {
		if r.Allowed(key) {
			t.Errorf("Allowed(%s) = true, want false", key)
		}
	}
}

// Wikipedia's real robots.txt (2017 with a BOM, and 2023): articles are
// allowed, /w/ is not, the bans of named bots do not touch a topicrank
// agent.
func TestRobotsRealWikipedia(t *testing.T) {
	for _, year := range []string{"2017", "2023"} {
		path := filepath.Join("..", "..", "..", "shared", "data", "robots", "en.wikipedia.org-robots-"+year+".txt")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("%s absent: %v", path, err)
		}
		r := ParseRobots(200, b, ua)
		if !r.Allowed("/wiki/Tennis") || !r.Allowed("/wiki/Lennon–McCartney") || r.Allowed("/w/index.php") ||
			r.Allowed("/wiki/Special:Zufällige_Seite") {
			t.Errorf("%s: Tennis allowed %v, /w/ %v, Special:Zufällige_Seite %v", year,
				r.Allowed("/wiki/Tennis"), r.Allowed("/w/index.php"), r.Allowed("/wiki/Special:Zufällige_Seite"))
		}
		banned := ParseRobots(200, b, "HTTrack 3.0")
		if banned.Allowed("/wiki/Tennis") {
			t.Errorf("%s: HTTrack is banned outright but allowed", year)
		}
	}
}

// A Crawl-delay above MaxCrawlDelay is capped, with a warning.
func TestCrawlDelayCapped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 3600\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<div id="mw-content-text"><p>seed</p></div>`)
	}))
	defer srv.Close()
	var logs bytes.Buffer
	p := NewPoliteness()
	_, err := Crawl(context.Background(), Config{BaseURL: srv.URL, Seeds: []string{"/wiki/S"}, MaxPages: 1, MaxRPS: 100,
		Concurrency: 1, Politeness: p, Fetch: FetchOptions{UserAgent: ua}, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h := p.Host(strings.TrimPrefix(srv.URL, "http://"), 100, 1)
	if h.interval != MaxCrawlDelay || !strings.Contains(logs.String(), "Crawl-delay capped") {
		t.Errorf("interval %v, logs %q; want %v and a warning", h.interval, logs.String(), MaxCrawlDelay)
	}
}

package crawl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func testFetcher(srv *httptest.Server, opt FetchOptions) *Fetcher {
	opt.UserAgent = ua
	if opt.Backoff == 0 {
		opt.Backoff = time.Millisecond
	}
	host := srv.Listener.Addr().String()
	return NewFetcher(opt, NewPoliteness().Host(host, 0, 2), []string{host})
}

func TestFetchOutcomes(t *testing.T) {
	var attempts atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/flaky", func(w http.ResponseWriter, r *http.Request) {
		if attempts.Add(1) <= 2 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<p>ok</p>"))
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "x", 500) })
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "x", 404) })
	mux.HandleFunc("/image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG"))
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(strings.Repeat("<p>filler</p>", 1000)))
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://elsewhere.example/wiki/X", http.StatusFound)
	})
	mux.HandleFunc("/ua", func(w http.ResponseWriter, r *http.Request) {
		if r.UserAgent() != ua {
			http.Error(w, "no user agent", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "text/html")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := testFetcher(srv, FetchOptions{MaxBody: 4096, MaxAttempts: 3})

	for _, tt := range []struct {
		path     string
		class    string
		status   int
		attempts int
	}{
		{"/flaky", ClassOK, 200, 3},
		{"/broken", ClassHTTP, 500, 3},
		{"/gone", ClassHTTP, 404, 1},
		{"/image", ClassNotHTML, 200, 3}, // asked again: junk is often transient
		{"/huge", ClassTooLarge, 200, 1},
		{"/away", ClassRedirect, 0, 1},
		{"/ua", ClassOK, 200, 1},
	} {
		r := f.Get(context.Background(), Request{URL: srv.URL + tt.path, HTML: true})
		if r.Class != tt.class || r.Status != tt.status || r.Attempts != tt.attempts {
			t.Errorf("%s: class %q status %d attempts %d (err %v); want %q %d %d",
				tt.path, r.Class, r.Status, r.Attempts, r.Err, tt.class, tt.status, tt.attempts)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	if d := retryAfter("3"); d != 3*time.Second {
		t.Errorf("retryAfter(3) = %v", d)
	}
	if d := retryAfter(""); d != time.Second {
		t.Errorf("retryAfter('') = %v, want the 1 s default", d)
	}
	if d := retryAfter("99999"); d != 10*time.Minute {
		t.Errorf("retryAfter(99999) = %v, want the 10 min cap", d)
	}
	if d := retryAfter(time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)); d != 0 {
		t.Errorf("retryAfter(past date) = %v, want 0", d)
	}
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	f := &Fetcher{opt: FetchOptions{Backoff: 100 * time.Millisecond, MaxBackoff: time.Second}}
	for attempt, lo := range []time.Duration{50, 100, 200, 400} {
		d := f.backoff(attempt + 1)
		if lo *= time.Millisecond; d < lo || d > min(3*lo, time.Second) {
			t.Errorf("backoff(%d) = %v, want in [%v, %v]", attempt+1, d, lo, 3*lo)
		}
	}
	if d := f.backoff(20); d != time.Second {
		t.Errorf("backoff(20) = %v, want the cap", d)
	}
}

func TestFetchConditional(t *testing.T) {
	const etag, lastMod = `W/"v1"`, "Thu, 08 Feb 2018 00:00:00 GMT"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == etag || r.Header.Get("If-Modified-Since") == lastMod {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", lastMod)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>page</p>"))
	}))
	defer srv.Close()
	f := testFetcher(srv, FetchOptions{})
	first := f.Get(context.Background(), Request{URL: srv.URL + "/wiki/A", HTML: true})
	if first.Status != 200 || first.ETag != etag || first.LastModified != lastMod {
		t.Fatalf("first: %+v", first)
	}
	for _, req := range []Request{{ETag: etag}, {LastModified: lastMod}} {
		req.URL, req.HTML = srv.URL+"/wiki/A", true
		r := f.Get(context.Background(), req)
		if r.Status != 304 || r.Class != ClassOK || len(r.Body) != 0 {
			t.Errorf("conditional %+v: status %d class %q", req, r.Status, r.Class)
		}
	}
	// A 304 to an unconditional request is an error, not an empty page.
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(304) }))
	defer plain.Close()
	if r := testFetcher(plain, FetchOptions{}).Get(context.Background(), Request{URL: plain.URL, HTML: true}); r.Class != ClassHTTP {
		t.Errorf("unasked 304: class %q", r.Class)
	}
}

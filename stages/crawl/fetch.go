package crawl

import (
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

// Error classes recorded for every fetch that did not give a usable page.
const (
	ClassOK        = ""
	ClassHTTP      = "http_status" // a final 3xx/4xx/5xx answer
	ClassNetwork   = "network"     // connection refused, reset, truncated body
	ClassTimeout   = "timeout"
	ClassNotHTML   = "not_html"
	ClassTooLarge  = "too_large"
	ClassRedirect  = "redirect" // too many, off the job's hosts, or disallowed
	ClassEncoding  = "encoding" // a body whose compression cannot be read
	ClassCancelled = "cancelled"
	ClassBudget    = "budget" // not requested: the run's request budget or deadline was spent
)

// FetchOptions tune a Fetcher; zero fields take the defaults.
type FetchOptions struct {
	UserAgent   string
	MaxBody     int64         // default 8 MiB
	MaxAttempts int           // default 4
	Timeout     time.Duration // per attempt, default 30 s
	Backoff     time.Duration // first retry delay, default 500 ms
	MaxBackoff  time.Duration // default 30 s
	// NoCompression stops asking for gzip. Crawl sets it for a loopback
	// host (a local mirror), where compressing costs the server more CPU
	// than it saves: a 1,000-page crawl of the mirror takes 1 s instead of 4.
	NoCompression bool
	// WrapTransport, if set, wraps the HTTP transport: how a caller
	// observes every request (metrics) without the crawl knowing of it.
	WrapTransport func(http.RoundTripper) http.RoundTripper
}

// Fetcher gets pages from one host within its politeness limit.
type Fetcher struct {
	opt    FetchOptions
	host   *HostLimit
	client *http.Client
	// allow, once set, must allow the path of every redirect target
	// (robots.txt); before, robots.txt itself is being fetched.
	allow func(escapedPath string) bool
	// budget, if set, must grant every request.
	budget *Budget
	tr     *http.Transport
	sent   *sentCounter
}

// Requests returns the requests sent so far, by the status of their
// answer (0: none).
func (f *Fetcher) Requests() map[int]int { return f.sent.counts() }

// Close closes the fetcher's idle connections: each crawl has a transport
// of its own, and a scheduler running crawl after crawl must not keep
// every one's connections (and their goroutines) until they time out.
func (f *Fetcher) Close() { f.tr.CloseIdleConnections() }

// SetRobots makes every redirect target pass allow (robots.txt), its path
// cleaned as the server will resolve it. It must be called before the
// fetcher is used concurrently.
func (f *Fetcher) SetRobots(allow func(escapedPath string) bool) { f.allow = allow }

// Response is the outcome of one fetch, after retries.
type Response struct {
	Status       int // last HTTP status, 0 if none
	Body         []byte
	ContentType  string
	ETag         string
	LastModified string
	Truncated    bool // the body was cut at Request.MaxBody
	Attempts     int
	Duration     time.Duration
	Class        string // one of the Class constants
	Err          error
}

// NewFetcher returns a fetcher for one host; redirects may go only to hosts
// (and, after SetRobots, only where robots.txt allows).
func NewFetcher(opt FetchOptions, host *HostLimit, hosts []string) *Fetcher {
	if opt.MaxBody == 0 {
		opt.MaxBody = 8 << 20
	}
	if opt.MaxAttempts == 0 {
		opt.MaxAttempts = 4
	}
	if opt.Timeout == 0 {
		opt.Timeout = 30 * time.Second
	}
	if opt.Backoff == 0 {
		opt.Backoff = 500 * time.Millisecond
	}
	if opt.MaxBackoff == 0 {
		opt.MaxBackoff = 30 * time.Second
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	tr.DisableCompression = opt.NoCompression
	f := &Fetcher{opt: opt, host: host, tr: tr, sent: &sentCounter{by: map[int]int{}}}
	var rt http.RoundTripper = tr
	if opt.WrapTransport != nil {
		rt = opt.WrapTransport(tr)
	}
	rt = counting{rt, f.sent}
	f.client = &http.Client{
		Transport: rt,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errRedirect{"more than 5 redirects"}
			}
			if !page.HostIn(req.URL.Host, hosts) {
				return errRedirect{"redirect to " + req.URL.Host + " leaves the job's hosts"}
			}
			path := page.CleanPath(req.URL.EscapedPath())
			if req.URL.RawQuery != "" {
				path += "?" + req.URL.RawQuery
			}
			if f.allow != nil && !f.allow(path) { // nil: robots.txt itself is being fetched

				return errRedirect{"redirect to " + path + " is disallowed by robots.txt"}
			}
			return nil
		},
	}
	return f
}

type errRedirect struct{ msg string }

func (e errRedirect) Error() string { return e.msg }

// Request is one page to fetch.
type Request struct {
	URL  string
	HTML bool // reject content types other than HTML
	// ETag and LastModified, from an earlier answer, make the request
	// conditional: 304 Not Modified if the page is unchanged.
	ETag, LastModified string
	// MaxBody overrides FetchOptions.MaxBody; with Truncate, a longer body
	// is cut to it (Response.Truncated) instead of failing.
	MaxBody  int64
	Truncate bool
}

// Get fetches a page, retrying network errors, timeouts, 429 and 5xx
// answers a bounded number of times with exponential back-off and jitter;
// 429 and 503 honour Retry-After for the whole host. A 304 answer to a
// conditional request is a success with no body.
func (f *Fetcher) Get(ctx context.Context, req Request) Response {
	start := time.Now()
	var r Response
	for r.Attempts < f.opt.MaxAttempts {
		r.Attempts++
		retry, wait := f.attempt(ctx, req, &r)
		if !retry || r.Attempts == f.opt.MaxAttempts {
			break
		}
		if err := sleepUntil(ctx, time.Now().Add(max(wait, f.backoff(r.Attempts)))); err != nil {
			r.Class, r.Err = ClassCancelled, err
			break
		}
	}
	r.Duration = time.Since(start)
	return r
}

// attempt makes one request into r and says whether to retry and how long
// the server asked to wait.
func (f *Fetcher) attempt(ctx context.Context, want Request, r *Response) (retry bool, wait time.Duration) {
	*r = Response{Attempts: r.Attempts}
	if !f.budget.Take() {
		r.Attempts--
		r.Class, r.Err = ClassBudget, errBudget
		return false, 0
	}
	release, err := f.host.Acquire(ctx)
	if err != nil {
		r.Attempts-- // never sent
		r.Class, r.Err = ClassCancelled, err
		return false, 0
	}
	defer release()
	began := time.Now()
	ctx, cancel := inflight(ctx, f.host.latency.deadline(r.Attempts, f.opt.Timeout))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, want.URL, nil)
	if err != nil {
		r.Class, r.Err = ClassNetwork, err
		return false, 0
	}
	req.Header.Set("User-Agent", f.opt.UserAgent)
	if want.ETag != "" {
		req.Header.Set("If-None-Match", want.ETag)
	}
	if want.LastModified != "" {
		req.Header.Set("If-Modified-Since", want.LastModified)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		r.Class, r.Err = classify(err), err
		return r.Class == ClassNetwork || r.Class == ClassTimeout, 0
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		f.host.latency.observe(time.Since(began))
	}
	r.Status = resp.StatusCode
	r.ContentType = resp.Header.Get("Content-Type")
	r.ETag = resp.Header.Get("ETag")
	r.LastModified = resp.Header.Get("Last-Modified")
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable:
		wait = retryAfter(resp.Header.Get("Retry-After"))
		f.host.PauseUntil(time.Now().Add(wait))
		r.Class, r.Err = ClassHTTP, fmt.Errorf("HTTP %d", resp.StatusCode)
		return true, wait
	case resp.StatusCode >= 500:
		r.Class, r.Err = ClassHTTP, fmt.Errorf("HTTP %d", resp.StatusCode)
		return true, 0
	case resp.StatusCode == http.StatusNotModified && (want.ETag != "" || want.LastModified != ""):
		return false, 0
	case resp.StatusCode != http.StatusOK:
		r.Class, r.Err = ClassHTTP, fmt.Errorf("HTTP %d", resp.StatusCode)
		return false, 0
	}
	if ce := resp.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		// The transport decodes only the gzip it asked for: anything left
		// is bytes this fetcher cannot read.
		r.Class, r.Err = ClassEncoding, fmt.Errorf("content encoding %q was not asked for", ce)
		return false, 0
	}
	if want.HTML && !isHTML(r.ContentType) {
		// An article answered with something else is a host's transient
		// junk more often than the article's truth: asked again; a page
		// that answers so every time still fails with this class.
		r.Class, r.Err = ClassNotHTML, fmt.Errorf("content type %q is not HTML", r.ContentType)
		return true, 0
	}
	limit := f.opt.MaxBody
	if want.MaxBody > 0 {
		limit = want.MaxBody
	}
	r.Body, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		r.Body = nil
		r.Class, r.Err = classify(err), fmt.Errorf("reading body: %w", err)
		return r.Class == ClassNetwork || r.Class == ClassTimeout, 0
	}
	f.host.latency.observe(time.Since(began))
	switch {
	case int64(len(r.Body)) <= limit:
	case want.Truncate:
		r.Body, r.Truncated = r.Body[:limit], true
	default:
		r.Body = nil
		r.Class, r.Err = ClassTooLarge, fmt.Errorf("body larger than %d bytes", limit)
	}
	return false, 0
}

func (f *Fetcher) backoff(attempt int) time.Duration {
	d := f.opt.Backoff << min(attempt-1, 20)
	d = time.Duration(float64(d) * (0.5 + rand.Float64())) // jitter: 50% to 150%
	return min(d, f.opt.MaxBackoff)
}

func classify(err error) string {
	var re errRedirect
	var ne net.Error
	var corrupt flate.CorruptInputError
	switch {
	case errors.As(err, &re):
		return ClassRedirect
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.As(err, &corrupt):
		return ClassEncoding // the same bytes would come again: no retry
	case errors.Is(err, context.Canceled):
		return ClassCancelled
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return ClassTimeout
	}
	return ClassNetwork
}

// retryAfter parses Retry-After (seconds or an HTTP date); default 1 s,
// capped at 10 minutes.
func retryAfter(v string) time.Duration {
	d := time.Second
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		d = time.Duration(s) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = time.Until(t)
	}
	return min(max(d, 0), 10*time.Minute)
}

func isHTML(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "text/html" || mt == "application/xhtml+xml")
}

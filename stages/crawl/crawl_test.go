package crawl_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/store"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

const ua = "topicrank-test/0.1 (https://example.org; ops@example.org)"

func config(base string, maxPages, concurrency int) crawl.Config {
	return crawl.Config{
		BaseURL: base, Hosts: []string{"en.wikipedia.org"}, Seeds: []string{"/wiki/Page_0"},
		Topics: []string{"tennis", "grand slam"}, Weighted: true, MaxPages: maxPages,
		Concurrency: concurrency, Fetch: crawl.FetchOptions{UserAgent: ua, Backoff: time.Millisecond},
		Log: slog.New(slog.DiscardHandler),
	}
}

func run(t *testing.T, cfg crawl.Config) *crawl.Result {
	t.Helper()
	res, err := crawl.Crawl(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// runStored crawls with the crawl state at path as run runID, and
// finishes the run complete.
func runStored(t *testing.T, cfg crawl.Config, path, runID string) *crawl.Result {
	t.Helper()
	st, err := store.Open(path, runID)
	if err != nil {
		t.Fatal(err)
	}
	cfg.State = st
	res := run(t, cfg)
	if err := st.Finish("complete"); err != nil {
		t.Fatal(err)
	}
	return res
}

// checkInvariants checks what DESIGN.md promises of every crawl graph.
func checkInvariants(t *testing.T, res *crawl.Result, maxPages int) {
	t.Helper()
	if len(res.Pages) != maxPages {
		t.Errorf("vertices = %d, want %d", len(res.Pages), maxPages)
	}
	names := map[string]bool{}
	for _, p := range res.Pages {
		if names[p.Key] {
			t.Errorf("vertex %s appears twice", p.Key)
		}
		names[p.Key] = true
	}
	edges := map[crawl.Edge]bool{}
	for _, e := range res.Edges {
		if e.From == e.To {
			t.Errorf("self-loop at %s", res.Pages[e.From].Key)
		}
		if edges[e] {
			t.Errorf("duplicate edge %v", e)
		}
		if int(e.From) >= len(res.Pages) || int(e.To) >= len(res.Pages) {
			t.Fatalf("edge %v outside the vertex set", e)
		}
		edges[e] = true
	}
}

func TestCrawlGeneratedWiki(t *testing.T) {
	w := wikitest.New(t, 400)
	res := run(t, config(w.URL(), 150, 4))
	checkInvariants(t, res, 150)
	if !res.Complete || res.Robots != "ok" {
		t.Errorf("complete %v, robots %q, problems %v", res.Complete, res.Robots, res.Problems)
	}
	req := w.Requests()
	if req["/robots.txt"] != 1 {
		t.Errorf("robots.txt fetched %d times, want 1", req["/robots.txt"])
	}
	for path, n := range req {
		if strings.HasPrefix(path, "/wiki/Secret_") {
			t.Errorf("disallowed %s was requested", path)
		}
		if n != 1 && path != "/robots.txt" {
			t.Errorf("%s requested %d times, want once", path, n)
		}
	}
	fetched := 0
	for _, p := range res.Pages {
		asked := p.Key
		if p.Discovered != "" {
			asked = p.Discovered
		}
		if req[asked] != 1 {
			t.Errorf("vertex %s (asked as %s) fetched %d times", p.Key, asked, req[asked])
		}
		if p.Class == "" {
			fetched++
		} else if p.Status != 404 {
			t.Errorf("%s: unexpected failure %s %d %s", p.Key, p.Class, p.Status, p.Error)
		}
	}
	if len(req)-1 != len(res.Pages)+len(res.Merged) {
		t.Errorf("%d pages requested for %d vertices and %d merged redirects", len(req)-1, len(res.Pages), len(res.Merged))
	}
	if fetched < 100 {
		t.Errorf("only %d pages fetched", fetched)
	}
}

// The redirect title Alias_of_Page_3 serves Page_3: one vertex, named by
// the canonical link.
func TestCrawlCanonicalTitle(t *testing.T) {
	w := wikitest.New(t, 50)
	cfg := config(w.URL(), 50, 2)
	cfg.Seeds = []string{"/wiki/Alias_of_Page_3"}
	res := run(t, cfg)
	checkInvariants(t, res, 50)
	if res.Pages[0].Key != "/wiki/Page_3" || res.Pages[0].Discovered != "/wiki/Alias_of_Page_3" {
		t.Errorf("seed vertex = %q discovered as %q", res.Pages[0].Key, res.Pages[0].Discovered)
	}
}

// Config.Judge gives every fetched page its relevance, by the key of the
// article it is: the seed asked as Alias_of_Page_3 is judged as Page_3;
// a page the judge lacks is 0 whatever its words.
func TestCrawlJudgeByKey(t *testing.T) {
	w := wikitest.New(t, 50)
	cfg := config(w.URL(), 20, 2)
	cfg.Seeds, cfg.Topics, cfg.RelevanceThreshold = []string{"/wiki/Alias_of_Page_3"}, []string{"tennis"}, 0.25
	cfg.Judge = map[string]float64{"/wiki/Page_3": 0.5, "/wiki/Alias_of_Page_3": 0.1}
	res := run(t, cfg)
	for _, p := range res.Pages {
		want := 0.0
		if p.Key == "/wiki/Page_3" {
			want = 0.5
		}
		if p.Class == "" && (p.Relevance != want || p.Relevant != (want >= 0.25)) {
			t.Errorf("%s: relevance %g (relevant %v), want %g", p.Key, p.Relevance, p.Relevant, want)
		}
	}
}

// When the article is already a vertex, a redirect title found later is
// folded into it: its in-edges move to the article, its slot is reused.
func TestCrawlMergesRedirectIntoArticle(t *testing.T) {
	w := wikitest.New(t, 200)
	cfg := config(w.URL(), 120, 4)
	cfg.Seeds = []string{"/wiki/Page_3"}
	res := run(t, cfg)
	checkInvariants(t, res, 120)
	if len(res.Merged) != 1 || res.Merged[0].Key != "/wiki/Alias_of_Page_3" || res.Merged[0].DuplicateOf != "/wiki/Page_3" {
		t.Fatalf("merged = %+v", res.Merged)
	}
	into := 0
	for _, e := range res.Edges {
		if e.To == 0 {
			into++
		}
	}
	if into == 0 {
		t.Error("no edges into Page_3, though pages link to its alias")
	}
	for _, p := range res.Pages {
		if strings.Contains(p.Key, "Alias") {
			t.Errorf("vertex %s remains", p.Key)
		}
	}
}

func TestCrawlSameGraphAtAnyConcurrency(t *testing.T) {
	w := wikitest.New(t, 600)
	want := run(t, config(w.URL(), 300, 1))
	for _, c := range []int{2, 8} {
		got := run(t, config(w.URL(), 300, c))
		if !reflect.DeepEqual(keys(got), keys(want)) || !reflect.DeepEqual(got.Edges, want.Edges) {
			t.Errorf("concurrency %d: graph differs from concurrency 1", c)
		}
	}
}

func keys(r *crawl.Result) []string {
	k := make([]string, len(r.Pages))
	for i, p := range r.Pages {
		k[i] = p.Key
	}
	return k
}

// A hand-checked crawl: weights order the queue, max_pages stops growth
// but edges to known vertices are still recorded.
func TestCrawlHandChecked(t *testing.T) {
	site := map[string]string{
		"S": `<p>tennis <a href="/wiki/A">a</a> x x x x <a href="/wiki/B">b</a> <a href="/wiki/Tennis_C">c</a></p>`,
		// From S: A at d=0 -> 1/2; B at d=5 (A's anchor is one word) -> 1/7;
		// Tennis_C names the topic -> 1.
		"Tennis_C": `<p><a href="/wiki/D">d</a> <a href="/wiki/A">a</a> <a href="/wiki/S">s</a></p>`,
		"A":        `<p><a href="/wiki/B">b</a> <a href="/wiki/A">self</a> <a href="/wiki/E">e</a></p>`,
		"B":        `<p><a href="/wiki/S">s</a></p>`,
		"D":        `<p><a href="/wiki/C_unknown">s</a></p>`,
	}
	cfg := config(serveSite(t, site), 5, 3)
	cfg.Seeds, cfg.Topics = []string{"/wiki/S"}, []string{"tennis"}
	res := run(t, cfg)
	// Order: S; then Tennis_C (1), A (1/2), B (1/7); D from Tennis_C (weight
	// 0) is the 5th vertex; E (from A) does not fit.
	wantKeys := []string{"/wiki/S", "/wiki/A", "/wiki/B", "/wiki/Tennis_C", "/wiki/D"}
	if got := keys(res); !reflect.DeepEqual(got, wantKeys) {
		t.Fatalf("vertices = %v, want %v", got, wantKeys)
	}
	S, A, B, C, D := uint32(0), uint32(1), uint32(2), uint32(3), uint32(4)
	wantEdges := []crawl.Edge{{S, A}, {S, B}, {S, C}, {C, D}, {C, A}, {C, S}, {A, B}, {B, S}}
	if !reflect.DeepEqual(res.Edges, wantEdges) {
		t.Errorf("edges = %v, want %v", res.Edges, wantEdges)
	}
	if w := res.Pages[A].Weight; w != 0.5 {
		t.Errorf("weight of A = %v, want 1/2", w)
	}
	if w := res.Pages[B].Weight; w != 1.0/7 {
		t.Errorf("weight of B = %v, want 1/7", w)
	}
}

func TestCrawlSeedProblems(t *testing.T) {
	w := wikitest.New(t, 20)
	for _, tt := range []struct{ seed, want string }{
		{"/wiki/Nowhere", "seed /wiki/Nowhere: HTTP 404"},
		{"/wiki/Secret_1", "seed /wiki/Secret_1 is disallowed by robots.txt"},
	} {
		cfg := config(w.URL(), 10, 2)
		cfg.Seeds = []string{tt.seed}
		res := run(t, cfg)
		if res.Complete || len(res.Problems) != 1 || !strings.Contains(res.Problems[0], tt.want) {
			t.Errorf("seed %s: complete %v, problems %q; want %q", tt.seed, res.Complete, res.Problems, tt.want)
		}
	}
	if n := w.Requests()["/wiki/Secret_1"]; n != 0 {
		t.Errorf("disallowed seed requested %d times", n)
	}
}

func TestCrawlHostUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close() // nothing listens there now
	cfg := config(base, 10, 2)
	cfg.Fetch.MaxAttempts = 2
	res := run(t, cfg)
	if res.Complete || len(res.Pages) != 0 || !strings.Contains(res.Robots, "disallow-all (unreachable") ||
		len(res.Problems) != 1 || !strings.Contains(res.Problems[0], "nothing may be fetched this run; check the network") {
		t.Errorf("robots %q, problems %q, %d pages", res.Robots, res.Problems, len(res.Pages))
	}
}

func TestCrawlInterrupted(t *testing.T) {
	w := wikitest.New(t, 300)
	ctx, cancel := context.WithCancel(context.Background())
	cfg := config(w.URL(), 200, 2)
	cfg.Progress = func(p crawl.Progress) {
		if p.Done == 20 {
			cancel()
		}
	}
	res, err := crawl.Crawl(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || len(res.Problems) == 0 || !strings.Contains(res.Problems[0], "interrupted") {
		t.Errorf("complete %v, problems %q", res.Complete, res.Problems)
	}
}

// The politeness limit bounds requests in flight whatever the prefetch.
func TestCrawlKeepsInFlightLimit(t *testing.T) {
	var inflight, peak atomic.Int64
	w := wikitest.New(t, 200)
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		n := inflight.Add(1)
		defer inflight.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		w.ServeHTTP(rw, r)
	}))
	defer srv.Close()
	res := run(t, config(srv.URL, 100, 3))
	checkInvariants(t, res, 100)
	if p := peak.Load(); p > 3 {
		t.Errorf("peak in flight = %d, want <= 3", p)
	}
}

package crawl_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// serveSite serves pages (title -> prose) as Wikipedia-shaped HTML; other
// titles answer 404.
func serveSite(t *testing.T, site map[string]string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := site[strings.TrimPrefix(r.URL.Path, "/wiki/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<div id="mw-content-text"><div class="mw-parser-output">%s</div></div>`, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A hand-checked best-first crawl: vertices in extraction order, a failed
// fetch is a vertex, edges are the links between vertices grouped by
// source, and the frontier bound drops the lowest weight, latest first.
func TestBestFirstHandChecked(t *testing.T) {
	base := serveSite(t, map[string]string{
		// From S: A at d=0 -> 1/2, B at d=5 -> 1/7, Tennis_C named -> 1.
		"S":        `<p>tennis <a href="/wiki/A">a</a> x x x x <a href="/wiki/B">b</a> <a href="/wiki/Tennis_C">c</a></p>`,
		"Tennis_C": `<p><a href="/wiki/D">d</a> tennis <a href="/wiki/E">e</a> <a href="/wiki/A">a</a></p>`, // D, E: 1/2
		"A":        `<p><a href="/wiki/B">b</a> <a href="/wiki/F">f</a></p>`,                                // F: 0
		"B":        `<p><a href="/wiki/S">s</a></p>`,
		"D":        `<p><a href="/wiki/S">s</a> <a href="/wiki/Tennis_C">c</a> <a href="/wiki/D">self</a></p>`,
		// E is missing: a 404, still a vertex.
	})
	cfg := config(base, 5, 3)
	cfg.Seeds, cfg.Topics, cfg.Admission = []string{"/wiki/S"}, []string{"tennis"}, crawl.AdmitBestFirst
	res := run(t, cfg)
	// S; Tennis_C (1); A (1/2, queued first); D (1/2); E (1/2).
	if got, want := keys(res), []string{"/wiki/S", "/wiki/Tennis_C", "/wiki/A", "/wiki/D", "/wiki/E"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("vertices = %v, want %v", got, want)
	}
	S, C, A, D, E := uint32(0), uint32(1), uint32(2), uint32(3), uint32(4)
	want := []crawl.Edge{{S, A}, {S, C}, {C, D}, {C, E}, {C, A}, {D, S}, {D, C}}
	if !reflect.DeepEqual(res.Edges, want) {
		t.Errorf("edges = %v, want %v", res.Edges, want)
	}
	if p := res.Pages[E]; p.Status != http.StatusNotFound || p.Weight != 0.5 {
		t.Errorf("E = status %d weight %v, want a 404 vertex of weight 1/2", p.Status, p.Weight)
	}
	if !res.Complete {
		t.Errorf("problems: %v", res.Problems)
	}

	// A frontier of 2 drops B (1/7) after S, E (latest of three 1/2s)
	// after Tennis_C and F after A, which queues B anew: B is the fifth.
	cfg.MaxFrontier = 2
	if got, want := keys(run(t, cfg)), []string{"/wiki/S", "/wiki/Tennis_C", "/wiki/A", "/wiki/D", "/wiki/B"}; !reflect.DeepEqual(got, want) {
		t.Errorf("bounded frontier: vertices = %v, want %v", got, want)
	}
}

// Every strategy under either admission gives the same graph and
// relevance at any concurrency, and keeps DESIGN.md's invariants.
func TestStrategiesSameAtAnyConcurrency(t *testing.T) {
	w := wikitest.New(t, 600)
	for _, a := range []crawl.Admission{crawl.AdmitDiscovery, crawl.AdmitBestFirst} {
		for _, s := range page.Strategies {
			strategy, _ := page.ParseStrategy(s)
			cfg := config(w.URL(), 200, 1)
			cfg.Admission, cfg.Strategy, cfg.Scope = a, strategy, page.ScopeProse
			if strategy == page.StrategyLearned {
				tunnel := 1
				cfg.MaxTunnel = &tunnel
			}
			cfg.TopicFeedback = strategy == page.StrategySimilarity
			want := run(t, cfg)
			checkInvariants(t, want, 200)
			cfg.Concurrency = 8
			got := run(t, cfg)
			if !reflect.DeepEqual(keys(got), keys(want)) || !reflect.DeepEqual(got.Edges, want.Edges) ||
				!reflect.DeepEqual(relevances(got), relevances(want)) {
				t.Errorf("%s, %s: concurrency 8 differs from concurrency 1", a, s)
			}
		}
	}
}

func relevances(r *crawl.Result) []float64 {
	out := make([]float64, len(r.Pages))
	for i, p := range r.Pages {
		out[i] = p.Relevance
	}
	return out
}

// Failed fetches are summarised: one warning per class with the count and
// the first pages, each failure itself only at debug level.
func TestFetchFailuresSummarised(t *testing.T) {
	var links strings.Builder
	for i := range 20 {
		fmt.Fprintf(&links, `<a href="/wiki/Missing_%d">m</a> `, i)
	}
	base := serveSite(t, map[string]string{"S": "<p>" + links.String() + "</p>"})
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var logs bytes.Buffer
		cfg := config(base, 30, 4)
		cfg.Seeds = []string{"/wiki/S"}
		cfg.Log = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: level}))
		run(t, cfg)
		summaries, single := 0, 0
		for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			var rec struct {
				Msg   string
				Class string
				Count int
				First []string
			}
			json.Unmarshal([]byte(line), &rec)
			switch rec.Msg {
			case "fetches failed":
				summaries++
				if rec.Class != "HTTP 404" || rec.Count != 20 || len(rec.First) != 3 {
					t.Errorf("summary %s", line)
				}
			case "fetch failed":
				single++
			}
		}
		if want := map[slog.Level]int{slog.LevelInfo: 0, slog.LevelDebug: 20}[level]; summaries != 1 || single != want {
			t.Errorf("level %v: %d summaries, %d single failures (want 1 and %d)", level, summaries, single, want)
		}
	}
}

// A best-first night counts its vertices by what admitted them: a
// redirect title folded into its article (fetched twice, one vertex)
// counts once, so the counts sum to the graph's vertices.
func TestAdmissionsCountVertices(t *testing.T) {
	article := `<link rel="canonical" href="https://en.wikipedia.org/wiki/Tennis_A"/><p>tennis <a href="/wiki/B">b</a></p>`
	base := serveSite(t, map[string]string{
		"S":        `<p>tennis <a href="/wiki/Tennis_A">a</a> <a href="/wiki/Tennis_Alias">alias</a> <a href="/wiki/B">b</a></p>`,
		"Tennis_A": article, "Tennis_Alias": article,
		"B": `<p>tennis <a href="/wiki/C">c</a></p>`,
		"C": `<p>tennis</p>`,
	})
	cfg := config(base, 10, 1)
	cfg.Seeds, cfg.Admission = []string{"/wiki/S"}, crawl.AdmitBestFirst
	res := runStored(t, cfg, filepath.Join(t.TempDir(), "state.sqlite"), "r1")
	if len(res.Merged) != 1 || res.Merged[0].Key != "/wiki/Tennis_Alias" {
		t.Fatalf("merged = %+v; want the alias folded into Tennis_A", res.Merged)
	}
	sum := 0
	for _, n := range res.AdmittedBy {
		sum += n
	}
	if sum != len(res.Pages) || res.AdmittedBy[crawl.FromExploration] != len(res.Pages) {
		t.Errorf("admitted by %v for %d vertices; want every vertex once, by exploration (a first night)", res.AdmittedBy, len(res.Pages))
	}
}

// TestPlanLeavesAliases: a redirect title folded into its article on one
// night is not fetched on the next, which would only fold it again, and
// the graph holds still but for the page explored. (TestPlannedPriority
// checks the alias's priority when exploring.)
func TestPlanLeavesAliases(t *testing.T) {
	article := `<link rel="canonical" href="https://en.wikipedia.org/wiki/Tennis_A"/><p>tennis</p>`
	site := map[string]string{
		// All pages are equally relevant: the plan orders them by title,
		// Alias first.
		"S":        `<p>tennis <a href="/wiki/Tennis_A">a</a> <a href="/wiki/Alias">tennis</a> <a href="/wiki/B">b</a></p>`,
		"Tennis_A": article, "Alias": article,
		"B": `<p>tennis <a href="/wiki/P0">p</a> <a href="/wiki/P1">p</a></p>`,
	}
	for p := range 2 {
		z := `<p>tennis`
		for i := range 10 {
			z += fmt.Sprintf(` <a href="/wiki/Z%d">z</a>`, 10*p+i)
			site[fmt.Sprint("Z", 10*p+i)] = `<p>tennis</p>`
		}
		site[fmt.Sprint("P", p)] = z + `</p>`
	}
	cfg := config(serveSite(t, site), 10, 1)
	cfg.Seeds, cfg.Admission = []string{"/wiki/S"}, crawl.AdmitBestFirst
	path := filepath.Join(t.TempDir(), "state.sqlite")
	first := runStored(t, cfg, path, "r1")
	if len(first.Merged) != 1 || first.Merged[0].Key != "/wiki/Alias" {
		t.Fatalf("night 1 merged %+v; want the alias folded", first.Merged)
	}
	second := runStored(t, cfg, path, "r2")
	if len(second.Merged) != 0 {
		t.Errorf("night 2 merged %v; want the alias left unfetched", second.Merged[0].Key)
	}
	kept, was := 0, keys(first)
	for _, k := range keys(second) {
		if slices.Contains(was, k) {
			kept++
		}
	}
	// No share is explored (ExploreShare 0), and the pages night 1 fetched
	// ahead of its end (Z12, say: known, and as relevant as Z2) are no
	// better than its vertices: night 2 is night 1's graph, whichever
	// of them were fetched in time.
	if kept != len(first.Pages) || len(second.Pages) != len(first.Pages) {
		t.Errorf("night 2 kept %d of night 1's %d vertices, has %d; want all\nnight 1: %v\nnight 2: %v",
			kept, len(first.Pages), len(second.Pages), keys(first), keys(second))
	}
}

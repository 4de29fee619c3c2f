package crawl_test

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl"
)

// limitsSite: S links A and B; A links C and S; B links D; C links E.
// Depths from S: A, B 1; C, D 2; E 3.
var limitsSite = map[string]string{
	"S":              `<p><a href="/wiki/A">a</a> <a href="/wiki/B">b</a></p>`,
	"A":              `<p><a href="/wiki/C">c</a> <a href="/wiki/S">s</a> <a href="/wiki/B">b</a></p>`,
	"B":              `<p><a href="/wiki/D">d</a> <a href="/wiki/List_of_things">l</a></p>`,
	"C":              `<p><a href="/wiki/E">e</a></p>`,
	"D":              `<p><a href="/wiki/A">a</a></p>`,
	"E":              `<p>the end</p>`,
	"List_of_things": `<p><a href="/wiki/E">e</a></p>`,
}

func depths(res *crawl.Result) map[string]int {
	out := map[string]int{}
	for _, p := range res.Pages {
		out[p.Key] = p.Depth
	}
	return out
}

// max_depth 1 admits only the seeds' links, under either admission; the
// links among the admitted pages are still edges. Without it, every page
// carries its link distance from the seed.
func TestMaxDepth(t *testing.T) {
	base := serveSite(t, limitsSite)
	for _, a := range []crawl.Admission{crawl.AdmitDiscovery, crawl.AdmitBestFirst} {
		cfg := config(base, 100, 1)
		cfg.Seeds, cfg.Admission = []string{"/wiki/S"}, a
		res := run(t, cfg)
		want := map[string]int{"/wiki/S": 0, "/wiki/A": 1, "/wiki/B": 1, "/wiki/C": 2, "/wiki/D": 2, "/wiki/List_of_things": 2, "/wiki/E": 3}
		if got := depths(res); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: depths %v, want %v", a, got, want)
		}

		cfg.MaxDepth = 1
		res = run(t, cfg)
		if got := keys(res); !reflect.DeepEqual(got, []string{"/wiki/S", "/wiki/A", "/wiki/B"}) {
			t.Errorf("%s, max_depth 1: vertices %v, want S and its links", a, got)
		}
		if want := []crawl.Edge{{0, 1}, {0, 2}, {1, 0}, {1, 2}}; !reflect.DeepEqual(res.Edges, want) {
			t.Errorf("%s, max_depth 1: edges %v, want %v", a, res.Edges, want)
		}
		cfg.MaxDepth = 2
		if got := keys(run(t, cfg)); len(got) != 6 || got[len(got)-1] == "/wiki/E" {
			t.Errorf("%s, max_depth 2: vertices %v, want all but E", a, got)
		}
	}
}

// include and exclude test the decoded title before admission; seeds are
// always admitted.
func TestTitlePatterns(t *testing.T) {
	base := serveSite(t, limitsSite)
	cfg := config(base, 100, 1)
	cfg.Seeds = []string{"/wiki/S"}
	cfg.Exclude = []*regexp.Regexp{regexp.MustCompile(`^List of `)}
	if got := keys(run(t, cfg)); !reflect.DeepEqual(got, []string{"/wiki/S", "/wiki/A", "/wiki/B", "/wiki/C", "/wiki/D", "/wiki/E"}) {
		t.Errorf("exclude ^List of: vertices %v", got)
	}
	cfg.Exclude = nil
	cfg.Include = []*regexp.Regexp{regexp.MustCompile(`^[AC]$`), regexp.MustCompile(`^E`)}
	if got := keys(run(t, cfg)); !reflect.DeepEqual(got, []string{"/wiki/S", "/wiki/A", "/wiki/C", "/wiki/E"}) {
		t.Errorf("include A, C, E: vertices %v", got)
	}
}

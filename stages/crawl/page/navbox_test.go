package page

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/text"
)

// navboxPage is an article whose prose links four pages with no topic
// word near them, and a navigation box as Wikipedia writes one: a title
// with its view-talk-edit bar, a row whose group names the topic and a
// row whose group does not.
const navboxPage = `<html><head><title>Page</title></head><body>
<div id="mw-content-text"><div class="mw-parser-output">
<p>Words of nothing in particular, then <a href="/wiki/MSNBC">MSNBC</a>,
<a href="/wiki/Denny%27s">Denny's</a>, <a href="/wiki/Chicago">Chicago</a>
and <a href="/wiki/Seattle">Seattle</a>, and more words of nothing at all.</p>
<div role="navigation" class="navbox"><table class="navbox-inner"><tbody>
<tr><th scope="col" class="navbox-title"><div class="navbar plainlinks hlist navbar-mini"><ul>
<li class="nv-view"><a href="/wiki/Template:Networks"><abbr title="View this template">view</abbr></a></li>
<li class="nv-talk"><a href="/wiki/Template_talk:Networks"><abbr title="Discuss this template">talk</abbr></a></li></ul></div>
<div id="Things">Things of the United States</div></th></tr>
<tr><th scope="row" class="navbox-group">Television networks</th><td class="navbox-list"><ul><li><a href="/wiki/MSNBC">MSNBC</a></li></ul></td></tr>
<tr><th scope="row" class="navbox-group">Restaurants</th><td class="navbox-list"><ul><li><a href="/wiki/Denny%27s">Denny's</a></li></ul></td></tr>
</tbody></table></div>
<div role="navigation" class="navbox"><table class="navbox-inner"><tbody>
<tr><th scope="col" class="navbox-title"><div>Cities</div></th></tr>
<tr><td class="navbox-list"><ul><li><a href="/wiki/Chicago">Chicago</a></li></ul></td></tr>
</tbody></table></div>
</div></div></body></html>`

// A link whose target a navigation box on the page lists under a
// heading naming a topic weighs at least navboxWeight under the learned
// strategy, and only there; a row under another heading, another box
// and the title's bar name nothing.
func TestNavboxNamesTheLinksItLists(t *testing.T) {
	topics := []string{"television", "talk"}
	for _, scope := range []Scope{ScopeProse, ScopeBody} {
		weights := func(s Strategy) map[string]float64 {
			e := Extractor{Scope: scope, Topics: NewTopics(topics), Topic: text.NewTopic(topics, nil), Strategy: s}
			w := map[string]float64{}
			for _, l := range e.Extract([]byte(navboxPage)).Links {
				w[l.Key] = l.Weight
			}
			return w
		}
		learned, weighted := weights(StrategyLearned), weights(StrategyWeighted)
		if got := learned["/wiki/MSNBC"]; got < navboxWeight {
			t.Errorf("scope %d: MSNBC, listed under \"Television networks\", weighs %.3f, want at least %.2f", scope, got, navboxWeight)
		}
		for _, k := range []string{"/wiki/Denny%27s", "/wiki/Chicago", "/wiki/Seattle"} {
			if got := learned[k]; got >= navboxWeight {
				t.Errorf("scope %d: %s weighs %.3f, want below %.2f: no heading over it names a topic", scope, k, got, navboxWeight)
			}
		}
		if got := weighted["/wiki/MSNBC"]; got >= navboxWeight {
			t.Errorf("scope %d: the weighted strategy gives MSNBC %.3f: its heuristic reads no navigation box", scope, got)
		}
	}
}

// On every page of the 2018 corpus and today's pages, the articles
// listed under a heading naming a topic are those goquery finds: a link
// in a box's list cell, under the box's title (its bar left out) or its
// row's group naming the topic.
func TestNavboxMatchesGoquery(t *testing.T) {
	pages := sample(t)
	for _, p := range wikitest.ModernPages(t) {
		pages = append(pages, p.HTML)
	}
	topics := NewTopics([]string{"television", "film", "company", "law", "mammal", "species", "programming"})
	found := 0
	for i, body := range pages {
		x := &extractor{topics: topics, seen: map[string]bool{}, readNav: true}
		x.run(body)
		want := listedByGoquery(t, body, topics)
		if !maps.Equal(x.nav.listed, want) && !(len(x.nav.listed) == 0 && len(want) == 0) {
			t.Errorf("page %d: listed %d articles, goquery %d", i, len(x.nav.listed), len(want))
			for k := range want {
				if !x.nav.listed[k] {
					t.Logf("  goquery only: %s", k)
				}
			}
			for k := range x.nav.listed {
				if !want[k] {
					t.Logf("  ours only: %s", k)
				}
			}
		}
		found += len(want)
	}
	if found == 0 {
		t.Fatal("no page lists an article under a heading naming a topic")
	}
}

// listedByGoquery reads what navboxes.listed holds with goquery's tree.
func listedByGoquery(t *testing.T, body []byte, topics Topics) map[string]bool {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	names := func(s *goquery.Selection) bool {
		s = s.Clone()
		s.Find(".navbar, style, script").Remove()
		return topics.containedIn(string(text.Fold(nil, []byte(s.Text()))))
	}
	listed := map[string]bool{}
	doc.Find("div.navbox").Not("div.navbox div.navbox").Each(func(_ int, box *goquery.Selection) {
		title := box.Find("th.navbox-title").First()
		boxNamed := title.Length() > 0 && names(title)
		box.Find("a").Each(func(_ int, a *goquery.Selection) {
			if a.Closest("th.navbox-title, th.navbox-group").Length() > 0 {
				return
			}
			named := boxNamed
			a.ParentsUntilSelection(box).Filter("tr").Each(func(_ int, tr *goquery.Selection) {
				tr.ChildrenFiltered("th.navbox-group, th.navbox-title").Each(func(_ int, th *goquery.Selection) {
					named = named || names(th)
				})
			})
			href, _ := a.Attr("href")
			if key, ok := ArticleKey(href, nil); ok && named {
				listed[key] = true
			}
		})
	})
	return listed
}

// The pages a navigation box lists under a heading naming a topic are
// far likelier relevant, as people judge them, than the corpus's pages
// at large: that is why the learned strategy reads the boxes. Over the
// 2018 corpus, for each assessed topic with its words (the assessments'
// jobs), at least twice the share of relevant pages wherever boxes list
// a few. go test -v -run TestNavboxListsRelevantPages ./stages/crawl/page
// prints the figures docs/relevance.md gives (every page; every tenth
// under the race detector).
func TestNavboxListsRelevantPages(t *testing.T) {
	labels := readLabels(t, filepath.Join(wikitest.Shared(t), "data", "assessments", "dev-labels.tsv"))
	words := map[string][]string{
		"politics": {"election", "senate", "party", "politician"}, "film-tv": {"film", "television", "actor", "movie"},
		"business": {"company", "business", "market", "economy"}, "law": {"court", "law", "legal", "lawsuit"},
		"education": {"university", "school", "college", "education"}, "philosophy": {"philosophy", "philosopher", "ethics", "logic"},
	}
	pages := sample(t)
	for _, topic := range slices.Sorted(maps.Keys(words)) {
		listed := map[string]bool{}
		for _, body := range pages {
			x := &extractor{topics: NewTopics(words[topic]), seen: map[string]bool{}, readNav: true}
			x.run(body)
			for k := range x.nav.listed {
				listed[strings.TrimPrefix(k, "/wiki/")] = true
			}
		}
		var all, relevant, boxed, boxedRelevant int
		for page, l := range labels {
			all++
			rel := l[topic] >= 1
			if rel {
				relevant++
			}
			if listed[page] {
				boxed++
				if rel {
					boxedRelevant++
				}
			}
		}
		base, share := float64(relevant)/float64(all), float64(boxedRelevant)/float64(max(boxed, 1))
		t.Logf("%-10s relevant %.2f of %d pages; of the %d pages a box lists under the topic, %.2f", topic, base, all, boxed, share)
		if boxed >= 5 && share < 2*base {
			t.Errorf("%s: %.2f of the %d pages boxes list under the topic are relevant, the corpus %.2f: want at least twice", topic, share, boxed, base)
		}
	}
}

// readLabels reads the assessments' labels: page, then a 0-2 label per
// topic under the header's names.
func readLabels(t *testing.T, file string) map[string]map[string]int {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	head := strings.Split(rows[0], "\t")
	labels := map[string]map[string]int{}
	for _, row := range rows[1:] {
		f := strings.Split(row, "\t")
		if len(f) != len(head) {
			t.Fatalf("%s: row %q has %d fields, the header %d", file, row, len(f), len(head))
		}
		l := map[string]int{}
		for i, name := range head[1:] {
			if l[name], err = strconv.Atoi(f[i+1]); err != nil {
				t.Fatalf("%s: row %q: %v", file, row, err)
			}
		}
		labels[f[0]] = l
	}
	return labels
}

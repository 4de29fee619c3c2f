package page

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/text"
)

func linkKeys(doc Document) []string {
	var k []string
	for _, l := range doc.Links {
		k = append(k, l.Key)
	}
	return k
}

// Each scope on both generations of Wikipedia's HTML: prose drops the
// citation plumbing and navigation that body keeps, and keeps the lead.
func TestScopesOnBothGenerations(t *testing.T) {
	hosts := []string{"en.wikipedia.org"}
	cases := []struct {
		name     string
		page     func(*testing.T) []byte
		lead     string   // a link of the first paragraph
		plumbing []string // links only references, navboxes and the like hold
	}{
		{"2018 Seattle", func(t *testing.T) []byte { return wikitest.Page(t, "Seattle") }, "/wiki/King_County,_Washington",
			[]string{"/wiki/International_Standard_Book_Number", "/wiki/Digital_object_identifier", "/wiki/Wayback_Machine"}},
		{"2024 Duck", func(t *testing.T) []byte { return wikitest.Modern(t, "Duck.html") }, "/wiki/Waterfowl",
			[]string{"/wiki/ISBN_(identifier)", "/wiki/Doi_(identifier)"}},
		{"2026 Rust", func(t *testing.T) []byte { return wikitest.Modern(t, "Rust_(programming_language).html") },
			"/wiki/General-purpose_programming_language", []string{"/wiki/ISBN_(identifier)"}},
		{"2026 Cat (Parsoid, absolute links)", func(t *testing.T) []byte { return wikitest.Modern(t, "Cat.html") }, "/wiki/Carnivore",
			[]string{"/wiki/ISBN_(identifier)", "/wiki/Doi_(identifier)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page := c.page(t)
			prose := linkKeys(Extract(page, hosts, ScopeProse, Topics{}))
			body := linkKeys(Extract(page, hosts, ScopeBody, Topics{}))
			if !slices.Contains(prose, c.lead) || !slices.Contains(body, c.lead) {
				t.Errorf("lead link %s: in prose %v, in body %v", c.lead, slices.Contains(prose, c.lead), slices.Contains(body, c.lead))
			}
			for _, l := range c.plumbing {
				if slices.Contains(prose, l) {
					t.Errorf("prose holds %s", l)
				}
			}
			if !slices.ContainsFunc(c.plumbing, func(l string) bool { return slices.Contains(body, l) }) {
				t.Errorf("body holds none of %v: the test page lacks citation plumbing", c.plumbing)
			}
			if len(prose) < 50 || len(prose) >= len(body) {
				t.Errorf("prose has %d links, body %d: want a large, strict subset", len(prose), len(body))
			}
			for _, l := range prose {
				if !slices.Contains(body, l) {
					t.Errorf("prose link %s is not in the body", l)
				}
			}
		})
	}
}

// Under the prose scope, word distances are counted on the prose alone: a
// topic word in a hatnote or a reference weighs nothing.
func TestProseDistancesCountProseOnly(t *testing.T) {
	page := `<div id="mw-content-text"><div class="mw-parser-output">
<div class="hatnote">tennis</div>
<p>one two <a href="/wiki/A">a</a> three tennis <a href="/wiki/B">b</a><sup class="reference"><a href="#c">tennis</a></sup>
<a href="/wiki/C">c</a> <a href="/wiki/Tennis_club">club</a></p>
<ol class="references"><li>tennis <a href="/wiki/D">d</a></li></ol></div></div>`
	doc := Extract([]byte(page), nil, ScopeProse, NewTopics([]string{"tennis"}))
	// Words: one two [a] three tennis [b] [c] [club]: A at d=1, B at 0,
	// C at 1, Tennis_club named; D is in the references.
	want := []Link{{"/wiki/A", 1.0 / 3}, {"/wiki/B", 0.5}, {"/wiki/C", 1.0 / 3}, {"/wiki/Tennis_club", 1}}
	if !slices.Equal(doc.Links, want) {
		t.Errorf("links = %v, want %v", doc.Links, want)
	}
}

// Hand-checked weights of the word-rank and similarity strategies.
func TestStrategyWeights(t *testing.T) {
	page := []byte(`<div id="mw-content-text"><div class="mw-parser-output">
<p>Coffee coffee coffee beans. Roasting coffee. <a href="/wiki/Espresso">espresso drink</a> and
<a href="/wiki/Coffee_bean">coffee beans</a> far away words one two three four five six seven eight nine ten eleven
<a href="/wiki/Tea">tea</a></p></div></div>`)
	topic := text.NewTopic([]string{"espresso"}, nil)

	// Terms of the prose: coffe 5, bean 2, roast, espresso, drink, far,
	// away, word, one .. eleven, tea (1 each): 20 terms, top 10% = 2: coffe
	// and bean.
	wr := Extractor{Scope: ScopeProse, Strategy: StrategyWordRank, Topic: topic}.Extract(page)
	if got := linkWeights(wr); !slices.Equal(got, []float64{0, 1, 0}) {
		t.Errorf("word-rank weights = %v, want [0 1 0]", got)
	}

	sim := Extractor{Scope: ScopeProse, Strategy: StrategySimilarity, Topic: topic}.Extract(page)
	page5 := math.Sqrt(25 + 4 + 1 + 1 + 1 + 15) // coffe 5, bean 2, roast, espresso, drink, 15 more ones
	if want := 1 / page5; math.Abs(sim.Evidence[text.FeatCosine]-want) > 1e-12 {
		t.Errorf("cosine = %v, want %v", sim.Evidence[text.FeatCosine], want)
	}
	if want := text.Shipped.Relevance(sim.Evidence); sim.Relevance != want {
		t.Errorf("relevance = %v, want the judge's %v", sim.Relevance, want)
	}
	// Word positions: coffee(0) coffee coffee beans roasting coffee(5)
	// [espresso drink](6) and [coffee beans](8) far away words one(12) two
	// ... eleven(22) [tea](23). Espresso's context, 10 words either side,
	// is words 0-16 (to "five"): coffe 5, bean 2, roast, espresso, drink and
	// 8 more ones. Coffee_bean's is 0-18 (to "seven"): two more ones.
	espresso := 1 / math.Sqrt(25+4+1+1+1+8)
	bean := 1 / math.Sqrt(25+4+1+1+1+10)
	tea := 0.0 // its context holds no topic word
	want := []float64{(sim.Relevance + espresso) / 2, (sim.Relevance + bean) / 2, (sim.Relevance + tea) / 2}
	for i, w := range linkWeights(sim) {
		if math.Abs(w-want[i]) > 1e-12 {
			t.Errorf("similarity weight of %s = %v, want %v", sim.Links[i].Key, w, want[i])
		}
	}
}

func linkWeights(doc Document) []float64 {
	var w []float64
	for _, l := range doc.Links {
		w = append(w, l.Weight)
	}
	return w
}

// A link's section is the heading above it, read the same way in every
// scope and on both generations (the 2017 skin's edit link left out);
// the lead's links have none.
func TestLinkSections(t *testing.T) {
	seattle := func(t *testing.T) []byte { return wikitest.Page(t, "Seattle") }
	duck := func(t *testing.T) []byte { return wikitest.Modern(t, "Duck.html") }
	cases := []struct {
		name    string
		page    func(*testing.T) []byte
		scope   Scope
		key     string
		section string
	}{
		{"2018 lead", seattle, ScopeProse, "/wiki/Port", ""},
		{"2018 prose", seattle, ScopeProse, "/wiki/CenturyLink_Field", "Professional sports"},
		{"2018 body", seattle, ScopeBody, "/wiki/Sports_in_Seattle", "Professional sports"},
		{"2018 legacy", seattle, ScopeLegacy, "/wiki/Education_in_Seattle", "Education"},
		{"2024 prose", duck, ScopeProse, "/wiki/Muscovy_duck", "Breeding"},
		{"2024 body", duck, ScopeBody, "/wiki/Waterfowl_hunting", "Hunting"},
		{"2026 Parsoid", func(t *testing.T) []byte { return wikitest.Modern(t, "Cat.html") }, ScopeProse, "/wiki/Digitigrade", "Ambulation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, _ := Extractor{Hosts: []string{"en.wikipedia.org"}, Scope: c.scope}.read(c.page(t))
			i := slices.IndexFunc(x.links, func(o occurrence) bool { return o.key == c.key })
			if i < 0 {
				t.Fatalf("no link %s", c.key)
			}
			if got := x.links[i].section; got != c.section {
				t.Errorf("%s is in section %q, want %q", c.key, got, c.section)
			}
		})
	}
}

// A heading of a megabyte keeps its first maxHeading bytes, in every
// scope: its links' features stay small.
func TestLongHeadingBounded(t *testing.T) {
	page := `<div id="mw-content-text"><div class="mw-parser-output"><p>Lead <a href="/wiki/A">a</a>.</p>
<h2>` + strings.Repeat("word ", 200_000) + `</h2><p><a href="/wiki/B">b</a></p></div></div>`
	for _, scope := range []Scope{ScopeProse, ScopeBody, ScopeLegacy} {
		x, _ := Extractor{Hosts: []string{"en.wikipedia.org"}, Scope: scope}.read([]byte(page))
		i := slices.IndexFunc(x.links, func(o occurrence) bool { return o.key == "/wiki/B" })
		if i < 0 || len(x.links[i].section) != maxHeading || !strings.HasPrefix(x.links[i].section, "word word") {
			t.Errorf("scope %v: the link after the long heading is missing or its section is not bounded", scope)
		}
	}
}

package text

import (
	"reflect"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// A hand-built page with every kind of part the prose drops: the pieces
// are exactly the prose, in order, from the first paragraph on.
func TestParseKeepsOnlyProse(t *testing.T) {
	page := `<html><body><div id="siteSub">From Wikipedia</div>
<div id="mw-content-text"><div class="mw-parser-output">
<div role="note" class="hatnote navigation-not-searchable">For the film, see <a href="/wiki/X_(film)">X</a>.</div>
<table class="infobox"><tr><td><a href="/wiki/Capital">Capital</a><p>inside</p></td></tr></table>
<p><b>X</b> is a <a href="/wiki/Town">town</a><sup class="reference"><a href="#cite_note-1">[1]</a></sup> on the <a href="/wiki/River"><i>river</i> bank</a>.</p>
<style>.x{color:red}</style>
<h2><span class="mw-headline">History</span><span class="mw-editsection">[<a href="/w/index.php?action=edit">edit</a>]</span></h2>
<ul><li>Founded in <a href="/wiki/1850">1850</a></li></ul>
<table class="wikitable"><tr><td><a href="/wiki/Data">data</a></td></tr></table>
<div class="reflist"><ol class="references"><li><cite>A book. <a href="/wiki/ISBN_(identifier)">ISBN</a></cite></li></ol></div>
<div role="navigation" class="navbox"><a href="/wiki/Other_town">Other town</a></div>
</div></div>
<div id="catlinks"><a href="/wiki/Category:Towns">Towns</a></div></body></html>`
	got := Parse([]byte(page)).Pieces
	want := []Piece{
		{Text: "X"}, {Text: " is a "}, {Text: "town", Href: "/wiki/Town", Link: true}, {Text: " on the "},
		{Text: "river bank", Href: "/wiki/River", Link: true}, {Text: "."}, {Text: "\n"}, {Text: "\n"},
		{Text: "History", Heading: true}, {Text: "\n"}, {Text: "Founded in "}, {Text: "1850", Href: "/wiki/1850", Link: true}, {Text: "\n"},
		{Text: "\n"}, {Text: "\n"}, {Text: "\n"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pieces:\n got %+v\nwant %+v", got, want)
	}
}

func TestParseWithoutParserOutput(t *testing.T) {
	if a := Parse([]byte(`<p>no article here <a href="/wiki/A">a</a></p>`)); len(a.Pieces) != 0 {
		t.Errorf("a page without #mw-content-text has pieces %+v", a.Pieces)
	}
	// Hostile HTML parses (html.Parse never fails) and yields what it can.
	Parse([]byte("<div id=mw-content-text><p>\x00<a href='\xff'>\xfe</a><table><p>"))
}

// The prose of real pages of both generations: the lead is in, citation
// plumbing, navigation boxes and reference text are out.
func TestParseRealPages(t *testing.T) {
	cases := []struct {
		name      string
		page      func(t *testing.T) []byte
		lead      string   // words of the first sentence
		link      string   // a link of the prose, as written
		notText   []string // text of dropped parts
		notLinked []string // links only dropped parts hold
	}{
		{"2018 Seattle", func(t *testing.T) []byte { return wikitest.Page(t, "Seattle") },
			"is a seaport city on the West Coast of the United States", "/wiki/Port",
			[]string{"Retrieved", "Authority control", "v t e"},
			[]string{"/wiki/International_Standard_Book_Number", "/wiki/Digital_object_identifier", "/wiki/Wayback_Machine"}},
		{"2024 Duck", func(t *testing.T) []byte { return wikitest.Modern(t, "Duck.html") },
			"Duck is the common name for numerous species of waterfowl", "/wiki/Waterfowl",
			[]string{"Retrieved", "Authority control"},
			[]string{"/wiki/ISBN_(identifier)", "/wiki/Doi_(identifier)"}},
		{"2026 Cat (Parsoid)", func(t *testing.T) []byte { return wikitest.Modern(t, "Cat.html") },
			"The cat Felis catus also called domestic cat and house cat is a small domesticated carnivorous mammal",
			"https://en.wikipedia.org/wiki/Carnivore",
			[]string{"Retrieved", "Authority control"},
			[]string{"https://en.wikipedia.org/wiki/ISBN_(identifier)", "https://en.wikipedia.org/wiki/Doi_(identifier)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := Parse(c.page(t))
			words := strings.Join(Words(a.Text()), " ")
			if !strings.Contains(words, strings.ToLower(c.lead)) {
				t.Errorf("lead %q not in the text's first words %q", c.lead, words[:min(300, len(words))])
			}
			for _, s := range c.notText {
				if strings.Contains(a.Text(), s) {
					t.Errorf("text holds %q, which only dropped parts should", s)
				}
			}
			links := map[string]bool{}
			for _, p := range a.Pieces {
				if p.Link {
					links[p.Href] = true
				}
			}
			if !links[c.link] {
				t.Errorf("prose link %s missing (%d links)", c.link, len(links))
			}
			for _, l := range c.notLinked {
				if links[l] {
					t.Errorf("link %s of a dropped part is in the prose", l)
				}
			}
		})
	}
}

package page

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// Hand-checked on the real pages (grep of mw.config, the catlinks block
// read by eye): ids, item, the number of visible and hidden categories
// and the first of each.
func TestReadIdentityRealPages(t *testing.T) {
	for _, c := range []struct {
		page                      string // a 2018 title, or a modern file
		pageID, revision          int64
		item                      string
		visible, hidden           int
		firstVisible, firstHidden string
	}{
		{"Seattle", 11388236, 806766858, "Q5083", 9, 18, "Seattle", "CS1_maint:_BOT:_original-url_status_unknown"},
		{"Space_Needle", 242937, 808375527, "Q5317", 12, 7, "Towers_completed_in_1961", "Skyscraper_Center_ID_same_as_Wikidata"},
		{"Barack_Obama", 534366, 824301276, "Q76", 55, 35, "Barack_Obama", "CS1_Indonesian-language_sources_(id)"},
		{"Michael_Jackson", 14995351, 808944951, "Q2831", 65, 27, "Michael_Jackson", "All_articles_with_dead_external_links"},
		{"Microsoft", 19001, 808896031, "Q2283", 26, 19, "Companies_in_the_NASDAQ-100_Index", "CS1_maint:_Uses_editors_parameter"},
		{"Google", 1092923, 808563953, "Q95", 27, 20, "Google", "CS1_French-language_sources_(fr)"},
		{"Cat.html", 6678, 1365570841, "Q146", 7, 49, "Domesticated_animals", "Articles_with_short_description"},
		{"Duck.html", 37674, 1246843351, "Q3736439", 3, 26, "Ducks", "All_accuracy_disputes"},
		{"List_of_chiropterans.html", 14355218, 1287634235, "Q5391335", 2, 2, "Lists_of_animal_genera", "Articles_with_short_description"},
		{"Order_(biology).html", 61763, 1283349651, "Q36602", 5, 6, "Orders_(biology)", "CS1_Russian-language_sources_(ru)"},
		{"Rust_(programming_language).html", 29414838, 1346393842, "Q575650", 16, 15, "Rust_(programming_language)", "CS1_maint:_deprecated_archival_service"},
	} {
		var body []byte
		if strings.HasSuffix(c.page, ".html") {
			body = wikitest.Modern(t, c.page)
		} else {
			body = wikitest.Page(t, c.page)
		}
		id := ReadIdentity(body)
		var vis, hid []string
		for _, cat := range id.Categories {
			if cat.Hidden != nil && *cat.Hidden {
				hid = append(hid, cat.Name)
			} else {
				vis = append(vis, cat.Name)
			}
		}
		if id.PageID != c.pageID || id.RevisionID != c.revision || id.WikidataID != c.item ||
			len(vis) != c.visible || len(hid) != c.hidden || vis[0] != c.firstVisible || hid[0] != c.firstHidden {
			t.Errorf("%s: %d %d %s, %d visible (%v), %d hidden (%v)", c.page, id.PageID, id.RevisionID, id.WikidataID,
				len(vis), vis[:min(2, len(vis))], len(hid), hid[:min(2, len(hid))])
		}
	}
}

// The Parsoid read view gives sort keys in its category links.
func TestReadIdentityParsoidSortKeys(t *testing.T) {
	id := ReadIdentity(wikitest.Modern(t, "Cat.html"))
	for _, c := range id.Categories {
		if c.Name == "Wikipedia_indefinitely_move-protected_pages" {
			if c.SortKey != "Cat" || c.Hidden == nil || !*c.Hidden {
				t.Errorf("%+v: want the sort key Cat, hidden", c)
			}
			return
		}
	}
	t.Error("no category Wikipedia_indefinitely_move-protected_pages")
}

// Pages whose sources disagree or are missing.
func TestReadIdentityPrecedence(t *testing.T) {
	catlinks := `<div id="catlinks" class="catlinks"><div id="mw-normal-catlinks"><a href="/wiki/Help:Category">Categories</a>: <ul>` +
		`<li><a href="/wiki/Category:Caf%C3%A9s_in_Seattle">Cafés in Seattle</a></li>` +
		`<li><a href="/w/index.php?title=Category:Red_link_category&amp;action=edit&amp;redlink=1" class="new">Red</a></li></ul></div>` +
		`<div id="mw-hidden-catlinks" class="mw-hidden-catlinks mw-hidden-cats-hidden">Hidden categories: <ul>` +
		`<li><a href="/wiki/Category:Articles_with_short_description">x</a></li></ul></div></div>`
	config := `<script>RLCONF={"wgArticleId":42,"wgRevisionId":7,"wgCategories":["Only in config","Cafés in Seattle"],"wgWikibaseItemId":"Q9"};</script>`
	parsoid := `<html about="https://en.wikipedia.org/wiki/Special:Redirect/revision/555"><head><meta property="mw:pageId" content="77"/></head>` +
		`<body><link rel="mw:PageProp/Category" href="./Category:Birds_of_Asia#Duck"/><link rel="mw:PageProp/Category" href="./Category:Ducks"/></body></html>`
	for _, c := range []struct {
		name, html string
		want       string
	}{
		// catlinks and mw.config disagree: catlinks wins (rendered with the revision, and it alone says hidden).
		{"both", "<html><head>" + config + "</head><body>" + catlinks + "</body></html>",
			"42 7 Q9 [Cafés_in_Seattle/false Red_link_category/false Articles_with_short_description/true]"},
		// no catlinks (a stripped snapshot): mw.config's list, hidden unknown.
		{"config only", "<html><head>" + config + "</head><body><p>text</p></body></html>",
			"42 7 Q9 [Only_in_config/? Cafés_in_Seattle/?]"},
		// a Parsoid document without mw.config: its own page id, revision and category links.
		{"parsoid", parsoid, "77 555  [Birds_of_Asia/?#Duck Ducks/?]"},
		// a page that says nothing: nothing, never a guess.
		{"nothing", "<html><head><title>x</title></head><body><p>wgArticleId</p></body></html>", "0 0  []"},
		// an article quoting mw.config in its text: only <head> is read.
		{"quoted", `<html><head></head><body><pre>"wgArticleId":99 "wgWikibaseItemId":"Q1"</pre></body></html>`, "0 0  []"},
	} {
		id := ReadIdentity([]byte(c.html))
		var cats []string
		for _, cat := range id.Categories {
			h := "?"
			if cat.Hidden != nil {
				h = strconv.FormatBool(*cat.Hidden)
			}
			s := cat.Name + "/" + h
			if cat.SortKey != "" {
				s += "#" + cat.SortKey
			}
			cats = append(cats, s)
		}
		if got := fmt.Sprintf("%d %d %s %v", id.PageID, id.RevisionID, id.WikidataID, cats); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// Every page of the 2018 corpus, and each 2024-2026 page we hold, reads
// as an independent parser (wikitest.ReadIdentity) reads it.
func TestReadIdentityAgreesOnCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 2,695 pages")
	}
	n := 0
	pages := wikitest.Corpus(t)
	pages = append(pages, wikitest.ModernPages(t)...) // 2024-2026, one a Parsoid view
	for _, p := range pages {
		want, err := wikitest.ReadIdentity(p.HTML)
		if err != nil {
			t.Fatal(err)
		}
		got := ReadIdentity(p.HTML)
		if g, w := fmt.Sprintf("%d %d %q %v", got.PageID, got.RevisionID, got.WikidataID, catNames(got.Categories)),
			fmt.Sprintf("%d %d %q %v", want.PageID, want.RevisionID, want.WikidataID, want.Categories); g != w {
			t.Errorf("%s:\n got %s\nwant %s", p.Title, g, w)
		}
		if got.PageID != 0 {
			n++
		}
	}
	if n < 2000 {
		t.Errorf("only %d pages have a page id", n)
	}
}

func catNames(cats []Category) []string {
	var out []string
	for _, c := range cats {
		out = append(out, fmt.Sprintf("%s/%v", c.Name, c.Hidden != nil && *c.Hidden))
	}
	return out
}

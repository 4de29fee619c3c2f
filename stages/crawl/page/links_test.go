package page

import (
	"math"
	"strings"
	"testing"
)

// body wraps paragraphs in Wikipedia's content structure, with an infobox
// link before the first paragraph and sidebar links after the content.
func body(paragraphs string) []byte {
	return []byte(`<html><head><title>T</title><link rel="canonical" href="https://en.wikipedia.org/wiki/Target_page"></head><body>
<div id="mw-head"><a href="/wiki/Head_link">head</a></div>
<div id="mw-content-text"><div class="mw-parser-output">
<table class="infobox"><tr><td><a href="/wiki/Infobox_link">info</a></td></tr></table>` +
		paragraphs + `</div><noscript><a href="/wiki/Noscript_link">n</a></noscript></div>
<div id="mw-navigation"><a href="/wiki/Main_Page">Main page</a></div></body></html>`)
}

func words(n int) string { return strings.Repeat("filler ", n) }

func weights(t *testing.T, html []byte, topics ...string) map[string]float64 {
	t.Helper()
	doc := Extract(html, []string{"en.wikipedia.org"}, ScopeBody, NewTopics(topics))
	m := map[string]float64{}
	for _, l := range doc.Links {
		m[l.Key] = l.Weight
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestLinkWeights(t *testing.T) {
	html := body(`<p>` +
		`Played on a <a href="/wiki/Clay">Tennis court</a> made of clay. ` + // anchor names a topic
		`<a href="/wiki/Tennis_ball">ball</a> ` + // URL names a topic
		words(30) + `<a href="/wiki/Adjacent">x</a> tennis ` + // d = 0 after
		words(30) + `tennis alpha <a href="/wiki/One_before">x</a> ` + // d = 1 before
		words(30) + `tennis ` + words(20) + `<a href="/wiki/Twenty">x</a> ` + // d = 20
		words(30) + `tennis ` + words(21) + `<a href="/wiki/Twenty_one">x</a> ` + words(30) + // d = 21
		`GRAND Slam <a href="/wiki/Phrase">x</a> ` + words(30) + // phrase, any case, d = 0
		`grand ` + words(3) + ` slam <a href="/wiki/Broken_phrase">x</a> ` + words(40) +
		`<a href="/wiki/Nearest">x</a> a b tennis` + // nearest of before and after
		`</p>`)
	got := weights(t, html, "tennis", "grand slam")
	want := map[string]float64{
		"/wiki/Clay": 1, "/wiki/Tennis_ball": 1,
		"/wiki/Adjacent": 1.0 / 2, "/wiki/One_before": 1.0 / 3,
		"/wiki/Twenty": 1.0 / 22, "/wiki/Twenty_one": 0,
		"/wiki/Phrase": 1.0 / 2, "/wiki/Broken_phrase": 0, "/wiki/Nearest": 1.0 / 4,
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || !near(g, w) {
			t.Errorf("weight(%s) = %v (found %v), want %v", k, g, ok, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("links = %v, want exactly %d", got, len(want))
	}
}

// The anchor text counts as one word, however long it is.
func TestAnchorIsOneWord(t *testing.T) {
	html := body(`<p>tennis <a href="/wiki/Long">a very long anchor text of many words</a> <a href="/wiki/After">x</a></p>`)
	got := weights(t, html, "tennis")
	if !near(got["/wiki/Long"], 1.0/2) || !near(got["/wiki/After"], 1.0/3) {
		t.Errorf("weights = %v, want Long 1/2 and After 1/3", got)
	}
}

func TestNoTopicsGiveZero(t *testing.T) {
	html := body(`<p>tennis <a href="/wiki/Tennis">tennis</a></p>`)
	for _, topics := range [][]string{nil, {"  ", ""}} {
		for k, w := range weights(t, html, topics...) {
			if w != 0 {
				t.Errorf("topics %q: weight(%s) = %v, want 0", topics, k, w)
			}
		}
	}
}

func TestLinkScope(t *testing.T) {
	html := body(`<p>first <a href="/wiki/A">a</a> <a href="/wiki/B">b</a> <a href="/wiki/A">again</a> ` +
		`<a href="/wiki/A#Section">section</a> <a href="/wiki/File:X.jpg">file</a></p><div><p><a href="/wiki/C">c</a></p></div>`)
	doc := Extract(html, []string{"en.wikipedia.org"}, ScopeBody, Topics{})
	var keys []string
	for _, l := range doc.Links {
		keys = append(keys, l.Key)
	}
	if strings.Join(keys, " ") != "/wiki/A /wiki/B /wiki/C" {
		t.Errorf("body scope links = %v, want [/wiki/A /wiki/B /wiki/C]", keys)
	}
	if doc.Canonical != "/wiki/Target_page" || doc.Title != "T" {
		t.Errorf("canonical, title = %q, %q", doc.Canonical, doc.Title)
	}
	legacy := Extract(html, []string{"en.wikipedia.org"}, ScopeLegacy, Topics{})
	keys = keys[:0]
	for _, l := range legacy.Links {
		keys = append(keys, l.Key)
	}
	if strings.Join(keys, " ") != "/wiki/A /wiki/B /wiki/C /wiki/Main_Page" {
		t.Errorf("legacy scope links = %v", keys)
	}
}

// A page without a paragraph in its content has no body links.
func TestNoParagraphNoLinks(t *testing.T) {
	html := []byte(`<div id="mw-content-text"><div class="mw-parser-output"><a href="/wiki/A">a</a></div></div><p><a href="/wiki/B">b</a></p>`)
	if doc := Extract(html, nil, ScopeBody, Topics{}); len(doc.Links) != 0 {
		t.Errorf("links = %v, want none", doc.Links)
	}
}

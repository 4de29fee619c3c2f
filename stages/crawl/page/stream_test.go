package page

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/text"
)

// The one-pass reading of the article gives text.Parse's pieces exactly,
// on every page of the 2018 corpus and on today's pages, and takes the
// fast path for nearly all of them. Under the race detector (CI's test
// command), which slows text.Parse tenfold, every fourth corpus page is
// read; the whole corpus runs without it.
func TestParseArticleMatchesTree(t *testing.T) {
	type page struct {
		title string
		html  []byte
	}
	var pages []page
	for i, p := range wikitest.Corpus(t) {
		if !raceBuild || i%4 == 0 || p.Title == "Seattle" {
			pages = append(pages, page{p.Title, p.HTML})
		}
	}
	for _, p := range wikitest.ModernPages(t) {
		pages = append(pages, page{"modern/" + p.Title, p.HTML})
	}
	pages = append(pages, page{"a page with a NUL, read by text.Parse", append(slices.Clone(wikitest.Page(t, "Seattle")), 0)})
	fast, why := 0, map[string]int{}
	for _, p := range pages {
		checkTap(t, p.title, p.html)
		want := text.Parse(p.html)
		got, reason := streamArticle(p.html, nil)
		if reason != "" {
			why[reason]++
			continue
		}
		fast++
		if !reflect.DeepEqual(got.Pieces, want.Pieces) {
			t.Errorf("%s: %s", p.title, firstDifference(got.Pieces, want.Pieces))
		}
	}
	t.Logf("%d of %d pages read in one pass; the others: %v", fast, len(pages), why)
	if fast < len(pages)*9/10 {
		t.Errorf("only %d of %d pages read in one pass", fast, len(pages))
	}
}

// checkTap: an extractor fed by streamArticle's pass, fast or not, ends
// as one that ran over the page alone.
func checkTap(t *testing.T, title string, page []byte) {
	t.Helper()
	topics := NewTopics([]string{"seattle", "puget sound"})
	hosts := []string{"en.wikipedia.org"}
	alone := extractor{hosts: hosts, scope: ScopeBody, topics: topics, seen: map[string]bool{}, keepWords: true}
	alone.run(page)
	tapped := extractor{hosts: hosts, scope: ScopeBody, topics: topics, seen: map[string]bool{}, keepWords: true}
	streamArticle(page, &tapped)
	if alone.canonical != tapped.canonical || alone.structure != tapped.structure || alone.title.String() != tapped.title.String() ||
		!reflect.DeepEqual(alone.links, tapped.links) || !reflect.DeepEqual(alone.words, tapped.words) || !reflect.DeepEqual(alone.hits, tapped.hits) {
		t.Errorf("%s: the extractor fed by the article's pass differs from one run alone", title)
	}
}

func firstDifference(got, want []text.Piece) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("piece %d is %s, want %s", i, quote(got[i]), quote(want[i]))
		}
	}
	return fmt.Sprintf("%d pieces, want %d", len(got), len(want))
}

func quote(p text.Piece) string {
	s := p.Text
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return fmt.Sprintf("%q (href %q)", s, p.Href)
}

// FuzzStreamArticle: whenever the one-pass reading keeps to its fast
// path, it gives text.Parse's pieces.
func FuzzStreamArticle(f *testing.F) {
	for _, s := range []string{
		`<div id="mw-content-text"><div class="mw-parser-output"><p>Lead <a href="/wiki/X">x <sup class="reference">[1]</sup></a> text</p><table><tr><td>no</td></tr></table><p>more &amp; <b>bold</b></p></div></div>`,
		`<div id="mw-content-text"><p>old <a href="/wiki/A?b=1&amp;c=2">a</a></p><div class="navbox">nav</div><ul><li>one<li>two</ul></div>`,
		`<div id="mw-content-text"><div class="mw-parser-output"><pre>
code</pre><p>x<!-- c -->y < z</p><math><mi>x</mi><mspace/><annotation>{\x}</annotation></math></div></div>`,
		`<div id="mw-content-text"><p>a<div>b</div></p><p>c</span></p></div>`,
		`<div id="mw-content-text"><p>p</p><pre><!-- c -->
kept</pre><pre>
dropped</pre></div>`,
		`<div id="mw-content-text"><div class="mw-parser-output"><div class="hatnote">h</div><p>One <i>two</i> <a href="/wiki/T" class="mw-redirect">three</a>.</p><h2><span class="mw-headline" id="A">A</span><span class="mw-editsection">[<a href="/w/index.php?title=T&amp;action=edit">edit</a>]</span></h2><dl><dd>d</dd></dl><img src="x.png" alt="y"><br></div></div>`,
	} {
		f.Add([]byte("<!DOCTYPE html><html><head><title>T</title><meta charset=utf-8></head><body>" + s + "</body></html>"))
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		got, why := streamArticle(page, nil)
		if why != "" {
			return
		}
		if want := text.Parse(page); !reflect.DeepEqual(got.Pieces, want.Pieces) {
			t.Fatalf("%q: %s", page, firstDifference(got.Pieces, want.Pieces))
		}
	})
}

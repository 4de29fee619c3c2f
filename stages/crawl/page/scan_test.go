package page

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// extractWithTokenizer is Extract driven by golang.org/x/net/html's
// Tokenizer instead of the scanner: the oracle the scanner must match.
func extractWithTokenizer(body []byte, hosts []string, scope Scope, topics Topics) Document {
	x := extractor{hosts: hosts, scope: scope, topics: topics, seen: map[string]bool{}}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			x.closeAnchor()
			links, _, _ := Extractor{Topics: topics}.weigh(&x, nil, 0)
			return Document{Version: Version, Canonical: x.canonical, Title: trimTitle(x.title.String()), Links: links, Structure: x.structure, Identity: ReadIdentity(body)}
		case html.TextToken:
			x.text(z.Text())
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			attrs := map[string]string{}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				if _, dup := attrs[string(k)]; !dup {
					attrs[string(k)] = string(v)
				}
			}
			x.start(atom.Lookup(name), func(k1, k2 string) (string, string) { return attrs[k1], attrs[k2] },
				tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			name, _ := z.TagName()
			x.end(atom.Lookup(name))
		}
	}
}

func sameExtraction(t *testing.T, name string, body []byte, topics Topics) {
	t.Helper()
	for _, scope := range []Scope{ScopeBody, ScopeLegacy} {
		got := Extract(body, []string{"en.wikipedia.org"}, scope, topics)
		want := extractWithTokenizer(body, []string{"en.wikipedia.org"}, scope, topics)
		got.Content = "" // the article's digest: the reference reads links only
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s (scope %d): scanner and tokenizer differ: canonical %q/%q title %q/%q, %d/%d links",
				name, scope, got.Canonical, want.Canonical, got.Title, want.Title, len(got.Links), len(want.Links))
		}
	}
}

func TestScannerMatchesTokenizerOnTrickyHTML(t *testing.T) {
	for _, page := range []string{
		`<p>a <a href="/wiki/A" title="x > y">A &amp; B</a> <!-- <a href="/wiki/Hidden">h</a> --> t&eacute;nnis</p>`,
		`<P>upper <A HREF='/wiki/Upper'>case</A></P><script>var s = "<a href='/wiki/Script'>";</script><p><a href=/wiki/Unquoted>u</a>`,
		`<title>T &amp; U</title><p>x<br/>y <a href="/wiki/Q%26A">q</a><style>p{}</style><textarea><a href="/wiki/T">t</a></textarea>`,
		`<!DOCTYPE html><?xml x?><p>2 < 3 and <a href="/wiki/Lt">lt</a> tennis <a href="/wiki/Entity&#95;Name">e</a>`,
		`<div id="mw-content-text"><div class="a mw-parser-output"><p><a href="/wiki/In">in</a></div><a href="/wiki/Out">out</a></div>`,
		`<p><a href="/wiki/Unterminated`,
		`<p>tennis <a href="/wiki/X">x</a><script>unterminated`,
		`<p><a href="/wiki/E">e</a x=">"> tennis <a href="/wiki/F">f</a></p>`,
		`<p><a href="/wiki/G">g</a 0=">tennis <a href="/wiki/H">h</a>`,
		`<title>T</title x=">"><p><a href="/wiki/I">i</a>`,
		`<p><a href="/wiki/J">j</a><title>cut </title`,
		`<p>tennis a</>b <a href="/wiki/K">k</a> c</`,
		`<p>tennis a</ x <a href="/wiki/L">l</a> y>b <a href="/wiki/M">m</a></p>`,
		`<p>tennis a</1 <a href="/wiki/N">n</a></p>`,
		`<p><!-- a --!> <a href="/wiki/O">o</a> <!-- b --!- <a href="/wiki/P">p</a> ---> tennis <!---->`,
		`<p><!-- <a href="/wiki/Q">q</a> --!`,
	} {
		sameExtraction(t, page, []byte(page), NewTopics([]string{"tennis", "ténnis"}))
	}
	for i := range 50 {
		sameExtraction(t, "generated", []byte(wikitest.Article(i, 100)), NewTopics([]string{"tennis", "grand slam"}))
	}
}

func TestScannerMatchesTokenizerOnRealPages(t *testing.T) {
	for _, p := range sample(t) {
		sameExtraction(t, "real page", p, benchTopics)
	}
}

// TestCommentLenExhaustive checks commentLen against its definition, the
// earlier of "-->" and "--!>", on every string of up to eight bytes over
// the bytes that matter.
func TestCommentLenExhaustive(t *testing.T) {
	want := func(b []byte) int {
		switch {
		case bytes.HasPrefix(b, []byte(">")):
			return 1
		case bytes.HasPrefix(b, []byte("->")):
			return 2
		}
		end, n := bytes.Index(b, []byte("-->")), 3
		if bang := bytes.Index(b, []byte("--!>")); bang >= 0 && (end < 0 || bang < end) {
			end, n = bang, 4
		}
		if end < 0 {
			return len(b)
		}
		return end + n
	}
	const alphabet = "-!>a"
	var b []byte
	var walk func(n int)
	walk = func(n int) {
		if got, w := commentLen(b), want(b); got != w {
			t.Fatalf("commentLen(%q) = %d, want %d", b, got, w)
		}
		if n == 0 {
			return
		}
		for i := range len(alphabet) {
			b = append(b, alphabet[i])
			walk(n - 1)
			b = b[:len(b)-1]
		}
	}
	walk(8)
}

// BenchmarkManyComments reads a page of 64 KB of empty comments: time
// linear in the page, not in the page times its comments.
func BenchmarkManyComments(b *testing.B) {
	body := []byte("<p>" + strings.Repeat("<!---->", 64<<10/7) + "</p>")
	topics := NewTopics([]string{"tennis"})
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Extract(body, []string{"en.wikipedia.org"}, ScopeBody, topics)
	}
}

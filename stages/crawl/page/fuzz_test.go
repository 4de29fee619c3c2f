package page

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/topicrank/topicrank/stages/text"
)

// FuzzExtract: any page, under every scope and strategy, gives distinct
// links with valid keys and weights in [0,1], and a relevance in [0,1].
func FuzzExtract(f *testing.F) {
	f.Add([]byte(`<div id="mw-content-text"><div class="mw-parser-output"><p>tennis <a href="/wiki/A">a</a></p></div></div>`), "tennis")
	f.Add([]byte(`<p><a href="/wiki/%FF">x</a><a href='/wiki/B'>grand slam</a><table><a href="/wiki/C">c</a></table>`), "grand slam")
	f.Add([]byte("<div id=mw-content-text><p>\x00<a href=/wiki/Foo/../Bar>\u202e</a><script><a href=/wiki/S>"), "x")
	f.Fuzz(func(t *testing.T, page []byte, topic string) {
		if len(page) > 1<<16 {
			return
		}
		topics := NewTopics([]string{topic})
		for _, scope := range []Scope{ScopeProse, ScopeBody, ScopeLegacy} {
			for s := range Strategies {
				doc := Extractor{Hosts: []string{"en.wikipedia.org"}, Scope: scope, Topics: topics,
					Topic: text.NewTopic([]string{topic}, nil), Strategy: Strategy(s)}.Extract(page)
				if doc.Relevance < 0 || doc.Relevance > 1 {
					t.Fatalf("relevance %v", doc.Relevance)
				}
				seen := map[string]bool{}
				for _, l := range doc.Links {
					if l.Weight < 0 || l.Weight > 1 || seen[l.Key] || !utf8.ValidString(l.Key) || !strings.HasPrefix(l.Key, "/wiki/") {
						t.Fatalf("scope %d strategy %d: link %+v (seen before: %v)", scope, s, l, seen[l.Key])
					}
					seen[l.Key] = true
				}
			}
		}
	})
}

// FuzzArticleKey: a key is valid UTF-8 with no controls, and normalising
// is idempotent: the key's own request path gives the key back.
func FuzzArticleKey(f *testing.F) {
	for _, s := range []string{"/wiki/Tennis", "/wiki/%FF%FE", "/wiki/a__b_", "https://en.wikipedia.org/wiki/Caf%C3%A9",
		"/wiki/Foo/../Bar", "/wiki/%2E%2E/w/x", "/wiki/100%_x", "/wiki/A%00B", "//en.wikipedia.org/wiki/X?y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, href string) {
		key, ok := ArticleKey(href, []string{"en.wikipedia.org"})
		if !ok {
			return
		}
		if !utf8.ValidString(key) || strings.ContainsAny(key, "\x00\n\r\u202e#:") || !strings.HasPrefix(key, "/wiki/") {
			t.Fatalf("ArticleKey(%q) = %q", href, key)
		}
		back, ok := ArticleKey(KeyPath(key), nil)
		if !ok || back != key {
			t.Fatalf("ArticleKey(%q) = %q, but its path %q gives %q, %v", href, key, KeyPath(key), back, ok)
		}
	})
}

package page

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
	"github.com/topicrank/topicrank/stages/text"
)

// pinned is, at each Version since versions were kept, the digest of
// what Extract gives under every extractor of extractionDigest: for 100
// generated pages, and for 59 real ones of ../shared (2018 and today's).
// A change that makes a digest differ makes stored copies wrong for an
// unchanged page: raise Version and pin the new digests under it.
var pinned = map[int]struct{ generated, real string }{
	1: {"95eab45cc712023d", "a1033407d1f9053e"},
}

// The Version's pinned digests say what Extract gives: with Version
// unchanged, the crawl would keep stored copies read by other code.
func TestVersionPinsExtraction(t *testing.T) {
	var generated [][]byte
	for i := range 100 {
		generated = append(generated, []byte(wikitest.Article(i, 100)))
	}
	pin, ok := pinned[Version]
	if !ok {
		t.Fatalf("page.Version %d has no pinned digests: pin {%q, %q}", Version, extractionDigest(t, generated), extractionDigest(t, realPages(t)))
	}
	for v, p := range pinned {
		if v != Version && p == pin {
			t.Errorf("versions %d and %d pin the same digests: a version was raised with nothing changed", v, Version)
		}
	}
	check := func(what, got, want string) {
		if got != want {
			t.Fatalf("Extract gives other Documents for %s pages than at page.Version %d (digest %s, pinned %s): "+
				"raise Version to %d and pin the new digests under it, so that stored copies are read again", what, Version, got, want, Version+1)
		}
	}
	check("generated", extractionDigest(t, generated), pin.generated)
	check("real", extractionDigest(t, realPages(t)), pin.real)
}

// realPages returns every 50th page of the 2018 corpus and today's five
// pages (skipping the test without ../shared).
func realPages(t *testing.T) [][]byte {
	var pages [][]byte
	for i, p := range wikitest.Corpus(t) {
		if i%50 == 0 {
			pages = append(pages, p.HTML)
		}
	}
	for _, p := range wikitest.ModernPages(t) {
		pages = append(pages, p.HTML)
	}
	return pages
}

// extractionDigest hashes the Documents of pages under three strategies
// and two scopes, floats rounded to 9 significant digits so that a
// platform's last bit does not count.
func extractionDigest(t *testing.T, pages [][]byte) string {
	words := []string{"film", "company", "species", "programming language", "tennis"}
	h := sha256.New()
	for _, s := range []Strategy{StrategyWeighted, StrategySimilarity, StrategyLearned} {
		for _, scope := range []Scope{ScopeProse, ScopeBody} {
			e := Extractor{Hosts: []string{"en.wikipedia.org"}, Scope: scope, Topics: NewTopics(words),
				Topic: text.NewTopic(words, nil), Strategy: s, Feedback: true}
			for _, body := range pages {
				b, err := json.Marshal(e.Extract(body))
				if err != nil {
					t.Fatal(err)
				}
				var v any
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				if b, err = json.Marshal(round(v)); err != nil {
					t.Fatal(err)
				}
				h.Write(b)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// round rounds every number in a decoded JSON value to 9 significant
// digits, as a string.
func round(v any) any {
	switch v := v.(type) {
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return v
		}
		return strconv.FormatFloat(v, 'g', 9, 64)
	case []any:
		for i := range v {
			v[i] = round(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = round(v[k])
		}
	}
	return v
}

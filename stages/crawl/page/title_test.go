package page

import "testing"

func TestArticleKey(t *testing.T) {
	hosts := []string{"en.wikipedia.org"}
	tests := []struct {
		href, want string
		ok         bool
	}{
		{"/wiki/Tennis", "/wiki/Tennis", true},
		{"/wiki/tennis", "/wiki/Tennis", true}, // MediaWiki capitalises the first letter
		{"/wiki/Grand_Slam_(tennis)", "/wiki/Grand_Slam_(tennis)", true},
		{"/wiki/Grand%20Slam%20(tennis)", "/wiki/Grand_Slam_(tennis)", true},
		{"/wiki/Lennon%E2%80%93McCartney", "/wiki/Lennon–McCartney", true},
		{"/wiki/%C3%A9cole", "/wiki/École", true},
		{"/wiki/AC/DC", "/wiki/AC/DC", true},
		{"/wiki/A__b_", "/wiki/A_b", true},
		{"https://en.wikipedia.org/wiki/Tennis", "/wiki/Tennis", true},
		{"//en.wikipedia.org/wiki/Tennis", "/wiki/Tennis", true},
		{"https://de.wikipedia.org/wiki/Tennis", "", false},
		{"/wiki/Tennis#History", "", false},
		{"#cite_note-1", "", false},
		{"/wiki/File:Ball.jpg", "", false},
		{"/wiki/Special%3ARandom", "", false},
		{"/w/index.php?title=Tennis", "", false},
		{"/wiki/Tennis?action=edit", "", false},
		{"/wiki/ten%20nis?", "/wiki/Ten_nis", true}, // a lone '?' is no query
		{"//en.wikipedia.org/wiki/Ten%20nis?x", "", false},
		{"/wiki/Ten%20nis#", "", false}, // an empty fragment still marks a place in a page
		{"mailto:x@example.org", "", false},
		{"/wiki/", "", false},
		// Bytes that are not valid UTF-8, controls and bidi overrides keep
		// their percent-encoding; a title that decodes to "%XX" is invalid.
		{"/wiki/%FF%FE", "/wiki/%FF%FE", true},
		{"/wiki/A%00B", "/wiki/A%00B", true},
		{"/wiki/Evil%E2%80%AEgnp.exe", "/wiki/Evil%E2%80%AEgnp.exe", true},
		{"/wiki/100%2541", "", false},
		// Dot segments are resolved as the server will.
		{"/wiki/Foo/../Secret", "/wiki/Secret", true},
		{"/wiki/Foo/./Bar", "/wiki/Foo/Bar", true},
		{"/wiki/%2E%2E/w/index.php", "", false},
		{"/wiki/../../etc", "", false},
	}
	for _, tt := range tests {
		got, ok := ArticleKey(tt.href, hosts)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ArticleKey(%q) = %q, %v; want %q, %v", tt.href, got, ok, tt.want, tt.ok)
		}
	}
}

func TestKeyPathRoundTrip(t *testing.T) {
	for _, key := range []string{"/wiki/Lennon–McCartney", "/wiki/AC/DC", "/wiki/C++", "/wiki/100%_(album)", "/wiki/Who?",
		"/wiki/%FF%FE", "/wiki/A%00B_%E2%80%AE"} {
		back, ok := ArticleKey(KeyPath(key), nil)
		if !ok || back != key {
			t.Errorf("ArticleKey(KeyPath(%q)) = %q, %v", key, back, ok)
		}
	}
}

// The fast path must agree with the full parse wherever it answers.
func TestPlainKeyAgreesWithParse(t *testing.T) {
	for _, href := range []string{"/wiki/Tennis", "/wiki/Grand_Slam_(tennis)", "/wiki/A_b", "/wiki/A__b", "/wiki/a",
		"/wiki/X_", "/wiki/St._Louis", "/wiki/Rock'n'roll", "/wiki/C*", "/wiki/1999", "/wiki/Q!"} {
		if !plainKey(href) {
			continue
		}
		if slow, ok := articleKeySlow(href, nil); !ok || slow != href {
			t.Errorf("plainKey(%q) but the parse gives %q, %v", href, slow, ok)
		}
	}
}

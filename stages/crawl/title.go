package crawl

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ArticleKey returns the vertex key "/wiki/Title" that href names, or false
// when href is not an article link: only /wiki/ paths, relative or on one of
// hosts, whose decoded title contains neither '#' nor ':'.
//
// Titles are normalised the way MediaWiki resolves them, so one article is
// one key: percent-encoding decoded, spaces and runs of underscores become
// one underscore, leading and trailing underscores dropped, first letter
// upper-cased.
func ArticleKey(href string, hosts []string) (string, bool) {
	if strings.HasPrefix(href, "//") {
		href = "https:" + href
	}
	u, err := url.Parse(href)
	if err != nil || u.Fragment != "" || u.RawQuery != "" || strings.Contains(href, "#") {
		return "", false
	}
	if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return "", false
	}
	if u.Host != "" && !hostIn(u.Host, hosts) {
		return "", false
	}
	raw, ok := strings.CutPrefix(u.EscapedPath(), "/wiki/")
	if !ok {
		return "", false
	}
	title, err := url.PathUnescape(raw)
	if err != nil {
		return "", false
	}
	title = NormalizeTitle(title)
	if title == "" || strings.ContainsAny(title, "#:") {
		return "", false
	}
	return "/wiki/" + title, true
}

// NormalizeTitle applies MediaWiki's title normalisation to a decoded title.
func NormalizeTitle(t string) string {
	t = strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == '_' || unicode.IsSpace(r) }), "_")
	r, size := utf8.DecodeRuneInString(t)
	if r == utf8.RuneError || unicode.IsUpper(r) {
		return t
	}
	return string(unicode.ToUpper(r)) + t[size:]
}

// KeyPath returns the escaped request path for a key, e.g. "/wiki/Caf%C3%A9".
func KeyPath(key string) string {
	return (&url.URL{Path: key}).EscapedPath()
}

func hostIn(host string, hosts []string) bool {
	for _, h := range hosts {
		if strings.EqualFold(host, h) {
			return true
		}
	}
	return false
}

package page

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/topicrank/topicrank/internal/names"
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
	if plainKey(href) {
		return href, true
	}
	return articleKeySlow(href, hosts)
}

func articleKeySlow(href string, hosts []string) (string, bool) {
	// A link into a page, or with a query, is never an article: most of a
	// page's other links are such (citations, edit links), and saying so
	// before parsing them is cheap. A lone '?' at the end is no query.
	if strings.IndexByte(href, '#') >= 0 {
		return "", false
	}
	if i := strings.IndexByte(href, '?'); i >= 0 && i+1 < len(href) {
		return "", false
	}
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
	if u.Host != "" && !HostIn(u.Host, hosts) {
		return "", false
	}
	raw, ok := strings.CutPrefix(CleanPath(u.EscapedPath()), "/wiki/")
	if !ok {
		return "", false
	}
	title, err := url.PathUnescape(raw)
	if err != nil {
		return "", false
	}
	title = NormalizeTitle(title)
	if title == "" || strings.ContainsAny(title, "#:") || hasEscape(title) || dotSegment(title) {
		return "", false
	}
	return "/wiki/" + names.Safe(title), true
}

// hasEscape reports a '%' followed by two hex digits: MediaWiki refuses
// such titles, so in a key the sequence always stands for an encoded
// byte (names.Safe's), never for itself.
func hasEscape(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2]) {
			return true
		}
	}
	return false
}

// dotSegment reports a "." or ".." path segment, which MediaWiki refuses
// in titles (a server would resolve it to another path).
func dotSegment(title string) bool {
	for _, seg := range strings.Split(title, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// plainKey reports whether href is already a key: a relative /wiki/ link
// of plain ASCII that normalisation would not change. Most links on a page
// are, and this test is far cheaper than parsing them.
func plainKey(href string) bool {
	t, ok := strings.CutPrefix(href, "/wiki/")
	if !ok || t == "" || t[0] < 'A' || t[0] > 'Z' || t[len(t)-1] == '_' {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '_':
			if t[i-1] == '_' {
				return false
			}
		case c == '(' || c == ')' || c == ',' || c == '.' || c == '-' || c == '!' || c == '\'' || c == '*':
		default: // '%', '#', ':', '?', '/', '&', blanks, non-ASCII and the rest take the slow path
			return false
		}
	}
	return true
}

// NormalizeTitle applies MediaWiki's title normalisation to a decoded title:
// blanks and underscores as one underscore, none at either end, the first
// letter upper case.
func NormalizeTitle(t string) string {
	t = strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == '_' || unicode.IsSpace(r) }), "_")
	r, size := utf8.DecodeRuneInString(t)
	if r == utf8.RuneError || unicode.IsUpper(r) {
		return t
	}
	return string(unicode.ToUpper(r)) + t[size:]
}

// KeyPath returns the escaped request path for a key, e.g. "/wiki/Caf%C3%A9".
// A key's "%XX" sequences (bytes names.Safe encoded) go out as they are.
func KeyPath(key string) string {
	if !strings.Contains(key, "%") {
		return (&url.URL{Path: key}).EscapedPath()
	}
	var b strings.Builder
	for key != "" {
		i := strings.Index(key, "%")
		for i >= 0 && !(i+2 < len(key) && isHex(key[i+1]) && isHex(key[i+2])) {
			j := strings.Index(key[i+1:], "%")
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			b.WriteString((&url.URL{Path: key}).EscapedPath())
			break
		}
		b.WriteString((&url.URL{Path: key[:i]}).EscapedPath())
		b.WriteString(key[i : i+3])
		key = key[i+3:]
	}
	return b.String()
}

// HostIn reports whether host is one of hosts, case aside.
func HostIn(host string, hosts []string) bool {
	for _, h := range hosts {
		if strings.EqualFold(host, h) {
			return true
		}
	}
	return false
}

// CleanPath returns an escaped URL path as a server resolves it: dots
// escaped as %2E decoded, then "." and ".." segments removed (RFC 3986,
// 5.2.4). "/wiki/Foo/../Secret" and "/wiki/%2E%2E/w/x" name /wiki/Secret
// and /w/x, and robots.txt is checked against those.
func CleanPath(escaped string) string {
	p := strings.NewReplacer("%2E", ".", "%2e", ".").Replace(escaped)
	if !strings.Contains(p, ".") {
		return p
	}
	var out []string
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		switch seg {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	if len(out) == 1 && out[0] == "" {
		return "/"
	}
	return strings.Join(out, "/")
}

// KeyTitle returns the article title a key names, decoded, with spaces
// for underscores: "/wiki/Space_Needle" is "Space Needle".
func KeyTitle(key string) string {
	t := strings.TrimPrefix(key, "/wiki/")
	if u, err := url.PathUnescape(t); err == nil {
		t = u
	}
	return strings.ReplaceAll(t, "_", " ")
}

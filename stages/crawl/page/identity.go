package page

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// Identity is what a MediaWiki page says of itself, beside its text: its
// page id, the revision served, its Wikidata item and its categories.
// Each is absent (zero) where the page does not say, never guessed.
//
// Where each comes from, in order:
//   - page id, revision, Wikidata item: the page's mw.config in <head>
//     (wgArticleId, wgRevisionId, wgWikibaseItemId: desktop HTML of 2018
//     and of today, and Parsoid read views, which carry it too); else a
//     Parsoid document's <meta property="mw:pageId"> and the revision URL
//     in <html about="…/revision/N">.
//   - categories: the catlinks block the reader sees (visible and hidden
//     ones apart); else Parsoid's <link rel="mw:PageProp/Category">
//     (hidden unknown); else mw.config's wgCategories (hidden unknown).
//     The catlinks block wins where both say: it is the list rendered
//     with the revision, and it alone says which categories are hidden
//     (maintenance categories). Sort keys come from Parsoid's links
//     (href "…#sortkey"), the only markup that gives them.
type Identity struct {
	PageID     int64      `json:",omitempty"`
	RevisionID int64      `json:",omitempty"`
	WikidataID string     `json:",omitempty"`
	Categories []Category `json:",omitempty"`
}

// Category is one of a page's categories.
type Category struct {
	// Name is the category's title without "Category:", decoded, with
	// underscores for spaces as in page keys: "Cities_in_Washington_(state)".
	Name string
	// Hidden says it is a hidden (maintenance) category; nil when the
	// page does not say (no catlinks block).
	Hidden  *bool  `json:",omitempty"`
	SortKey string `json:",omitempty"`
}

// ReadIdentity reads a page's Identity from its HTML.
func ReadIdentity(body []byte) Identity {
	head := body
	if i := bytes.Index(body, []byte("<body")); i >= 0 {
		head = body[:i]
	}
	var id Identity
	id.PageID = configInt(head, `"wgArticleId":`)
	id.RevisionID = configInt(head, `"wgRevisionId":`)
	if m := wikibase.FindSubmatch(head); m != nil {
		id.WikidataID = string(m[1])
	}
	if id.PageID == 0 {
		if m := parsoidPageID.FindSubmatch(head); m != nil {
			id.PageID = exactID(string(m[1]))
		}
	}
	if id.RevisionID == 0 {
		if m := parsoidRevision.FindSubmatch(head); m != nil {
			id.RevisionID = exactID(string(m[1]))
		}
	}
	sortKeys := map[string]string{}
	var parsoid []Category
	for _, m := range parsoidCategory.FindAllSubmatch(body, -1) {
		c, ok := parsoidLink(string(m[1]))
		if !ok {
			continue
		}
		if _, dup := sortKeys[c.Name]; !dup {
			parsoid = append(parsoid, c)
		}
		sortKeys[c.Name] = c.SortKey
	}
	switch cats := catlinks(body); {
	case cats != nil:
		for i := range cats {
			cats[i].SortKey = sortKeys[cats[i].Name]
		}
		id.Categories = cats
	case parsoid != nil:
		id.Categories = parsoid
	default:
		for _, name := range configStrings(head, `"wgCategories":`) {
			id.Categories = append(id.Categories, Category{Name: strings.ReplaceAll(name, " ", "_")})
		}
	}
	return id
}

var (
	wikibase        = regexp.MustCompile(`"wgWikibaseItemId":"(Q[0-9]{1,12})"`)
	parsoidPageID   = regexp.MustCompile(`<meta property="mw:pageId" content="([0-9]{1,15})"`)
	parsoidRevision = regexp.MustCompile(`<html[^>]*\sabout="[^"]*/revision/([0-9]{1,15})"`)
	parsoidCategory = regexp.MustCompile(`<link rel="mw:PageProp/Category" href="([^"]*)"`)
)

// configInt reads the integer after key in mw.config (0 if none).
func configInt(head []byte, key string) int64 {
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return 0
	}
	rest := head[i+len(key):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n < len(rest) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(rest[n])) {
		return 0 // a number that is no whole id (1.5, 1e3): none rather than a guess
	}
	return exactID(string(rest[:n]))
}

// exactID parses an id exactly: a positive integer that fits MediaWiki's
// bigint ids, else 0 (absent), never a truncated or rounded guess.
func exactID(s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0
	}
	return v
}

// configStrings reads the JSON array of strings after key in mw.config.
func configStrings(head []byte, key string) []string {
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return nil
	}
	var out []string
	if json.NewDecoder(bytes.NewReader(head[i+len(key):])).Decode(&out) != nil {
		return nil
	}
	return out
}

// parsoidLink reads a Parsoid category link's href, "./Category:Name#key".
func parsoidLink(href string) (Category, bool) {
	href = html.UnescapeString(href)
	rest, ok := strings.CutPrefix(href, "./Category:")
	if !ok {
		return Category{}, false
	}
	name, key, _ := strings.Cut(rest, "#")
	name, err := url.PathUnescape(name)
	if err != nil || name == "" {
		return Category{}, false
	}
	key, err = url.PathUnescape(key)
	if err != nil {
		key = ""
	}
	return Category{Name: strings.ReplaceAll(name, " ", "_"), SortKey: key}, true
}

// catlinks reads the catlinks block: each category link, hidden when in
// the mw-hidden-catlinks list; nil when the page has no block.
func catlinks(body []byte) []Category {
	i := bytes.Index(body, []byte(`id="catlinks"`))
	if i < 0 {
		return nil
	}
	start := bytes.LastIndexByte(body[:i], '<')
	z := html.NewTokenizer(bytes.NewReader(body[start:]))
	out := []Category{}
	seen := map[string]bool{}
	depth, hidden := 0, 0 // open divs in the block; the depth the hidden list opened at (0: not in it)
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return out
		case html.StartTagToken, html.EndTagToken:
			name, attrs := z.TagName()
			switch string(name) {
			case "div":
				if tt == html.EndTagToken {
					if depth == hidden {
						hidden = 0
					}
					if depth--; depth == 0 {
						return out
					}
					continue
				}
				depth++
				for attrs {
					var k, v []byte
					k, v, attrs = z.TagAttr()
					if string(k) == "class" && bytes.Contains(v, []byte("mw-hidden-catlinks")) {
						hidden = depth
					}
				}
			case "a":
				if tt != html.StartTagToken {
					continue
				}
				for attrs {
					var k, v []byte
					k, v, attrs = z.TagAttr()
					if string(k) != "href" {
						continue
					}
					if name, ok := categoryHref(string(v)); ok && !seen[name] {
						seen[name] = true
						h := hidden > 0
						out = append(out, Category{Name: name, Hidden: &h})
					}
				}
			}
		}
	}
}

// categoryHref reads a category's title from a catlinks href: /wiki/Category:X,
// or a red link's /w/index.php?title=Category:X&… .
func categoryHref(href string) (string, bool) {
	var title string
	if t, ok := strings.CutPrefix(href, "/wiki/"); ok {
		title, _, _ = strings.Cut(t, "#")
		t, err := url.PathUnescape(title)
		if err != nil {
			return "", false
		}
		title = t
	} else if u, err := url.Parse(href); err == nil && strings.HasSuffix(u.Path, "/index.php") {
		title = u.Query().Get("title")
	}
	name, ok := strings.CutPrefix(title, "Category:")
	if !ok || name == "" {
		return "", false
	}
	return strings.ReplaceAll(name, " ", "_"), true
}

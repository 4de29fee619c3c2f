package wikitest

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
)

// Identity is what a MediaWiki page says of itself as an independent
// parser reads it, to judge the product's reader (stages/crawl/page):
// regular expressions on the whole file for the ids, goquery on the
// catlinks block for the categories.
type Identity struct {
	PageID, RevisionID int64
	WikidataID         string
	// Categories are "Name/hidden", in the block's order, each once.
	Categories []string
}

var (
	articleRE  = regexp.MustCompile(`"wgArticleId":([0-9]+)`)
	revisionRE = regexp.MustCompile(`"wgRevisionId":([0-9]+)`)
	itemRE     = regexp.MustCompile(`"wgWikibaseItemId":"(Q[0-9]+)"`)
)

// ReadIdentity reads body's Identity.
func ReadIdentity(body []byte) (Identity, error) {
	num := func(re *regexp.Regexp) int64 {
		if m := re.FindSubmatch(body); m != nil {
			n, _ := strconv.ParseInt(string(m[1]), 10, 64)
			return n
		}
		return 0
	}
	id := Identity{PageID: num(articleRE), RevisionID: num(revisionRE)}
	if m := itemRE.FindSubmatch(body); m != nil {
		id.WikidataID = string(m[1])
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		return id, err
	}
	seen := map[string]bool{}
	doc.Find("#catlinks a").Each(func(_ int, a *goquery.Selection) {
		title, _ := a.Attr("title")
		if !strings.HasPrefix(title, "Category:") {
			return
		}
		if href, _ := a.Attr("href"); strings.Contains(href, "redlink=1") {
			title = strings.TrimSuffix(title, " (page does not exist)")
		}
		name := strings.ReplaceAll(strings.TrimPrefix(title, "Category:"), " ", "_")
		if seen[name] {
			return
		}
		seen[name] = true
		hidden := a.ParentsFiltered("#mw-hidden-catlinks").Length() > 0
		id.Categories = append(id.Categories, fmt.Sprintf("%s/%v", name, hidden))
	})
	return id, nil
}

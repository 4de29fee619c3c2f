// Package text reads the article text of a Wikipedia page and compares
// texts by their words. It gives the crawl its prose link scope (the
// article's own prose and lists, in document order, with the links in it)
// and every page its relevance to a topic: words are lower-cased, English
// stop words dropped and the rest stemmed (Snowball English), and texts are
// compared as term vectors by cosine similarity.
package text

import (
	"bytes"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Piece is one run of article text, or one link with its anchor text.
// Every tag is a word boundary, so words never span two pieces.
type Piece struct {
	Text    string // the text, or the link's anchor text
	Href    string // the link's href as written; "" for text
	Link    bool
	Heading bool // text of a section heading (h2–h6)
}

// Article is the prose of a page in document order.
type Article struct {
	Pieces []Piece
}

// dropped are the parts of the parser output that are not the article's
// own prose: references and citations, navigation boxes and sidebars,
// authority control, hatnotes, metadata and maintenance boxes, infoboxes
// and every other table, edit links, the table of contents, and what is
// never text (styles, scripts). They are selected by class and structure,
// never by a skin's heading markup, so both the 2017 skin and today's
// pages (Parsoid included) read the same way.
var dropped = cascadia.MustCompile(`
	.reflist, .references, .mw-references-wrap, cite, sup.reference, .mw-cite-backlink,
	.navbox, .vertical-navbox, .navbox-styles, .sidebar, .authority-control,
	.hatnote, .dablink, .rellink, .metadata, .ambox, .mbox-small, .ombox, .tmbox,
	.portal, .noprint, .navbar, .mw-editsection, .toc, #toc, .shortdescription,
	.mw-empty-elt, table, style, script, noscript, link, meta`)

// Parse reads a page's article: the prose inside #mw-content-text's parser
// output, from its first paragraph on, without the parts listed in
// dropped. A page with no parser output has no article.
func Parse(page []byte) *Article {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if err != nil { // only a failing reader errs; ours cannot
		return &Article{}
	}
	root := doc.Find("#mw-content-text .mw-parser-output").First()
	if root.Length() == 0 {
		root = doc.Find("#mw-content-text").First()
	}
	a := &Article{}
	if root.Length() > 0 {
		w := walker{a: a}
		w.walk(root.Get(0))
	}
	return a
}

// walker turns the parser output into pieces.
type walker struct {
	a       *Article
	started bool // the first paragraph has begun
	heading int  // open h2–h6 elements
}

func (w *walker) walk(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if w.started {
				w.a.Pieces = append(w.a.Pieces, Piece{Text: c.Data, Heading: w.heading > 0})
			}
		case html.ElementNode:
			if dropped.Match(c) {
				continue
			}
			if c.DataAtom == atom.P {
				w.started = true
			}
			if c.DataAtom == atom.A && w.started {
				w.a.Pieces = append(w.a.Pieces, Piece{Text: innerText(c), Href: attr(c, "href"), Link: true})
				continue
			}
			h := IsHeading(c.DataAtom)
			if h {
				w.heading++
			}
			w.walk(c)
			if h {
				w.heading--
			}
		}
	}
}

// IsHeading reports whether a is a section heading's element (h2–h6).
func IsHeading(a atom.Atom) bool {
	switch a {
	case atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// innerText is the text inside n, dropped parts left out.
func innerText(n *html.Node) string {
	var b []byte
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b = append(b, c.Data...)
			case c.Type == html.ElementNode && !dropped.Match(c):
				rec(c)
			}
		}
	}
	rec(n)
	return string(b)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

// Text returns the article as plain text: its pieces, anchors included,
// separated by spaces.
func (a *Article) Text() string {
	var b []byte
	for i, p := range a.Pieces {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, p.Text...)
	}
	return string(b)
}

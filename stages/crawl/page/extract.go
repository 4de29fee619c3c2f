package page

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/topicrank/topicrank/stages/text"
)

// Version identifies how this code reads a page. A Document keeps the
// Version that made it, and the crawl reuses a stored one for an
// unchanged page (a 304, a resumed run) only when it is this one: after
// an upgrade that reads pages differently, each page is fetched whole
// and read again once, so no night mixes two readings. Raise it whenever
// Extract gives another Document for the same page and settings (other
// links, weights, features, relevance); TestVersionPinsExtraction fails
// until it is raised.
const Version = 1

// Extractor holds the settings a page is read with. The Document it
// gives depends on nothing else but the code (Version), so a stored one
// can stand in for a fetch of an unchanged page.
type Extractor struct {
	Hosts    []string // hosts whose absolute links count as the job's own
	Scope    Scope
	Topics   Topics      // for the weighted strategy's word distances
	Topic    *text.Topic // for relevance and the similarity strategy; nil: none
	Strategy Strategy
	KeepText bool // fill in Document.Text
	// Feedback fills in each link's features and the page's top terms,
	// for relevance feedback, whatever the strategy.
	Feedback bool
}

// Extract reads a page: canonical key, title, structure, the article's
// relevance to the topic, and the links of the scope with the strategy's
// weights.
func (e Extractor) Extract(body []byte) Document {
	x, art := e.read(body)
	doc := Document{Version: Version, Canonical: x.canonical, Title: trimTitle(x.title.String()), Structure: x.structure, Identity: ReadIdentity(body)}
	var page text.Vector
	var prose string
	if art != nil {
		prose = art.Text()
		if e.KeepText {
			doc.Text = prose
		}
		page = text.Terms(prose)
		if !e.Topic.Empty() {
			judged := text.Page{Title: doc.Title, Article: art, Categories: visible(doc.Categories)}
			doc.Evidence, doc.Matched = e.Topic.Evidence(judged), e.Topic.Matched(judged)
			doc.Relevance = text.Shipped.Relevance(doc.Evidence)
		}
		if e.Feedback {
			doc.Terms = pageTerms(page)
		}
	}
	doc.Links, doc.Features, doc.Sections = e.weigh(x, page, doc.Relevance)
	doc.Content = contentDigest(doc, prose)
	return doc
}

// Judged returns what the relevance judge reads of a page (its title,
// article and visible categories), as Extract reads them: for fitting
// the judge (cmd/fitjudge) to pages judged against many topics at once.
func (e Extractor) Judged(body []byte) text.Page {
	e.Scope = ScopeProse
	x, art := e.read(body)
	return text.Page{Title: trimTitle(x.title.String()), Article: art, Categories: visible(ReadIdentity(body).Categories)}
}

// read scans the page once: the extractor gets its canonical, title,
// structure and links, and the article (nil if nothing needs it) its
// pieces.
func (e Extractor) read(body []byte) (*extractor, *text.Article) {
	x := &extractor{hosts: e.Hosts, scope: e.Scope, topics: e.Topics, seen: map[string]bool{}}
	x.keepWords = e.Strategy == StrategySimilarity || e.Strategy == StrategyLearned || e.Feedback
	x.readNav = e.Strategy == StrategyLearned && !e.Topics.Empty()
	x.noLinks = e.Scope == ScopeProse // the prose scope takes its links from the article
	art := parseArticle(body, x)      // its text is the content a change is measured on
	x.noLinks = false
	if e.Scope == ScopeProse {
		x.runArticle(art)
	}
	return x, art
}

// runArticle feeds the article's pieces to the extractor: links that
// count are one word each, other anchors are plain text.
func (x *extractor) runArticle(a *text.Article) {
	x.started, x.section = true, ""
	for _, p := range a.Pieces {
		if p.Heading && !x.inHeading {
			x.section = "" // a new section
		}
		x.inHeading = p.Heading
		key, ok := "", false
		if p.Link {
			key, ok = ArticleKey(p.Href, x.hosts)
		}
		if !ok {
			x.text([]byte(p.Text))
			continue
		}
		x.inAnchor, x.anchor, x.anchorKey = true, append(x.anchor[:0], p.Text...), key
		x.closeAnchor()
	}
}

// contentDigest identifies what the pipeline reads of a page: its title,
// article text, links in scope and categories (sha256, hex). Wikipedia's
// pages carry a request id, timings and parser-cache stamps that differ
// on every view: a change is a change of this, never of the bytes.
func contentDigest(doc Document, text string) string {
	h := sha256.New()
	field := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	field(doc.Title)
	field(text)
	for _, l := range doc.Links {
		field(l.Key)
	}
	for _, c := range doc.Categories {
		field(c.Name)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ContentHashPrefix marks a content hash made from contentDigest
// (crawl.Page.ContentHash), as opposed to the sha256 of the bytes that
// versions before it stored and published.
const ContentHashPrefix = "a1:"

// ContentChanged reports whether two content hashes differ, and whether
// they can be compared at all: both made the same way. A stored or
// published hash of the bytes against one of the content is not a
// change, so the first run after an upgrade reports none.
func ContentChanged(old, new string) (changed, known bool) {
	if old == "" || new == "" || strings.HasPrefix(old, ContentHashPrefix) != strings.HasPrefix(new, ContentHashPrefix) {
		return false, false
	}
	return old != new, true
}

// visible returns the names of the categories a reader sees: hidden
// (maintenance) ones left out.
func visible(cs []Category) []string {
	var names []string
	for _, c := range cs {
		if c.Hidden == nil || !*c.Hidden {
			names = append(names, c.Name)
		}
	}
	return names
}

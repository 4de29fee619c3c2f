package page

import (
	"github.com/topicrank/topicrank/stages/text"
)

// Extractor holds the settings a page is read with. The Document it
// gives depends on nothing else, so a stored one can stand in for a
// fetch of an unchanged page.
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
	doc := Document{Canonical: x.canonical, Title: trimTitle(x.title.String()), Structure: x.structure, Identity: ReadIdentity(body)}
	var page text.Vector
	if art != nil {
		body := art.Text()
		if e.KeepText {
			doc.Text = body
		}
		page = text.Terms(body)
		if !e.Topic.Empty() {
			doc.Evidence = e.Topic.Evidence(text.Page{Title: doc.Title, Article: art, Categories: visible(doc.Categories)})
			doc.Relevance = text.Shipped.Relevance(doc.Evidence)
		}
		if e.Feedback {
			doc.Terms = pageTerms(page)
		}
	}
	doc.Links, doc.Features, doc.Sections = e.weigh(x, page, doc.Relevance)
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
	x.noLinks = e.Scope == ScopeProse // the prose scope takes its links from the article
	var art *text.Article
	if e.Scope == ScopeProse || !e.Topic.Empty() || e.Strategy == StrategyWordRank || e.KeepText {
		art = parseArticle(body, x)
	} else {
		x.run(body)
	}
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

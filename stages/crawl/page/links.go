package page

import (
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/topicrank/topicrank/stages/text"
)

// Scope selects which part of a page links are taken from.
type Scope int

const (
	// ScopeBody takes links from the first <p> inside #mw-content-text to
	// the end of the parser output: the article body, without the sidebar,
	// header and footer.
	ScopeBody Scope = iota
	// ScopeLegacy takes every link after the page's first <p>, as the
	// reference assignment did (Main_Page then links from every page).
	ScopeLegacy
	// ScopeProse takes the links of the article's own prose and lists
	// (text.Parse): ScopeBody without references, navigation boxes,
	// hatnotes, metadata boxes and tables. Jobs use it by default.
	ScopeProse
)

// ParseScope returns the scope a jobs.yaml name stands for.
func ParseScope(name string) (Scope, bool) {
	switch name {
	case "prose":
		return ScopeProse, true
	case "body":
		return ScopeBody, true
	case "legacy":
		return ScopeLegacy, true
	}
	return 0, false
}

// Link is an article link of a page with its topic weight.
type Link struct {
	Key    string  // "/wiki/Title", normalised
	Weight float64 // DESIGN.md's link weight
}

// Document is what extraction finds in one HTML page.
type Document struct {
	Version   int    `json:",omitempty"` // the Version that read it; 0 before versions were kept
	Canonical string // key of <link rel="canonical">, "" if none
	Title     string // text of <title>
	Links     []Link // distinct article links in document order
	// Features are, for the learned strategy and relevance feedback, each
	// link's hashed features: its anchor's terms, the terms around it, its
	// title's (features.go); nil otherwise.
	Features [][]uint32 `json:",omitempty"`
	// Sections are, for the learned strategy, the hashed terms of each
	// link's section heading (features.go), kept apart from Features, which
	// relevance feedback's cosine reads; nil otherwise.
	Sections [][]uint32 `json:",omitempty"`
	// Terms are the page's most frequent terms, for relevance feedback.
	Terms []TermShare `json:",omitempty"`
	// Relevance is the judged relevance of the article to the crawl's
	// topic (text.Judge), in (0,1); 0 without a topic.
	Relevance float64 `json:",omitempty"`
	// Content is the digest of what the pipeline reads of the page (title,
	// article text, links, categories): contentDigest.
	Content string `json:",omitempty"`
	// Matched are the topic words the page holds: the words behind its
	// relevance (text.Topic.Matched).
	Matched []string `json:",omitempty"`
	// Evidence is what the relevance was judged from; zero without a topic.
	Evidence text.Evidence `json:",omitempty"`
	// Structure hashes the sequence of element names: it changes when
	// elements are added, removed or moved, not when only text changes.
	Structure uint64
	// Text is the article's text (stages/text), kept when the crawl is
	// asked to (Extractor.KeepText): for the search index and near-duplicates.
	Text string `json:",omitempty"`
	// Identity is the page's id, revision, Wikidata item and categories,
	// as the page says them (identity.go).
	Identity
}

// maxDistance is the largest word distance that still gives a weight.
const maxDistance = 20

// Extract parses an HTML page and returns its canonical key, title and
// article links weighted by DESIGN.md's heuristic (the weighted strategy).
// hosts are the hosts whose absolute links count as the job's own.
func Extract(body []byte, hosts []string, scope Scope, topics Topics) Document {
	return Extractor{Hosts: hosts, Scope: scope, Topics: topics, Strategy: StrategyWeighted}.Extract(body)
}

// occurrence is a link's first occurrence: its word position, its anchor
// text (folded) and whether the anchor or the URL names a topic.
type occurrence struct {
	key     string
	pos     int
	anchor  string
	named   bool
	section string // the heading of the section it sits in; "" in the lead
}

type extractor struct {
	hosts  []string
	scope  Scope
	topics Topics
	// noLinks: this pass reads only the canonical link, title and
	// structure (the prose scope takes links and words from the article).
	noLinks bool
	// keepWords: record every word (and anchor) in words, for strategies
	// that look at a link's context.
	keepWords bool
	words     []string

	canonical string
	structure uint64
	title     strings.Builder
	inTitle   bool
	skip      int // depth inside <script>, <style>, <noscript>

	// Scope tracking by <div> depth.
	divDepth     int
	contentDepth int  // depth of #mw-content-text, 0 outside
	outputDepth  int  // depth of .mw-parser-output, 0 if not seen
	started      bool // first <p> seen in scope
	ended        bool // the parser output is closed

	// Words. pos counts words; recent holds the last few, lower-cased, for
	// phrase matching; hits are [start, end] word spans of topic phrases.
	pos    int
	recent [][]byte
	hits   [][2]int

	// section is the text of the latest section heading (for the learned
	// strategy's features), its first maxHeading bytes; inHeading: its
	// text is being read.
	section   string
	inHeading bool

	inAnchor  bool   // reading the text of a counted link
	anchor    []byte // its text so far
	anchorKey string
	fold      []byte // scratch for foldText
	links     []occurrence
	seen      map[string]bool

	// readNav: follow navigation boxes (navbox.go), for the learned
	// strategy.
	readNav bool
	nav     navboxes
}

// maxHeading bounds the bytes of a section heading kept: a heading is a
// few words, and a page could make one of megabytes.
const maxHeading = 200

// attrFunc returns the values of up to two attributes of the current tag.
type attrFunc func(k1, k2 string) (v1, v2 string)

func (x *extractor) start(a atom.Atom, attrs attrFunc, selfClosing bool) {
	x.structure = (x.structure ^ uint64(a)) * 1099511628211 // FNV-1a over element names
	switch a {
	case atom.Script, atom.Style, atom.Noscript:
		if !selfClosing {
			x.skip++
		}
	case atom.Title:
		x.inTitle = x.title.Len() == 0
	case atom.Link:
		if rel, href := attrs("rel", "href"); rel == "canonical" {
			// A redirect to a section names the article plus a fragment.
			href, _, _ = strings.Cut(href, "#")
			x.canonical, _ = ArticleKey(href, x.hosts)
		}
	case atom.Div:
		x.divDepth++
		id, class := attrs("id", "class")
		if x.readNav {
			x.nav.div(class, x.divDepth)
		}
		if id == "mw-content-text" && x.contentDepth == 0 {
			x.contentDepth = x.divDepth
		} else if x.contentDepth > 0 && x.outputDepth == 0 && hasClass(class, "mw-parser-output") {
			x.outputDepth = x.divDepth
		}
	case atom.P:
		if !x.noLinks && (x.scope == ScopeLegacy || x.contentDepth > 0) {
			x.started = true
		}
	case atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if x.started && !x.noLinks {
			x.inHeading, x.section = true, ""
		}
	case atom.Span:
		if x.inHeading {
			// The 2017 skin's edit link sits inside the heading.
			if class, _ := attrs("class", ""); hasClass(class, "mw-editsection") {
				x.inHeading = false
			}
		}
	case atom.Table, atom.Tr, atom.Th, atom.Td:
		if x.readNav {
			x.navStart(a, attrs)
		}
	case atom.A:
		x.closeAnchor()
		href, _ := attrs("href", "")
		if x.readNav && x.nav.depth > 0 {
			if key, ok := ArticleKey(href, x.hosts); ok {
				x.nav.link(key)
			}
		}
		if !x.started || x.ended {
			return
		}
		if key, ok := ArticleKey(href, x.hosts); ok {
			x.inAnchor, x.anchor, x.anchorKey = true, x.anchor[:0], key
		}
	}
}

func (x *extractor) end(a atom.Atom) {
	switch a {
	case atom.Script, atom.Style, atom.Noscript:
		if x.skip > 0 {
			x.skip--
		}
	case atom.Title:
		x.inTitle = false
	case atom.A:
		x.closeAnchor()
	case atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		x.inHeading = false
	case atom.Table, atom.Th:
		if x.readNav {
			x.navEnd(a)
		}
	case atom.Div:
		if x.readNav {
			x.nav.endDiv(x.divDepth)
		}
		if x.scope == ScopeBody && x.started && (x.divDepth == x.outputDepth || x.divDepth == x.contentDepth) {
			x.ended = true
		}
		if x.divDepth == x.outputDepth {
			x.outputDepth = 0
		}
		if x.divDepth == x.contentDepth {
			x.contentDepth = 0
		}
		x.divDepth--
	}
}

func (x *extractor) text(b []byte) {
	if x.skip > 0 {
		return
	}
	if x.readNav {
		x.nav.text(b)
	}
	if x.inTitle {
		x.title.Write(b)
		return
	}
	if x.inAnchor {
		x.anchor = append(x.anchor, b...)
		return
	}
	if x.inHeading && len(x.section) < maxHeading {
		x.section += string(b[:min(len(b), maxHeading-len(x.section))])
	}
	if x.noLinks {
		return // the words are read from the article
	}
	if !x.topics.Empty() || x.keepWords { // else words do not matter
		text.ForEachWord(b, x.word)
	}
}

// word records one lower-cased word of the page text and the topic phrases
// that end at it.
func (x *extractor) word(w []byte) {
	if x.keepWords {
		x.words = append(x.words, string(w))
	}
	if x.topics.Empty() {
		x.pos++
		return
	}
	if len(x.recent) == x.topics.longest {
		first := x.recent[0]
		copy(x.recent, x.recent[1:])
		x.recent[len(x.recent)-1] = append(first[:0], w...)
	} else {
		x.recent = append(x.recent, append([]byte(nil), w...))
	}
	for _, ph := range x.topics.phrases {
		if endsWith(x.recent, ph) {
			x.hits = append(x.hits, [2]int{x.pos - len(ph) + 1, x.pos})
		}
	}
	x.pos++
}

// closeAnchor ends the counted link being read: its anchor is one word.
func (x *extractor) closeAnchor() {
	if !x.inAnchor {
		return
	}
	x.inAnchor = false
	key := x.anchorKey
	x.fold = text.Fold(x.fold[:0], x.anchor)
	anchor := string(x.fold)
	inAnchor := x.topics.containedIn(anchor) // the anchor text contains a topic
	if inAnchor {
		x.hits = append(x.hits, [2]int{x.pos, x.pos})
	}
	if x.keepWords {
		x.words = append(x.words, anchor)
	}
	if !x.seen[key] {
		x.seen[key] = true
		named := inAnchor
		if !named && !x.topics.Empty() {
			x.fold = text.Fold(x.fold[:0], []byte(strings.ReplaceAll(key[len("/wiki/"):], "_", " ")))
			named = x.topics.containedIn(string(x.fold))
		}
		x.links = append(x.links, occurrence{key, x.pos, anchor, named, x.section})
	}
	x.recent = x.recent[:0] // an anchor breaks any phrase
	x.pos++
}

func hasClass(class, want string) bool {
	for _, c := range strings.Fields(class) {
		if c == want {
			return true
		}
	}
	return false
}

func trimTitle(s string) string { return strings.TrimSpace(s) }

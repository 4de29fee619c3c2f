package crawl

import (
	"strings"

	"golang.org/x/net/html/atom"
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
)

// Link is an article link of a page with its topic weight.
type Link struct {
	Key    string  // "/wiki/Title", normalised
	Weight float64 // DESIGN.md's link weight
}

// Document is what extraction finds in one HTML page.
type Document struct {
	Canonical string // key of <link rel="canonical">, "" if none
	Title     string // text of <title>
	Links     []Link // distinct article links in document order
	// Structure hashes the sequence of element names: it changes when
	// elements are added, removed or moved, not when only text changes.
	Structure uint64
}

// maxDistance is the largest word distance that still gives a weight.
const maxDistance = 20

// Extract parses an HTML page and returns its canonical key, title and
// weighted article links. hosts are the hosts whose absolute links count as
// the job's own.
func Extract(body []byte, hosts []string, scope Scope, topics Topics) Document {
	x := extractor{hosts: hosts, scope: scope, topics: topics, seen: map[string]bool{}}
	x.run(body)
	return Document{Canonical: x.canonical, Title: trimTitle(x.title.String()), Links: x.weigh(), Structure: x.structure}
}

// occurrence is a link's first occurrence: its word position and whether
// its anchor text or URL names a topic.
type occurrence struct {
	key   string
	pos   int
	named bool
}

type extractor struct {
	hosts  []string
	scope  Scope
	topics Topics

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

	inAnchor  bool   // reading the text of a counted link
	anchor    []byte // its text so far
	anchorKey string
	fold      []byte // scratch for foldText
	links     []occurrence
	seen      map[string]bool
}

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
		if id == "mw-content-text" && x.contentDepth == 0 {
			x.contentDepth = x.divDepth
		} else if x.contentDepth > 0 && x.outputDepth == 0 && hasClass(class, "mw-parser-output") {
			x.outputDepth = x.divDepth
		}
	case atom.P:
		if x.scope == ScopeLegacy || x.contentDepth > 0 {
			x.started = true
		}
	case atom.A:
		x.closeAnchor()
		if !x.started || x.ended {
			return
		}
		href, _ := attrs("href", "")
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
	case atom.Div:
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
	if x.inTitle {
		x.title.Write(b)
		return
	}
	if x.inAnchor {
		x.anchor = append(x.anchor, b...)
		return
	}
	if !x.topics.Empty() { // without topics every weight is 0: words do not matter
		forEachWord(b, x.word)
	}
}

// word records one lower-cased word of the page text and the topic phrases
// that end at it.
func (x *extractor) word(w []byte) {
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
	inAnchor := false // the anchor text contains a topic
	if !x.topics.Empty() {
		x.fold = foldText(x.fold[:0], x.anchor)
		inAnchor = x.topics.containedIn(string(x.fold))
		if inAnchor {
			x.hits = append(x.hits, [2]int{x.pos, x.pos})
		}
	}
	if !x.seen[key] {
		x.seen[key] = true
		named := inAnchor
		if !named && !x.topics.Empty() {
			x.fold = foldText(x.fold[:0], []byte(strings.ReplaceAll(key[len("/wiki/"):], "_", " ")))
			named = x.topics.containedIn(string(x.fold))
		}
		x.links = append(x.links, occurrence{key, x.pos, named})
	}
	x.recent = x.recent[:0] // an anchor breaks any phrase
	x.pos++
}

// weigh turns link occurrences into weighted links.
func (x *extractor) weigh() []Link {
	links := make([]Link, len(x.links))
	for i, o := range x.links {
		links[i] = Link{Key: o.key, Weight: x.weight(o)}
	}
	return links
}

func (x *extractor) weight(o occurrence) float64 {
	if x.topics.Empty() {
		return 0
	}
	if o.named {
		return 1
	}
	d := -1
	for _, h := range x.hits {
		var dist int
		switch {
		case h[1] < o.pos:
			dist = o.pos - h[1] - 1
		case h[0] > o.pos:
			dist = h[0] - o.pos - 1
		default:
			continue
		}
		if d < 0 || dist < d {
			d = dist
		}
	}
	if d < 0 || d > maxDistance {
		return 0
	}
	return 1 / float64(d+2)
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

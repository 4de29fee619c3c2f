package page

import (
	"bytes"

	"github.com/topicrank/topicrank/stages/text"

	"golang.org/x/net/html/atom"
)

// parseArticle reads a page's article prose as text.Parse does, in one
// pass of the scanner over well-formed markup, with no document tree:
// text.Parse's full HTML parse was most of a crawl's CPU and garbage.
// The pass keeps a stack of open elements and follows text.Parse's walk
// as the tags go by. Where a browser's tree building would do more than
// push and pop (an end tag that does not close the element on top, a
// paragraph closed by a block, content a table would move out, markup
// breaking out of MathML or SVG), the page is handed to text.Parse
// instead: the result is always text.Parse's (TestParseArticleMatchesTree
// checks the fast pass against it on every page of the corpora).
//
// The same pass feeds x (if not nil) every token, as x.run would: a page
// is scanned once for its links and its article.
func parseArticle(body []byte, x *extractor) *text.Article {
	if a, why := streamArticle(body, x); why == "" {
		return a
	}
	return text.Parse(body)
}

type openElement struct {
	atom    atom.Atom
	name    []byte // for elements without an atom
	p, a    bool   // a <p> (an <a>) is this element or open below it
	content bool   // its id is mw-content-text
}

// streamArticle is the one-pass reading; why says what it met that needs
// a tree builder, "" if nothing. x, if not nil, is fed every token
// either way.
func streamArticle(body []byte, x *extractor) (a *text.Article, why string) {
	r := articleReader{s: scanner{b: body}}
	if bytes.IndexByte(body, 0) >= 0 || bytes.IndexByte(body, '\r') >= 0 {
		why = "NUL or CR" // characters the tokenizer replaces
	} else {
		a, why = r.read(x)
	}
	if why != "" && x != nil {
		for x.token(r.s.next(), &r.s) {
		}
	}
	return a, why
}

// articleReader is streamArticle's pass: the scanner, the stack of open
// elements, and the two candidate walks.
type articleReader struct {
	s        scanner
	stack    []openElement
	contents int // open #mw-content-text elements
	foreign  int // open math and svg elements
	bodies   int // <head> and <body> start tags seen
	fallback articleWalk
	output   articleWalk
	text     []byte // text not yet given to the walk: consecutive text tokens make one text node
	preNL    bool   // the next text follows a <pre> start tag
}

// walk is the walk that counts: the .mw-parser-output one once it has
// begun.
func (r *articleReader) walk() *articleWalk {
	if r.output.root > 0 {
		return &r.output
	}
	return &r.fallback
}

func (r *articleReader) read(x *extractor) (*text.Article, string) {
	for {
		tok := r.s.next()
		if x != nil {
			x.token(tok, &r.s)
		}
		if tok != tokText || r.s.skipped {
			r.flush()
		}
		why := ""
		switch tok {
		case tokEOF:
			w := r.walk()
			w.endAnchor()
			return &text.Article{Pieces: w.pieces}, ""
		case tokText:
			why = r.onText()
		case tokStart:
			why = r.onStart()
		case tokEnd:
			why = r.onEnd()
		}
		if why != "" {
			return nil, why
		}
	}
}

// flush gives the walk the text gathered since the last tag.
func (r *articleReader) flush() {
	if len(r.text) > 0 {
		r.walk().text(r.text, len(r.stack))
		r.text = r.text[:0]
	}
}

func (r *articleReader) onText() string {
	s := &r.s
	t := s.text
	if len(t) == 1 && t[0] == '<' && s.i < len(s.b) && s.b[s.i] == '/' {
		return "</ without a name" // a bogus comment to a browser
	}
	if r.preNL && !s.skipped && len(t) > 0 && t[0] == '\n' {
		t = t[1:] // a newline right after <pre> is dropped
	}
	r.preNL = false
	if !canHoldText(r.stack) && len(bytes.Trim(t, " \t\n\f")) > 0 {
		return "text outside the body, or in a table" // moved elsewhere by the tree builder
	}
	r.text = append(r.text, t...)
	return ""
}

func (r *articleReader) onStart() string {
	s := &r.s
	r.preNL = false
	el := openElement{atom: s.atom, name: s.tagName}
	if !canPush(r.stack, el.atom, r.foreign > 0, r.bodies) {
		return "<" + string(s.tagName) + "> does more than open"
	}
	void := isVoid(el.atom) || r.foreign > 0 && s.selfClosing
	id, class, ok := firstAttrs(s.attrs)
	if !ok {
		return "a character reference in id or class"
	}
	href := ""
	if el.atom == atom.A {
		if href, ok = hrefAttr(s.attrs); !ok {
			return "a character reference without ';' in href"
		}
	}
	depth := len(r.stack) + 1
	el.content = !void && string(id) == "mw-content-text"
	if el.content && r.fallback.root == 0 {
		r.fallback.root = depth
	}
	r.walk().start(el.atom, id, class, href, depth, void)
	if r.contents > 0 && r.output.root == 0 && !void && hasClassBytes(class, "mw-parser-output") {
		r.output.root = depth // from here on only this walk counts
	}
	if void {
		return ""
	}
	r.push(el)
	return ""
}

func (r *articleReader) push(el openElement) {
	if el.atom == atom.Math || el.atom == atom.Svg {
		r.foreign++
	}
	if el.atom == atom.Head || el.atom == atom.Body {
		r.bodies++
	}
	if el.content {
		r.contents++
	}
	if top := len(r.stack) - 1; top >= 0 {
		el.p, el.a = r.stack[top].p, r.stack[top].a
	}
	el.p = el.p || el.atom == atom.P
	el.a = el.a || el.atom == atom.A
	r.stack = append(r.stack, el)
	r.preNL = el.atom == atom.Pre || el.atom == atom.Listing || el.atom == atom.Textarea
}

func (r *articleReader) onEnd() string {
	s := &r.s
	r.preNL = false
	top := len(r.stack) - 1
	if isVoid(s.atom) && s.atom != atom.Br {
		return "" // a browser ignores it
	}
	if top < 0 || !sameElement(r.stack[top], s.atom, s.tagName) {
		return "</" + string(s.tagName) + "> does not close the element on top"
	}
	r.walk().end(len(r.stack))
	if el := r.stack[top]; el.atom == atom.Math || el.atom == atom.Svg {
		r.foreign--
	}
	if r.stack[top].content {
		r.contents--
	}
	r.stack = r.stack[:top]
	return ""
}

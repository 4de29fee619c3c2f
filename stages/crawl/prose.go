package crawl

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

// An article walk follows one candidate root: the first #mw-content-text
// (text.Parse's fallback), or the first .mw-parser-output inside one,
// which wins if there is one.
type articleWalk struct {
	root    int // stack depth of the root; 0 until it opens
	closed  bool
	started bool // the first paragraph has begun
	drop    int  // depth of the dropped element being skipped; 0 none
	anchor  int  // depth of the link whose text is being gathered; 0 none
	href    string
	buf     []byte // the link's text
	pieces  []text.Piece
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
	s := scanner{b: body}
	if bytes.IndexByte(body, 0) >= 0 || bytes.IndexByte(body, '\r') >= 0 {
		why = "NUL or CR" // characters the tokenizer replaces
	} else {
		a, why = readArticle(&s, x)
	}
	if why != "" && x != nil {
		for x.token(s.next(), &s) {
		}
	}
	return a, why
}

// readArticle is streamArticle's pass over the tokens of s.
func readArticle(s *scanner, x *extractor) (a *text.Article, why string) {
	body := s.b
	var (
		stack    []openElement
		contents = 0 // open #mw-content-text elements
		fallback = &articleWalk{}
		output   = &articleWalk{}
		foreign  = 0 // open math and svg elements
		bodies   = 0 // <head> and <body> start tags seen
		pendText []byte
		pending  bool // pendText holds text not yet given to the walks
		preNL    bool // the next text follows a <pre> start tag
	)
	// Only one walk counts at a time: the .mw-parser-output one once it
	// has begun.
	walk := func() *articleWalk {
		if output.root > 0 {
			return output
		}
		return fallback
	}
	flush := func() {
		if pending {
			walk().text(pendText, len(stack))
			pending, pendText = false, pendText[:0]
		}
	}
	for {
		tok := s.next()
		if x != nil {
			x.token(tok, s)
		}
		if tok != tokText || s.skipped {
			flush()
		}
		switch tok {
		case tokEOF:
			w := walk()
			w.endAnchor()
			return &text.Article{Pieces: w.pieces}, ""
		case tokText:
			t := s.text
			if len(t) == 1 && t[0] == '<' && s.i < len(body) && body[s.i] == '/' {
				return nil, "</ without a name" // a bogus comment to a browser
			}
			if preNL && !s.skipped && len(t) > 0 && t[0] == '\n' {
				t = t[1:] // a newline right after <pre> is dropped
			}
			preNL = false
			if !canHoldText(stack) && len(bytes.Trim(t, " \t\n\f")) > 0 {
				return nil, "text outside the body, or in a table" // moved elsewhere by the tree builder
			}
			if len(t) > 0 {
				pendText, pending = append(pendText, t...), true
			}
		case tokStart:
			preNL = false
			el := openElement{atom: s.atom, name: s.tagName}
			if !canPush(stack, el.atom, foreign > 0, bodies) {
				return nil, "<" + string(s.tagName) + "> does more than open"
			}
			void := isVoid(el.atom) || foreign > 0 && s.selfClosing
			id, class, ok := firstAttrs(s.attrs)
			if !ok {
				return nil, "a character reference in id or class"
			}
			href := ""
			if el.atom == atom.A {
				if href, ok = hrefAttr(s.attrs); !ok {
					return nil, "a character reference without ';' in href"
				}
			}
			depth := len(stack) + 1
			el.content = !void && string(id) == "mw-content-text"
			if el.content && fallback.root == 0 {
				fallback.root = depth
			}
			walk().start(el.atom, id, class, href, depth, void)
			if contents > 0 && output.root == 0 && !void && hasClassBytes(class, "mw-parser-output") {
				output.root = depth // from here on only this walk counts
			}
			if void {
				continue
			}
			if el.atom == atom.Math || el.atom == atom.Svg {
				foreign++
			}
			if el.atom == atom.Head || el.atom == atom.Body {
				bodies++
			}
			if el.content {
				contents++
			}
			if top := len(stack) - 1; top >= 0 {
				el.p, el.a = stack[top].p, stack[top].a
			}
			el.p = el.p || el.atom == atom.P
			el.a = el.a || el.atom == atom.A
			stack = append(stack, el)
			preNL = el.atom == atom.Pre || el.atom == atom.Listing || el.atom == atom.Textarea
		case tokEnd:
			preNL = false
			top := len(stack) - 1
			if isVoid(s.atom) && s.atom != atom.Br {
				continue // a browser ignores it
			}
			if top < 0 || !sameElement(stack[top], s.atom, s.tagName) {
				return nil, "</" + string(s.tagName) + "> does not close the element on top"
			}
			walk().end(len(stack))
			if stack[top].content {
				contents--
			}
			if s.atom == atom.Math || s.atom == atom.Svg {
				foreign--
			}
			stack = stack[:top]
		}
	}
}

// start handles an element opening at depth (void: it will not be
// closed); href is a link's.
func (w *articleWalk) start(a atom.Atom, id, class []byte, href string, depth int, void bool) {
	if w.root == 0 || w.closed || depth <= w.root || w.drop > 0 {
		return
	}
	if isDropped(a, id, class) {
		if !void {
			w.drop = depth
		}
		return
	}
	if w.anchor > 0 {
		return
	}
	if a == atom.P {
		w.started = true
	}
	if a == atom.A && w.started && !void {
		w.anchor, w.href, w.buf = depth, href, w.buf[:0]
	}
}

// text handles text inside the element at depth.
func (w *articleWalk) text(t []byte, depth int) {
	switch {
	case w.root == 0 || w.closed || depth < w.root || w.drop > 0:
	case w.anchor > 0:
		w.buf = append(w.buf, t...)
	case w.started:
		w.pieces = append(w.pieces, text.Piece{Text: string(t)})
	}
}

// end handles the element at depth closing.
func (w *articleWalk) end(depth int) {
	switch depth {
	case w.drop:
		w.drop = 0
	case w.anchor:
		w.endAnchor()
	case w.root:
		w.endAnchor()
		w.closed = true
	}
}

func (w *articleWalk) endAnchor() {
	if w.anchor > 0 {
		w.pieces = append(w.pieces, text.Piece{Text: string(w.buf), Href: w.href, Link: true})
		w.anchor = 0
	}
}

package page

import (
	"github.com/topicrank/topicrank/stages/text"

	"golang.org/x/net/html/atom"
)

// An article walk follows one candidate root: the first #mw-content-text
// (text.Parse's fallback), or the first .mw-parser-output inside one,
// which wins if there is one.
type articleWalk struct {
	root    int // stack depth of the root; 0 until it opens
	closed  bool
	started bool // the first paragraph has begun
	drop    int  // depth of the dropped element being skipped; 0 none
	anchor  int  // depth of the link whose text is being gathered; 0 none
	heading int  // depth of the open section heading (h2–h6); 0 none
	href    string
	buf     []byte // the link's text
	pieces  []text.Piece
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
	if w.heading == 0 && !void && text.IsHeading(a) {
		w.heading = depth
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
		w.pieces = append(w.pieces, text.Piece{Text: string(t), Heading: w.heading > 0})
	}
}

// end handles the element at depth closing.
func (w *articleWalk) end(depth int) {
	if depth == w.heading {
		w.heading = 0
	}
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

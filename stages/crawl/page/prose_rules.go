package page

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// The rules below decide when streamArticle can keep its stack by pushing
// and popping alone. They are the HTML tree builder's (WHATWG HTML,
// "tree construction") cases that would do otherwise, taken broadly: a
// page that meets one goes to the full parser, which is never wrong, only
// slower.

// canPush reports whether a start tag opens an element on top of stack
// and nothing else happens to the stack. The document must be spelled
// out: <html>, then <head> holding only what a head holds, then <body>
// (seen counts the <head> and <body> tags so far).
func canPush(stack []openElement, a atom.Atom, foreign bool, seen int) bool {
	var top openElement
	if len(stack) > 0 {
		top = stack[len(stack)-1]
	}
	switch {
	case len(stack) == 0:
		return a == atom.Html && seen == 0
	case top.atom == atom.Html:
		return a == atom.Head && seen == 0 || a == atom.Body && seen <= 1
	case top.atom == atom.Head:
		switch a {
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Title, atom.Noscript,
			atom.Noframes, atom.Style, atom.Script:
			return true
		}
		return false
	case foreign:
		return !breaksForeign(a)
	}
	if isTableContext(top.atom) {
		switch a {
		case atom.Caption, atom.Colgroup, atom.Col, atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr, atom.Style, atom.Script:
			return a != atom.Tr || top.atom != atom.Tr
		case atom.Td, atom.Th:
			return top.atom == atom.Tr
		}
		return false // moved out before the table (foster parenting)
	}
	switch a {
	case atom.Html, atom.Head, atom.Body:
		return false
	case atom.Caption, atom.Colgroup, atom.Col, atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr, atom.Td, atom.Th,
		atom.Frameset, atom.Frame, atom.Template, atom.Image, atom.Plaintext, atom.Select, atom.Option, atom.Optgroup,
		atom.Nobr, atom.Rb, atom.Rp, atom.Rt, atom.Rtc, atom.Marquee, atom.Object, atom.Applet,
		atom.Keygen, atom.Menuitem:
		return false // ignored, renamed, or scoped by the tree builder
	case atom.Form, atom.Button:
		for _, e := range stack {
			if e.atom == a {
				return false // a form in a form is ignored; a button closes the open one
			}
		}
	case atom.A:
		return !top.a // a link inside a link closes the first
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if isHeading(top.atom) {
			return false
		}
	case atom.Li, atom.Dd, atom.Dt:
	items:
		for i := len(stack) - 1; i >= 0; i-- {
			switch e := stack[i].atom; {
			case e == atom.Li && a == atom.Li, (e == atom.Dd || e == atom.Dt) && a != atom.Li:
				return false // closes the open item
			case isSpecial(e) && e != atom.Address && e != atom.Div && e != atom.P:
				break items
			}
		}
	}
	return !(top.p && closesP(a))
}

// canHoldText reports whether text other than blanks stays where it is
// in the element on top of stack: not before the body, not in a table
// outside its cells (a table moves it out before itself).
func canHoldText(stack []openElement) bool {
	if len(stack) == 0 {
		return false
	}
	top := stack[len(stack)-1].atom
	return top != atom.Html && top != atom.Head && !isTableContext(top)
}

func isTableContext(a atom.Atom) bool {
	switch a {
	case atom.Table, atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr:
		return true
	}
	return false
}

func isHeading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// closesP lists the start tags that close an open <p>.
func closesP(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details, atom.Dialog,
		atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Form,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Header, atom.Hgroup, atom.Hr, atom.Li,
		atom.Listing, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Plaintext, atom.Pre, atom.Search,
		atom.Section, atom.Summary, atom.Table, atom.Ul, atom.Xmp, atom.Dd, atom.Dt:
		return true
	}
	return false
}

// isSpecial is the tree builder's "special" category (HTML elements).
func isSpecial(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Applet, atom.Area, atom.Article, atom.Aside, atom.Base, atom.Basefont,
		atom.Bgsound, atom.Blockquote, atom.Body, atom.Br, atom.Button, atom.Caption, atom.Center, atom.Col,
		atom.Colgroup, atom.Dd, atom.Details, atom.Dir, atom.Div, atom.Dl, atom.Dt, atom.Embed, atom.Fieldset,
		atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.Frame, atom.Frameset, atom.H1, atom.H2,
		atom.H3, atom.H4, atom.H5, atom.H6, atom.Head, atom.Header, atom.Hgroup, atom.Hr, atom.Html,
		atom.Iframe, atom.Img, atom.Input, atom.Keygen, atom.Li, atom.Link, atom.Listing, atom.Main,
		atom.Marquee, atom.Menu, atom.Meta, atom.Nav, atom.Noembed, atom.Noframes, atom.Noscript, atom.Object,
		atom.Ol, atom.P, atom.Param, atom.Plaintext, atom.Pre, atom.Script, atom.Search, atom.Section,
		atom.Select, atom.Source, atom.Style, atom.Summary, atom.Table, atom.Tbody, atom.Td, atom.Template,
		atom.Textarea, atom.Tfoot, atom.Th, atom.Thead, atom.Title, atom.Tr, atom.Track, atom.Ul, atom.Wbr,
		atom.Xmp:
		return true
	}
	return false
}

// breaksForeign lists the start tags that end MathML or SVG content.
func breaksForeign(a atom.Atom) bool {
	switch a {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br, atom.Center, atom.Code, atom.Dd, atom.Div,
		atom.Dl, atom.Dt, atom.Em, atom.Embed, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Head, atom.Hr, atom.I, atom.Img, atom.Li, atom.Listing, atom.Menu, atom.Meta, atom.Nobr,
		atom.Ol, atom.P, atom.Pre, atom.Ruby, atom.S, atom.Small, atom.Span, atom.Strong, atom.Strike,
		atom.Sub, atom.Sup, atom.Table, atom.Tt, atom.U, atom.Ul, atom.Var, atom.Font:
		return true
	}
	return false
}

func isVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input, atom.Keygen,
		atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr, atom.Basefont, atom.Bgsound,
		atom.Frame:
		return true
	}
	return false
}

// sameElement reports whether an end tag names the open element e.
func sameElement(e openElement, a atom.Atom, name []byte) bool {
	if a != 0 || e.atom != 0 {
		return a == e.atom
	}
	return bytes.EqualFold(e.name, name)
}

// firstAttrs returns the tag's id and class, the first of each as the
// tree builder keeps them, decoded; ok is false if one needs the tree
// builder's decoding (see decodeAttr).
func firstAttrs(attrs [][2][]byte) (id, class []byte, ok bool) {
	var seenID, seenClass bool
	for _, a := range attrs {
		var v *[]byte
		switch {
		case !seenID && bytes.EqualFold(a[0], []byte("id")):
			v, seenID = &id, true
		case !seenClass && bytes.EqualFold(a[0], []byte("class")):
			v, seenClass = &class, true
		default:
			continue
		}
		*v = a[1]
		if bytes.IndexByte(a[1], '&') >= 0 {
			s, ok := decodeAttr(a[1])
			if !ok {
				return nil, nil, false
			}
			*v = []byte(s)
		}
	}
	return id, class, true
}

// hrefAttr returns the first href, decoded; ok is false if it needs the
// tree builder's decoding.
func hrefAttr(attrs [][2][]byte) (href string, ok bool) {
	for _, a := range attrs {
		if bytes.EqualFold(a[0], []byte("href")) {
			return decodeAttr(a[1])
		}
	}
	return "", true
}

// decodeAttr decodes an attribute value's character references. One
// without its ';' decodes differently in an attribute than in text (what
// unescape does), so a value holding one is left to the tree builder: ok
// is false.
func decodeAttr(v []byte) (s string, ok bool) {
	for rest := v; ; {
		i := bytes.IndexByte(rest, '&')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		j := 0
		for j < len(rest) && j < 40 && (isASCIILetter(rest[j]) || '0' <= rest[j] && rest[j] <= '9' || rest[j] == '#') {
			j++
		}
		if j > 0 && (j == len(rest) || rest[j] != ';') {
			return "", false
		}
	}
	return unescape(v), true
}

// hasClassBytes reports whether a class attribute lists want.
func hasClassBytes(class []byte, want string) bool {
	return anyClass(class, func(c []byte) bool { return string(c) == want })
}

// anyClass reports whether f holds for one of the classes a class
// attribute lists.
func anyClass(class []byte, f func(c []byte) bool) bool {
	for len(class) > 0 {
		i := 0
		for i < len(class) && isSpace(class[i]) {
			i++
		}
		j := i
		for j < len(class) && !isSpace(class[j]) {
			j++
		}
		if j > i && f(class[i:j]) {
			return true
		}
		class = class[j:]
	}
	return false
}

// droppedClasses are text.Parse's dropped selectors by class.
var droppedClasses = map[string]bool{
	"reflist": true, "references": true, "mw-references-wrap": true, "mw-cite-backlink": true,
	"navbox": true, "vertical-navbox": true, "navbox-styles": true, "sidebar": true,
	"authority-control": true, "hatnote": true, "dablink": true, "rellink": true, "metadata": true,
	"ambox": true, "mbox-small": true, "ombox": true, "tmbox": true, "portal": true, "noprint": true,
	"navbar": true, "mw-editsection": true, "toc": true, "shortdescription": true, "mw-empty-elt": true,
}

// isDropped is text.Parse's dropped selector on one element.
func isDropped(a atom.Atom, id, class []byte) bool {
	switch a {
	case atom.Cite, atom.Table, atom.Style, atom.Script, atom.Noscript, atom.Link, atom.Meta:
		return true
	}
	if string(id) == "toc" || a == atom.Sup && hasClassBytes(class, "reference") {
		return true
	}
	return anyClass(class, func(c []byte) bool { return droppedClasses[string(c)] })
}

package page

import (
	"bytes"

	"github.com/topicrank/topicrank/stages/text"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A page is parsed by a small scanner over the whole body rather than
// golang.org/x/net/html's Tokenizer: extraction needs only tag names, a few
// attributes and text, and the general tokenizer's buffering and copying
// made parsing cost more than fetching a page. scan_test.go checks that
// both give the same result on every page of the real corpus.

// run feeds the page's tags and text to the extractor.
func (x *extractor) run(body []byte) {
	s := scanner{b: body}
	for x.token(s.next(), &s) {
	}
}

// token feeds the extractor the scanner's current token, t, and reports
// whether more follow.
func (x *extractor) token(t token, s *scanner) bool {
	switch t {
	case tokEOF:
		x.closeAnchor()
		return false
	case tokText:
		x.text(s.text)
	case tokStart:
		x.start(s.atom, s.attr, s.selfClosing)
	case tokEnd:
		x.end(s.atom)
	}
	return true
}

type token int

const (
	tokEOF token = iota
	tokText
	tokStart
	tokEnd
)

// scanner splits HTML into text and tags the way browsers do for the parts
// extraction reads: comments, doctypes and processing instructions are
// skipped, quoted attribute values may hold '>', and the content of raw
// text elements (script, style, title, ...) is one text token.
type scanner struct {
	b []byte
	i int

	// The current token.
	text        []byte // tokText: decoded text
	atom        atom.Atom
	tagName     []byte // the tag's name as written
	skipped     bool   // markup was skipped (a comment, say) since the token before
	selfClosing bool
	attrs       [][2][]byte // raw name and value of each attribute
	rawEnd      atom.Atom   // set after a raw text element's start tag
	lower       [16]byte
}

func (s *scanner) next() token {
	s.skipped = false
	if s.rawEnd != 0 {
		return s.rawText()
	}
	for s.i < len(s.b) {
		if s.b[s.i] != '<' {
			end := bytes.IndexByte(s.b[s.i:], '<')
			if end < 0 {
				end = len(s.b) - s.i
			}
			s.setText(s.b[s.i : s.i+end])
			s.i += end
			return tokText
		}
		if t, ok := s.tag(); ok {
			return t
		}
		s.skipped = true
	}
	return tokEOF
}

// tag reads the markup at s.b[s.i] == '<'. ok is false for markup that is
// skipped (comments and the like); a '<' that starts no markup is text, as
// is a "</" that ends the page.
func (s *scanner) tag() (t token, ok bool) {
	rest := s.b[s.i+1:]
	switch {
	case bytes.HasPrefix(rest, []byte("!--")):
		s.i += 1 + 3 + commentLen(rest[3:])
		return 0, false
	case len(rest) > 0 && (rest[0] == '!' || rest[0] == '?'):
		s.skipPast('>')
		return 0, false
	case len(rest) > 1 && rest[0] == '/' && !isASCIILetter(rest[1]):
		// "</>" is nothing, and "</" before anything else but a letter
		// opens a bogus comment that ends at the next '>'.
		s.skipPast('>')
		return 0, false
	case len(rest) > 1 && rest[0] == '/':
		s.i += 2
		s.atom = s.name()
		// An end tag's attributes are read, and dropped, as a start tag's
		// are: a quoted '>' in one does not end the tag.
		if !s.readAttrs() {
			return tokEOF, true // a tag cut off by the end of the page is dropped
		}
		return tokEnd, true
	case len(rest) > 0 && isASCIILetter(rest[0]):
		s.i++
		s.atom = s.name()
		if !s.readAttrs() {
			return tokEOF, true
		}
		if isRawText(s.atom) && !s.selfClosing {
			s.rawEnd = s.atom
		}
		return tokStart, true
	}
	s.text = s.b[s.i : s.i+1]
	s.i++
	return tokText, true
}

// name reads a tag name and returns its atom (0 for unknown names).
func (s *scanner) name() atom.Atom {
	start := s.i
	for s.i < len(s.b) && !isSpace(s.b[s.i]) && s.b[s.i] != '/' && s.b[s.i] != '>' {
		s.i++
	}
	n := s.b[start:s.i]
	s.tagName = n
	if len(n) > len(s.lower) {
		return 0
	}
	return atom.Lookup(text.Lower(s.lower[:0], n))
}

// readAttrs reads attributes up to and past the tag's '>', and reports
// whether there was one.
func (s *scanner) readAttrs() bool {
	s.attrs, s.selfClosing = s.attrs[:0], false
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '>':
			s.i++
			return true
		case c == '/':
			s.selfClosing = s.i+1 < len(s.b) && s.b[s.i+1] == '>'
			s.i++
			continue
		case isSpace(c):
			s.i++
			continue
		}
		start := s.i
		for s.i < len(s.b) && !isSpace(s.b[s.i]) && s.b[s.i] != '/' && s.b[s.i] != '>' && (s.b[s.i] != '=' || s.i == start) {
			s.i++
		}
		name := s.b[start:s.i]
		s.skipSpace()
		var val []byte
		if s.i < len(s.b) && s.b[s.i] == '=' {
			s.i++
			s.skipSpace()
			val = s.value()
		}
		s.attrs = append(s.attrs, [2][]byte{name, val})
	}
	return false
}

// value reads an attribute value: quoted, or up to a blank or '>'.
func (s *scanner) value() []byte {
	if s.i >= len(s.b) {
		return nil
	}
	if q := s.b[s.i]; q == '"' || q == '\'' {
		end := bytes.IndexByte(s.b[s.i+1:], q)
		if end < 0 {
			v := s.b[s.i+1:]
			s.i = len(s.b)
			return v
		}
		v := s.b[s.i+1 : s.i+1+end]
		s.i += end + 2
		return v
	}
	start := s.i
	for s.i < len(s.b) && !isSpace(s.b[s.i]) && s.b[s.i] != '>' {
		s.i++
	}
	return s.b[start:s.i]
}

// attr returns the decoded values of two attributes of the current tag.
func (s *scanner) attr(k1, k2 string) (v1, v2 string) {
	for _, a := range s.attrs {
		switch {
		case bytes.EqualFold(a[0], []byte(k1)) && v1 == "":
			v1 = unescape(a[1])
		case k2 != "" && bytes.EqualFold(a[0], []byte(k2)) && v2 == "":
			v2 = unescape(a[1])
		}
	}
	return v1, v2
}

// rawText returns the content of a raw text element up to its end tag,
// then that end tag.
func (s *scanner) rawText() token {
	name := s.rawEnd.String()
	for j := s.i; ; {
		k := bytes.Index(s.b[j:], []byte("</"))
		if k < 0 {
			s.setRaw(s.b[s.i:])
			s.i, s.rawEnd = len(s.b), 0
			return tokText
		}
		j += k
		// The end tag's name must be followed by a byte that ends it; one
		// cut off by the end of the page is text, as browsers read it.
		if end := j + 2 + len(name); end < len(s.b) && bytes.EqualFold(s.b[j+2:end], []byte(name)) &&
			(isSpace(s.b[end]) || s.b[end] == '>' || s.b[end] == '/') {
			if j > s.i {
				s.setRaw(s.b[s.i:j])
				s.i = j
				return tokText
			}
			s.rawEnd = 0
			s.i = j + 2
			s.atom = s.name()
			if !s.readAttrs() {
				return tokEOF
			}
			return tokEnd
		}
		j += 2
	}
}

func (s *scanner) setText(b []byte) {
	if bytes.IndexByte(b, '&') >= 0 {
		b = []byte(html.UnescapeString(string(b)))
	}
	s.text = b
}

// setRaw sets raw text: no entities in script and style, but in title and
// textarea (RCDATA) they are decoded.
func (s *scanner) setRaw(b []byte) {
	if s.rawEnd == atom.Title || s.rawEnd == atom.Textarea {
		s.setText(b)
		return
	}
	s.text = b
}

// commentLen returns the length of a comment's body and end, as a
// browser's tokenizer finds them: "<!-->" and "<!--->" are whole empty
// comments, and "--!>" ends one as "-->" does.
func commentLen(b []byte) int {
	switch {
	case bytes.HasPrefix(b, []byte(">")):
		return 1
	case bytes.HasPrefix(b, []byte("->")):
		return 2
	}
	// One pass over the "--" in b: looking for "-->" and "--!>" apart
	// would read to the page's end for each comment lacking one of them.
	for i := 0; ; i++ {
		dash := bytes.Index(b[i:], []byte("--"))
		if dash < 0 {
			return len(b)
		}
		i += dash
		switch rest := b[i+2:]; {
		case bytes.HasPrefix(rest, []byte(">")):
			return i + 3
		case bytes.HasPrefix(rest, []byte("!>")):
			return i + 4
		}
	}
}

// skipPast moves past the next c and reports whether there was one.
func (s *scanner) skipPast(c byte) bool {
	end := bytes.IndexByte(s.b[s.i:], c)
	if end < 0 {
		s.i = len(s.b)
		return false
	}
	s.i += end + 1
	return true
}

func (s *scanner) skipSpace() {
	for s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
}

func unescape(b []byte) string {
	if bytes.IndexByte(b, '&') < 0 {
		return string(b)
	}
	return html.UnescapeString(string(b))
}

func isRawText(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Title, atom.Textarea, atom.Noscript,
		atom.Iframe, atom.Noembed, atom.Noframes, atom.Xmp, atom.Plaintext:
		return true
	}
	return false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func isASCIILetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

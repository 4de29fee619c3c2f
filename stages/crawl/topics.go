package crawl

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Topics is a compiled topic list. The zero value (no topics) gives every
// link weight 0.
type Topics struct {
	phrases [][]string // each topic as lower-case words
	raw     []string   // each topic lower-cased, blanks folded: substring form
	longest int
}

// NewTopics compiles topic words and phrases; matching is case-insensitive.
// Blank entries are ignored.
func NewTopics(topics []string) Topics {
	var t Topics
	for _, s := range topics {
		words := splitWords(strings.ToLower(s))
		if len(words) == 0 {
			continue
		}
		t.phrases = append(t.phrases, words)
		t.raw = append(t.raw, strings.Join(strings.Fields(strings.ToLower(s)), " "))
		t.longest = max(t.longest, len(words))
	}
	return t
}

// Empty reports whether there are no topics.
func (t Topics) Empty() bool { return len(t.phrases) == 0 }

// containedIn reports whether s (lower case, blanks folded) contains a topic.
func (t Topics) containedIn(s string) bool {
	for _, r := range t.raw {
		if strings.Contains(s, r) {
			return true
		}
	}
	return false
}

// endsWith reports whether the most recent words end with phrase.
func endsWith(recent [][]byte, phrase []string) bool {
	if len(recent) < len(phrase) {
		return false
	}
	off := len(recent) - len(phrase)
	for i, w := range phrase {
		if string(recent[off+i]) != w {
			return false
		}
	}
	return true
}

// forEachWord calls f with each maximal run of letters and digits in b,
// lower-cased. The slice is only valid during the call.
func forEachWord(b []byte, f func([]byte)) {
	var buf [64]byte
	start := -1
	for i := 0; i <= len(b); {
		var isWord bool
		size := 1
		switch {
		case i == len(b):
		case b[i] < utf8.RuneSelf:
			isWord = asciiWord[b[i]]
		default:
			var r rune
			r, size = utf8.DecodeRune(b[i:])
			isWord = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if isWord && start < 0 {
			start = i
		} else if !isWord && start >= 0 {
			f(lower(buf[:0], b[start:i]))
			start = -1
		}
		i += size
	}
}

// asciiWord marks the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// foldText appends s lower-cased with every run of white space made one
// space and none at either end: the form topics are matched against.
func foldText(dst, s []byte) []byte {
	space := false
	for _, f := range bytes.Fields(s) {
		if space {
			dst = append(dst, ' ')
		}
		dst = lower(dst, f)
		space = true
	}
	return dst
}

// lower appends the lower-case form of w to dst.
func lower(dst, w []byte) []byte {
	for i := 0; i < len(w); {
		c := w[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(w[i:])
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		i += size
	}
	return dst
}

// splitWords splits s the way page text is split into words.
func splitWords(s string) []string {
	var words []string
	forEachWord([]byte(s), func(w []byte) { words = append(words, string(w)) })
	return words
}

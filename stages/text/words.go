package text

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// ForEachWord calls f with each word of b, lower-cased. A word is a
// maximal run of letters and digits. The slice is only valid during the
// call.
func ForEachWord(b []byte, f func([]byte)) {
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
			f(Lower(buf[:0], b[start:i]))
			start = -1
		}
		i += size
	}
}

// Words splits s into its lower-cased words.
func Words(s string) []string {
	var words []string
	ForEachWord([]byte(s), func(w []byte) { words = append(words, string(w)) })
	return words
}

// asciiWord marks the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// Fold appends s lower-cased with every run of white space made one space
// and none at either end: the form in which topics are looked for.
func Fold(dst, s []byte) []byte {
	space := false
	for _, f := range bytes.Fields(s) {
		if space {
			dst = append(dst, ' ')
		}
		dst = Lower(dst, f)
		space = true
	}
	return dst
}

// Lower appends the lower-case form of w to dst.
func Lower(dst, w []byte) []byte {
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

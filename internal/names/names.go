// Package names keeps page names and other published strings safe to
// read: valid UTF-8 that no terminal, query or editor misreads. What cannot
// be shown as it is keeps the percent-encoding it had in its URL, so a
// name stays distinct and can be traced back.
package names

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Safe percent-encodes, byte by byte, what a page name must not hold as
// it is: bytes that are not valid UTF-8, control characters (NUL, C0, DEL,
// C1) and the characters that reorder text (bidirectional embeddings,
// overrides, isolates and marks, and the byte-order mark).
func Safe(s string) string {
	if !needs(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || unsafeRune(r) {
			for _, c := range []byte(s[i : i+size]) {
				b.WriteByte('%')
				b.WriteByte("0123456789ABCDEF"[c>>4])
				b.WriteByte("0123456789ABCDEF"[c&15])
			}
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// ValidUTF8 percent-encodes only the bytes of s that are not valid UTF-8:
// for free text (titles, messages), where line breaks may stay.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			b.WriteString("%" + string("0123456789ABCDEF"[s[i]>>4]) + string("0123456789ABCDEF"[s[i]&15]))
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needs(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
			return true
		}
	}
	return false
}

func unsafeRune(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C, r == 0xFEFF:
		return true
	}
	return false
}

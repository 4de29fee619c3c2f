package robots

import (
	"bytes"
	"strings"
)

// match reports whether pattern matches path from its start: '*' matches
// any run of octets, a final '$' the end of the path; without '$' the
// pattern need only match a prefix. It runs in O(len(pattern)·len(path))
// at worst and about linear time on real rules: a failed segment retries
// from the last '*' only.
func match(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	p, s := 0, 0
	star, mark := -1, 0
	for {
		if p == len(pattern) && (!anchored || s == len(path)) {
			return true
		}
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, s
			p++
		case p < len(pattern) && s < len(path) && pattern[p] == path[s]:
			p++
			s++
		case star >= 0 && mark < len(path):
			mark++
			p, s = star+1, mark
		default:
			return false
		}
	}
}

// record splits a robots.txt line into its lower-case key and value, with
// the comment and surrounding blanks removed. A line without a colon
// still counts when a known key is followed by a blank ("disallow /"),
// as many files have it.
func record(line []byte) (key, value string, ok bool) {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	k, v, found := bytes.Cut(line, []byte(":"))
	if !found {
		k, v, found = bytes.Cut(bytes.TrimSpace(line), []byte(" "))
		if !found {
			k, v, found = bytes.Cut(bytes.TrimSpace(line), []byte("\t"))
		}
	}
	if !found {
		return "", "", false
	}
	key = strings.ToLower(string(bytes.TrimSpace(k)))
	return key, string(bytes.TrimSpace(v)), true
}

// splitLines splits at LF, CRLF and CR.
func splitLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			return append(lines, b)
		}
		lines = append(lines, b[:i])
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b = b[i+1:]
	}
	return lines
}

// productToken is the leading run of letters, '_' and '-' of a user-agent
// value: "FooBot/2.1" and "Foo Bar" name FooBot and Foo.
func productToken(v string) string {
	i := 0
	for i < len(v) && (isLetter(v[i]) || v[i] == '_' || v[i] == '-') {
		i++
	}
	return v[:i]
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// normalise brings a path or rule to the form RFC 9309 compares:
// percent-encoded unreserved characters decoded, other escapes in upper
// case, octets outside printable US-ASCII (and a '%' that starts no
// escape) encoded. (In a rule, '*' and a
// final '$' keep their meaning for match.)
func normalise(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteString(strings.ToUpper(s[i : i+3]))
			}
			i += 2
		case c == '%': // not an escape: the octet '%' itself
			b.WriteString("%25")
		case c <= ' ' || c >= 0x7f:
			b.WriteString("%" + string("0123456789ABCDEF"[c>>4]) + string("0123456789ABCDEF"[c&15]))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isUnreserved(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

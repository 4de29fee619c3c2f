package crawl

import (
	"bufio"
	"bytes"
	"net/url"
	"strings"

	"github.com/temoto/robotstxt"
)

// Robots answers whether a path may be fetched, for one user agent.
type Robots struct {
	group *robotstxt.Group
	all   *bool // set for allow-all (4xx) or disallow-all (5xx, unreachable)
}

// ParseRobots interprets a robots.txt response for the agent's product
// token, following RFC 9309: a 4xx status allows everything, a 5xx (or no
// answer, status 0) disallows everything, and among matching rules the
// longest wins with Allow winning a tie. temoto/robotstxt breaks ties by
// file order, so Allow lines are moved ahead of Disallow lines within each
// group before it parses them.
func ParseRobots(status int, body []byte, userAgent string) (*Robots, error) {
	switch {
	case status >= 400 && status < 500:
		return allRobots(true), nil
	case status < 200 || status >= 300:
		return allRobots(false), nil
	}
	data, err := robotstxt.FromBytes(allowFirst(body))
	if err != nil {
		return nil, err
	}
	return &Robots{group: data.FindGroup(productToken(userAgent))}, nil
}

func allRobots(allow bool) *Robots { return &Robots{all: &allow} }

// Allowed reports whether key (a "/wiki/..." path) may be fetched. Both the
// escaped and the decoded form of the path must be allowed, since
// robots.txt files (Wikipedia's among them) list both.
func (r *Robots) Allowed(key string) bool {
	if r.all != nil {
		return *r.all
	}
	escaped := KeyPath(key)
	if !r.group.Test(escaped) {
		return false
	}
	decoded, err := url.PathUnescape(escaped)
	return err != nil || r.group.Test(decoded)
}

// CrawlDelay returns the group's Crawl-delay in seconds (0 if none).
func (r *Robots) CrawlDelay() float64 {
	if r.group == nil {
		return 0
	}
	return r.group.CrawlDelay.Seconds()
}

// productToken returns the User-Agent's product token ("topicrank" for
// "topicrank/0.1 (...)"), which robots.txt groups are matched on.
func productToken(userAgent string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(userAgent), "/")
	tok, _, _ = strings.Cut(tok, " ")
	return tok
}

// allowFirst reorders each group's rule lines so that Allow lines come
// before Disallow lines, at the end of the group.
func allowFirst(body []byte) []byte {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	var out, allows, disallows bytes.Buffer
	flush := func() {
		out.Write(allows.Bytes())
		out.Write(disallows.Bytes())
		allows.Reset()
		disallows.Reset()
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		field := strings.ToLower(strings.TrimSpace(strings.SplitN(line, ":", 2)[0]))
		switch field {
		case "allow":
			allows.WriteString(line + "\n")
		case "disallow":
			disallows.WriteString(line + "\n")
		case "user-agent":
			flush()
			out.WriteString(line + "\n")
		default: // comments, blanks, Crawl-delay: order does not matter
			out.WriteString(line + "\n")
		}
	}
	flush()
	return out.Bytes()
}

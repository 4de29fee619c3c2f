// Package robots applies a robots.txt file exactly as RFC 9309 says.
//
// The group that applies is the one whose user-agent equals the crawler's
// product token (case-insensitively; several such groups are combined),
// else the "*" group(s), else none. A rule matches a path from its start;
// '*' matches any run of octets and a final '$' the end of the path. The
// rule with the most octets, as written, wins; Allow wins a tie. Paths and
// rules are compared with percent-encoding normalised: unreserved
// characters decoded, octets outside US-ASCII encoded, hex in upper case.
//
// It replaces github.com/temoto/robotstxt, whose groups and rules are
// unexported: its group choice (by user-agent prefix), precedence
// (measured on a compiled regexp) and '$' (not anchored at the path's
// start) could not be corrected from outside.
package robots

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxSize is how much of a robots.txt file is parsed: RFC 9309 asks for at
// least 500 KiB. A longer file is cut at its last line break before this.
const MaxSize = 512 << 10

// maxRule bounds a rule's length (Google's parser uses 16 KiB lines). A
// longer Disallow is cut short, which only widens it; a longer Allow is
// dropped, which only narrows what is allowed.
const maxRule = 16 << 10

// Rules are the rules of the group that applies to one crawler.
type Rules struct {
	literal map[string]bool // rules without wildcards: pattern -> allow
	longest int             // length of the longest literal pattern
	wild    []rule          // rules with '*' or '$'
	delay   time.Duration
	all     *bool // set for allow-all or disallow-all

	mu    sync.Mutex
	cache map[string]bool
}

type rule struct {
	pattern string // normalised; a final '$' anchors the end
	allow   bool
}

// AllowAll returns rules that allow every path (a robots.txt answering
// 4xx); DisallowAll rules that allow none (5xx, unreachable, unreadable).
func AllowAll() *Rules    { t := true; return &Rules{all: &t} }
func DisallowAll() *Rules { f := false; return &Rules{all: &f} }

// Parse reads a robots.txt body (the first MaxSize bytes) for the crawler
// whose product token is agent (e.g. "topicrank").
func Parse(body []byte, agent string) *Rules {
	if len(body) > MaxSize {
		body = body[:MaxSize]
		if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
			body = body[:i]
		}
	}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	var mine, star group
	var cur *group      // the group being read, nil before the first user-agent
	agentsOpen := false // the last record was a user-agent line
	for _, line := range splitLines(body) {
		key, value, ok := record(line)
		if !ok {
			continue
		}
		switch key {
		case "user-agent":
			if !agentsOpen {
				cur = &group{}
			}
			agentsOpen = true
			tok := productToken(value)
			switch {
			case strings.EqualFold(tok, agent) && agent != "":
				cur.mine = true
			case value == "*":
				cur.star = true
			}
			cur.into(&mine, &star)
		case "allow", "disallow":
			agentsOpen = false
			if cur != nil { // rules before any user-agent are ignored
				cur.add(key, value)
			}
		case "crawl-delay": // another record: it does not end a run of user-agents
			if cur != nil {
				cur.add(key, value)
			}
		}
	}
	chosen := &mine
	if !mine.found {
		chosen = &star
	}
	return chosen.rules()
}

// group collects the records of one group. A group that names the
// crawler feeds mine, a "*" group feeds star; a group may do both.
type group struct {
	mine, star bool
	found      bool
	targets    []*group
	allows     []string
	disallows  []string
	delay      time.Duration
}

// into points the group's records at the collections it belongs to.
func (g *group) into(mine, star *group) {
	g.targets = g.targets[:0]
	if g.mine {
		mine.found = true
		g.targets = append(g.targets, mine)
	}
	if g.star {
		star.found = true
		g.targets = append(g.targets, star)
	}
}

func (g *group) add(key, value string) {
	for _, t := range g.targets {
		switch key {
		case "allow":
			if value != "" && len(value) <= maxRule {
				t.allows = append(t.allows, value)
			}
		case "disallow":
			if value != "" {
				t.disallows = append(t.disallows, value[:min(len(value), maxRule)])
			}
		case "crawl-delay":
			if s, err := strconv.ParseFloat(value, 64); err == nil && s > 0 && s < 1e6 {
				t.delay = max(t.delay, time.Duration(s*float64(time.Second)))
			}
		}
	}
}

func (g *group) rules() *Rules {
	r := &Rules{literal: map[string]bool{}, delay: g.delay, cache: map[string]bool{}}
	add := func(v string, allow bool) {
		p := normalise(v)
		if strings.ContainsAny(p, "*$") {
			r.wild = append(r.wild, rule{p, allow})
			return
		}
		r.literal[p] = r.literal[p] || allow // Allow wins a tie
		r.longest = max(r.longest, len(p))
	}
	for _, v := range g.disallows {
		add(v, false)
	}
	for _, v := range g.allows {
		add(v, true)
	}
	return r
}

// CrawlDelay returns the applying group's Crawl-delay (0 if none). It is
// not part of RFC 9309; the largest value among combined groups is kept.
func (r *Rules) CrawlDelay() time.Duration { return r.delay }

// Allowed reports whether the path (with its query, as requested) may be
// fetched. /robots.txt itself always may.
func (r *Rules) Allowed(path string) bool {
	if r.all != nil {
		return *r.all
	}
	path = normalise(path)
	if path == "/robots.txt" {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if ok, hit := r.cache[path]; hit {
		return ok
	}
	ok := r.decide(path)
	if len(r.cache) < 1<<16 {
		r.cache[path] = ok
	}
	return ok
}

// decide finds the longest matching rule; no match allows.
func (r *Rules) decide(path string) bool {
	best, allow := -1, true
	for n := min(len(path), r.longest); n > 0; n-- {
		if a, ok := r.literal[path[:n]]; ok {
			best, allow = n, a
			break
		}
	}
	for _, w := range r.wild {
		n := len(w.pattern)
		if n < best || (n == best && !w.allow) || !match(w.pattern, path) {
			continue
		}
		if n > best || w.allow {
			best, allow = n, w.allow
		}
	}
	return allow
}

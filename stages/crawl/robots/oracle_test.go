package robots

import (
	"regexp"
	"strings"
	"testing"
)

// oracle is an independent, plainly written reading of RFC 9309 for the
// tests: group by equal product token or '*', each rule compiled to an
// anchored regular expression, the longest pattern (as written, after
// percent-encoding normalisation) wins, Allow on ties.
func oracle(txt, agent, path string) bool {
	type rl struct {
		allow bool
		pat   string
	}
	var mine, star []rl
	var haveMine, haveStar bool
	var inMine, inStar, lastUA bool
	txt = strings.TrimPrefix(txt, "\xef\xbb\xbf")
	txt = strings.ReplaceAll(strings.ReplaceAll(txt, "\r\n", "\n"), "\r", "\n")
	for _, line := range strings.Split(txt, "\n") {
		line, _, _ = strings.Cut(line, "#")
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch k {
		case "user-agent":
			if !lastUA {
				inMine, inStar = false, false
			}
			lastUA = true
			tok := v
			if i := strings.IndexFunc(v, func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_')
			}); i >= 0 {
				tok = v[:i]
			}
			if agent != "" && strings.EqualFold(tok, agent) {
				inMine, haveMine = true, true
			} else if v == "*" {
				inStar, haveStar = true, true
			}
		case "allow", "disallow":
			lastUA = false
			if v == "" {
				continue
			}
			r := rl{k == "allow", normalise(v)}
			if inMine {
				mine = append(mine, r)
			}
			if inStar {
				star = append(star, r)
			}
		}
	}
	rules := star
	if haveMine {
		rules = mine
	} else if !haveStar {
		return true
	}
	path = normalise(path)
	if path == "/robots.txt" {
		return true
	}
	best, allow := -1, true
	for _, r := range rules {
		p := r.pat
		end := ""
		if strings.HasSuffix(p, "$") {
			p, end = p[:len(p)-1], "$"
		}
		parts := strings.Split(p, "*")
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		re := regexp.MustCompile("^" + strings.Join(parts, ".*") + end)
		if !re.MatchString(path) {
			continue
		}
		if n := len(r.pat); n > best || n == best && r.allow {
			best, allow = n, r.allow
		}
	}
	return allow
}

// FuzzAllowed checks the matcher against the oracle on any file and path
// (no panic, the same answer), and that normalisation is idempotent.
func FuzzAllowed(f *testing.F) {
	for _, c := range cases {
		for p := range c.paths {
			f.Add(c.txt, c.agent, p)
		}
	}
	f.Fuzz(func(t *testing.T, txt, agent, path string) {
		if len(txt) > 4096 || len(path) > 256 || strings.ContainsAny(txt, "\t") {
			return // the oracle splits on colons only; keep inputs small
		}
		if agent != productToken(agent) {
			return // a crawler's product token is letters, '_' and '-'
		}
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		got := Parse([]byte(txt), agent).Allowed(path)
		if !hasColonlessRecord(txt) {
			if want := oracle(txt, agent, path); got != want {
				t.Errorf("Allowed(%q) = %v, oracle %v\nrobots.txt:\n%s", path, got, want, txt)
			}
		}
		if n := normalise(path); normalise(n) != n {
			t.Errorf("normalise not idempotent: %q -> %q -> %q", path, n, normalise(n))
		}
	})
}

// hasColonlessRecord reports lines that only our parser reads (a known key
// followed by a blank, "disallow /"): the oracle ignores them.
func hasColonlessRecord(txt string) bool {
	for _, line := range strings.FieldsFunc(txt, func(r rune) bool { return r == '\n' || r == '\r' }) {
		line, _, _ = strings.Cut(line, "#")
		if !strings.Contains(line, ":") && strings.TrimSpace(line) != "" {
			return true
		}
	}
	return false
}

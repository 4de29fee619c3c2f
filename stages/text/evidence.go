package text

import (
	"math"
	"slices"
	"strings"
)

// The features of a page's Evidence, in the order of Evidence and of the
// judge's weights.
const (
	FeatCosine       = iota // cosine of the article's terms to the topic vector (topic pages included)
	FeatTitle               // the title holds a topic term (0 or 1)
	FeatLeadStart           // log(1 + topic terms among the lead's first LeadWords terms)
	FeatLeadDensity         // share of the lead's terms that are topic terms
	FeatBodyDensity         // share of the article's terms that are topic terms, ×10
	FeatCoverage            // share of the topic's terms the article holds
	FeatCategories          // share of the topical categories (categories.go) naming a topic term
	FeatFirst               // log(1 + topic terms among the lead's first FirstWords terms)
	FeatCategoryHits        // log(1 + topical categories naming a topic term)
	FeatDefinition          // log(1 + topic terms in what the first sentence says the subject is)
	NumFeatures
)

// FeatureNames name the features, for the judge's file and its fit.
var FeatureNames = [NumFeatures]string{
	"cosine", "title", "lead_start", "lead_density", "body_density",
	"coverage", "categories", "first", "category_hits", "definition",
}

// LeadWords is how many terms of the lead count as its start: about the
// 260 characters people read when they judge a page by its title and lead.
const LeadWords = 40

// FirstWords is how many terms of the lead stand for its first sentence,
// which says what the subject is ("… is an American film actor").
const FirstWords = 12

// Evidence is what a page shows about a topic, feature by feature.
type Evidence [NumFeatures]float64

// Page is what the judge reads of a page: its title, its article and the
// names of its visible categories.
type Page struct {
	Title      string
	Article    *Article
	Categories []string
}

// Evidence returns what p shows about the topic. Topic terms match by
// stem, or when one stem is a prefix of the other and the shorter has at
// least minPrefix letters (polit ~ politician, philosoph ~ philosophi).
func (t *Topic) Evidence(p Page) Evidence {
	var e Evidence
	if t.Empty() {
		return e
	}
	var lead, body, def []string
	if p.Article != nil {
		l := p.Article.Lead()
		lead, body, def = TermList(l), TermList(p.Article.Text()), TermList(definition(l))
	}
	e[FeatDefinition] = math.Log1p(float64(t.count(def)))
	e[FeatCosine] = Cosine(t.vec, Count(body))
	if t.count(TermList(pageTitle(p.Title))) > 0 {
		e[FeatTitle] = 1
	}
	e[FeatLeadStart] = math.Log1p(float64(t.count(lead[:min(len(lead), LeadWords)])))
	e[FeatFirst] = math.Log1p(float64(t.count(lead[:min(len(lead), FirstWords)])))
	if len(lead) > 0 {
		e[FeatLeadDensity] = float64(t.count(lead)) / float64(len(lead))
	}
	if len(body) > 0 {
		e[FeatBodyDensity] = 10 * float64(t.count(body)) / float64(len(body))
	}
	e[FeatCoverage] = t.coverage(body)
	if cats := topical(p.Categories); len(cats) > 0 {
		hit := 0
		for _, c := range cats {
			if t.count(TermList(c)) > 0 {
				hit++
			}
		}
		e[FeatCategories] = float64(hit) / float64(len(cats))
		e[FeatCategoryHits] = math.Log1p(float64(hit))
	}
	return e
}

// Matched returns the topic words and phrases that p's title, article or
// topical categories (categories.go) hold (every term of a phrase, as
// Evidence matches terms), in the topic's order: the words behind its
// relevance.
func (t *Topic) Matched(p Page) []string {
	if t.Empty() {
		return nil
	}
	seen := map[string]bool{}
	add := func(terms []string) {
		for _, s := range terms {
			seen[s] = true
		}
	}
	add(TermList(pageTitle(p.Title)))
	if p.Article != nil {
		add(TermList(p.Article.Text()))
	}
	for _, c := range topical(p.Categories) {
		add(TermList(c))
	}
	var out []string
	for _, w := range t.words {
		terms := TermList(w)
		found := len(terms) > 0
		for _, term := range terms {
			hit := seen[term]
			for s := range seen {
				if hit {
					break
				}
				hit = related(s, term)
			}
			found = found && hit
		}
		if found && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// minPrefix is the shortest stem that matches a longer one it begins.
const minPrefix = 5

// related reports whether terms a and b match: equal, or one begins the
// other and both have at least minPrefix letters.
func related(a, b string) bool {
	return a == b || len(a) >= minPrefix && len(b) >= minPrefix && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a))
}

// matches reports whether term s is one of the topic's terms.
func (t *Topic) matches(s string) bool {
	if _, ok := t.terms[s]; ok {
		return true
	}
	return slices.ContainsFunc(t.termList, func(w string) bool { return related(s, w) })
}

// count returns how many of terms are topic terms.
func (t *Topic) count(terms []string) int {
	n := 0
	for _, s := range terms {
		if t.matches(s) {
			n++
		}
	}
	return n
}

// coverage returns the share of the topic's terms that terms hold.
func (t *Topic) coverage(terms []string) float64 {
	if len(t.termList) == 0 {
		return 0
	}
	seen := map[string]bool{}
	for _, s := range terms {
		if seen[s] {
			continue
		}
		seen[s] = true
	}
	hit := 0
	for _, w := range t.termList {
		for s := range seen {
			if related(s, w) {
				hit++
				break
			}
		}
	}
	return float64(hit) / float64(len(t.termList))
}

// pageTitle is a page's <title> without the site's " - Wikipedia".
func pageTitle(s string) string {
	if i := strings.LastIndex(s, " - "); i > 0 {
		return s[:i]
	}
	return s
}

// Lead returns the article's lead: its text before the first section
// heading.
func (a *Article) Lead() string {
	var b []byte
	for _, p := range a.Pieces {
		if p.Heading {
			break
		}
		b = append(b, ' ')
		b = append(b, p.Text...)
	}
	return string(b)
}

// definition returns what the lead's first sentence says its subject is:
// the rest of the sentence after its first "is", "was", "are", "were" or
// "refers to" ("… is an American film actor and director"); "" if none.
func definition(lead string) string {
	first := lead
	if i := strings.Index(first, ". "); i >= 0 {
		first = first[:i]
	}
	best := -1
	for _, v := range []string{" is ", " was ", " are ", " were ", " refers to "} {
		if i := strings.Index(first, v); i >= 0 && (best < 0 || i < best) {
			best = i + len(v)
		}
	}
	if best < 0 {
		return ""
	}
	return first[best:]
}

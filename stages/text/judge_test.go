package text

import (
	"math"
	"strings"
	"testing"
)

func article(lead, body string) *Article {
	return &Article{Pieces: []Piece{{Text: lead}, {Text: "History", Heading: true}, {Text: body}}}
}

// Hand-checked evidence of a short page about a film actor, for the
// topic "film, actor".
func TestEvidenceHandChecked(t *testing.T) {
	topic := NewTopic([]string{"film", "actor"}, nil)
	p := Page{
		Title:      "Jane Doe - Wikipedia",
		Article:    article("Jane Doe is an American film actress and director.", "She acted in films."),
		Categories: []string{"American_film_actresses", "1970_births", "Living_people"},
	}
	e := topic.Evidence(p)
	// Lead terms: jane doe american film actress director (6): film, and
	// actress ~ actor? Stems "actress" and "actor" share only "act": no.
	// So one topic term in the lead, in its start, in the first sentence
	// and in the definition ("an American film actress and director").
	want := Evidence{}
	want[FeatTitle] = 0
	want[FeatLeadStart] = math.Log1p(1)
	want[FeatFirst] = math.Log1p(1)
	want[FeatDefinition] = math.Log1p(1)
	want[FeatLeadDensity] = 1.0 / 6
	// Body terms: the lead's 6, the heading's "histori" and "act film"
	// (acted → act, films → film): 9 terms, 2 of them film.
	want[FeatBodyDensity] = 10 * 2.0 / 9
	want[FeatCoverage] = 0.5 // film, not actor
	want[FeatCategories] = 1.0 / 3
	want[FeatCategoryHits] = math.Log1p(1)
	for i := range e {
		if i == FeatCosine {
			continue
		}
		if math.Abs(e[i]-want[i]) > 1e-12 {
			t.Errorf("%s = %v, want %v", FeatureNames[i], e[i], want[i])
		}
	}
	// Cosine: page film 2, jane, doe, american, actress, director,
	// histori, act (1 each): |p| = √11; topic film, actor: √2; dot 2.
	if c := 2 / (math.Sqrt(11) * math.Sqrt(2)); math.Abs(e[FeatCosine]-c) > 1e-12 {
		t.Errorf("cosine = %v, want %v", e[FeatCosine], c)
	}
	if r := Shipped.Relevance(e); !(r > 0.25) {
		t.Errorf("a film actress's page judged %v for film: want relevant", r)
	}
	if r := Shipped.Relevance(NewTopic([]string{"chemistry"}, nil).Evidence(p)); !(r < 0.05) {
		t.Errorf("a film actress's page judged %v for chemistry: want far below relevant", r)
	}
}

// Topic terms match by stem, or by a prefix of at least five letters.
func TestTopicTermsMatch(t *testing.T) {
	topic := NewTopic([]string{"politician", "philosophy", "law"}, nil)
	for w, want := range map[string]bool{
		"politician": true, "political": true, "politics": true, "philosopher": true,
		"philosophical": true, "law": true, "laws": true, "lawyer": false, "lawn": false, "police": false,
	} {
		if got := topic.count(TermList(w)) == 1; got != want {
			t.Errorf("%q matches = %v, want %v", w, got, want)
		}
	}
}

func TestDefinition(t *testing.T) {
	for lead, want := range map[string]string{
		" Seattle is a seaport city on the West Coast. It is big.":  "a seaport city on the West Coast",
		"Plato was an Athenian philosopher":                         "an Athenian philosopher",
		"The Beatles were an English rock band. They is":            "an English rock band",
		"No verb here. Seattle is a city.":                          "",
		"Cats refers to a musical, and the cats are animals in it.": "a musical, and the cats are animals in it.",
	} {
		if got := definition(lead); got != want {
			t.Errorf("definition(%q) = %q, want %q", lead, got, want)
		}
	}
}

// An empty topic judges nothing; evidence of no page is zero.
func TestEvidenceEmpty(t *testing.T) {
	if e := NewTopic(nil, nil).Evidence(Page{Title: "x", Article: article("a b", "c")}); e != (Evidence{}) {
		t.Errorf("empty topic: %v", e)
	}
	if e := NewTopic([]string{"film"}, nil).Evidence(Page{}); e != (Evidence{}) {
		t.Errorf("no page: %v", e)
	}
}

func TestParseJudge(t *testing.T) {
	for _, bad := range []string{
		`{`,
		`{"bias": 1, "weights": {}}`,
		`{"bias": 1, "weights": {"cosine": 1, "title": 1, "lead_start": 1, "lead_density": 1, "body_density": 1,
			"coverage": 1, "categories": 1, "first": 1, "category_hits": 1, "definition": 1, "extra": 1}}`,
	} {
		if _, err := ParseJudge([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "judge: ") {
			t.Errorf("ParseJudge(%.30q) = %v, want a judge error", bad, err)
		}
	}
	j := NewJudge(-1, [NumFeatures]float64{FeatTitle: 2})
	e := Evidence{FeatTitle: 1}
	if got, want := j.Relevance(e), 1/(1+math.Exp(-1)); math.Abs(got-want) > 1e-15 {
		t.Errorf("relevance = %v, want %v", got, want)
	}
}

// The topic words a page holds, in the topic's order: a phrase when all
// its words are there, words by stem or a shared five-letter prefix.
func TestMatched(t *testing.T) {
	topic := NewTopic([]string{"space needle", "politics", "tennis", "seattle"}, nil)
	p := Page{Title: "Space Needle - Wikipedia", Article: article("The needle is in Seattle.", "Political figures visited."),
		Categories: []string{"Towers_in_Seattle"}}
	if got := topic.Matched(p); strings.Join(got, ",") != "space needle,politics,seattle" {
		t.Errorf("matched %q", got)
	}
	if got := NewTopic(nil, nil).Matched(p); got != nil {
		t.Errorf("no topic: %q", got)
	}
}

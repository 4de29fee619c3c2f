package text

import (
	"math"
	"slices"
	"testing"
)

func TestAffiliation(t *testing.T) {
	for c, want := range map[string]bool{
		"Yale_Law_School_alumni":                       true,
		"Harvard University faculty":                   true,
		"Alumni_of_the_University_of_Cambridge":        true,
		"People_educated_at_Eton_College":              true,
		"Fellows_of_the_Royal_Society":                 true,
		"Academics_of_King's_College_London":           true,
		"Stanford_University_trustees":                 true,
		"Trustees_of_the_Institute_for_Advanced_Study": true,
		"Universities_and_colleges_in_Seattle":         false,
		"Law_schools_in_Washington_(state)":            false,
		"American_film_actors":                         false,
		"Alumnium_compounds":                           false, // a word that only begins like one
		"School_faculty_lounges":                       false, // "faculty" not at the end
	} {
		if got := len(topical([]string{c})) == 0; got != want {
			t.Errorf("%q an affiliation: %v, want %v", c, got, want)
		}
	}
}

// A senator's page whose only categories naming a topic term are
// affiliations shows no category evidence and holds no topic word by
// them; a topical category still counts, over the topical ones only.
func TestAffiliationsAreNotEvidence(t *testing.T) {
	topic := NewTopic([]string{"university", "law"}, nil)
	p := Page{Title: "A Senator - Wikipedia", Article: article("A Senator is an American politician.", "She served two terms."),
		Categories: []string{"Yale_Law_School_alumni", "Harvard_University_faculty", "United_States_senators"}}
	e := topic.Evidence(p)
	if e[FeatCategories] != 0 || e[FeatCategoryHits] != 0 {
		t.Errorf("category evidence %v, %v from affiliations alone", e[FeatCategories], e[FeatCategoryHits])
	}
	if got := topic.Matched(p); got != nil {
		t.Errorf("matched %q from affiliations", got)
	}
	p.Categories = append(p.Categories, "Constitutional_law")
	e = topic.Evidence(p)
	if e[FeatCategories] != 0.5 || math.Abs(e[FeatCategoryHits]-math.Log(2)) > 1e-15 {
		t.Errorf("one topical hit of two topical categories: %v, %v; want 0.5, log 2", e[FeatCategories], e[FeatCategoryHits])
	}
	if got := topic.Matched(p); !slices.Equal(got, []string{"law"}) {
		t.Errorf("matched %q, want [law]", got)
	}
}

package search

import "testing"

// The article's text is joined at every tag; snippets read as prose.
func TestTidy(t *testing.T) {
	for in, want := range map[string]string{
		"King County , Washington ( state ) .": "King County, Washington (state).",
		"a  \n b ; c : d ! e ? [ f ]":          "a b; c: d! e? [f]",
		"« Seattle » is":                       "«Seattle» is",
		"3 , 4 and 5.5 km":                     "3, 4 and 5.5 km",
	} {
		if got := Tidy(in); got != want {
			t.Errorf("Tidy(%q) = %q, want %q", in, got, want)
		}
	}
}

package text

import "strings"

// affiliations are the ways Wikipedia names a category of people by an
// institution they studied or worked at: "Yale Law School alumni",
// "Alumni of the University of Cambridge", "Harvard University faculty",
// "People educated at Eton College", "Fellows of the Royal Society".
// Such a category says where a person went, not what the page is about:
// a senator's page in "Harvard Law School alumni" is no more about law
// or schools than its lead is. Prefixes end in a space, suffixes begin
// with one.
var affiliations = []string{
	" alumni", " faculty", " trustees",
	"alumni of ", "people educated at ", "fellows of ", "academics of ", "trustees of ",
}

// affiliation reports whether category c names people by an institution
// (affiliations); the judge and Matched read no topic term from it.
func affiliation(c string) bool {
	c = strings.ToLower(strings.ReplaceAll(c, "_", " "))
	for _, a := range affiliations {
		if strings.HasSuffix(c, a) || strings.HasPrefix(c, a) {
			return true
		}
	}
	return false
}

// topical returns the categories that may say what a page is about:
// cats without affiliations.
func topical(cats []string) []string {
	var out []string
	for _, c := range cats {
		if !affiliation(c) {
			out = append(out, c)
		}
	}
	return out
}

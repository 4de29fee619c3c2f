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

// affiliation reports whether category name c, its words spaced
// (topical), names people by an institution (affiliations).
func affiliation(c string) bool {
	c = strings.ToLower(c)
	for _, a := range affiliations {
		if strings.HasSuffix(c, a) || strings.HasPrefix(c, a) {
			return true
		}
	}
	return false
}

// topical returns the categories that may say what a page is about,
// their words spaced ("Law_schools" → "Law schools"): cats without
// affiliations. The judge and Matched read topic terms from these alone.
func topical(cats []string) []string {
	var out []string
	for _, c := range cats {
		if c = strings.ReplaceAll(c, "_", " "); !affiliation(c) {
			out = append(out, c)
		}
	}
	return out
}

package page

import (
	"hash/fnv"
	"slices"

	"github.com/topicrank/topicrank/stages/text"
)

// FeatureSpace is the number of hashed features a link's terms map to
// (Document.Features, Document.Sections): the learned strategy's model
// has a weight for each.
const FeatureSpace = 1 << 18

// linkFeatures hashes a link's anchor, context and title terms.
func linkFeatures(o occurrence, terms [][]string) []uint32 {
	var f []uint32
	add := func(prefix string, ts []string) {
		for _, t := range ts {
			f = append(f, HashFeature(prefix, t))
		}
	}
	add("a|", text.TermList(o.anchor))
	if terms != nil {
		for i := max(o.pos-contextWords, 0); i < min(o.pos+contextWords+1, len(terms)); i++ {
			if i != o.pos {
				add("c|", terms[i])
			}
		}
	}
	add("t|", text.TermList(KeyTitle(o.key)))
	slices.Sort(f)
	return slices.Compact(f)
}

// sectionFeatures returns the features of a section heading's terms
// (one feature for the lead, whose heading is ""). Only the learned
// strategy reads them.
func sectionFeatures(heading string) []uint32 {
	if heading == "" {
		return []uint32{HashFeature("s|", "")}
	}
	var f []uint32
	for _, t := range text.TermList(heading) {
		f = append(f, HashFeature("s|", t))
	}
	return f
}

// HashFeature is a term's feature id under a prefix (a|, c|, t|).
func HashFeature(prefix, term string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(prefix))
	h.Write([]byte(term))
	return h.Sum32() % FeatureSpace
}

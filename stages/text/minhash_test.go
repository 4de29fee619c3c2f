package text

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// shingles is the exact set of a text's word 5-shingles.
func shingles(s string) map[string]bool {
	words := Words(s)
	set := map[string]bool{}
	for i := 0; i < max(len(words)-ShingleWords+1, 1); i++ {
		set[strings.Join(words[i:min(i+ShingleWords, len(words))], " ")] = true
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// edit replaces a share of the words of s with others.
func edit(s string, share float64, rng *rand.Rand) string {
	words := strings.Fields(s)
	for i := range words {
		if rng.Float64() < share {
			words[i] = "zq" + string(rune('a'+rng.IntN(26)))
		}
	}
	return strings.Join(words, " ")
}

// The MinHash estimate is within 4 standard errors of the exact Jaccard
// similarity on real page pairs: unrelated pages, one page against edits
// of itself, and pages that share a template.
func TestSignatureEstimatesJaccard(t *testing.T) {
	pages := wikitest.Corpus(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var texts []string
	for _, p := range pages[:60] {
		texts = append(texts, Parse(p.HTML).Text())
	}
	type pair struct{ a, b string }
	var pairs []pair
	for i := 0; i+1 < len(texts); i += 2 {
		pairs = append(pairs, pair{texts[i], texts[i+1]})
	}
	for i, s := range texts[:20] {
		pairs = append(pairs, pair{s, edit(s, []float64{0.002, 0.01, 0.03, 0.1}[i%4], rng)})
	}
	for _, p := range pairs {
		exact := jaccard(shingles(p.a), shingles(p.b))
		est := Similarity(Signature(p.a), Signature(p.b))
		se := math.Sqrt(exact*(1-exact)/SignatureSize) + 1.0/SignatureSize
		if math.Abs(est-exact) > 4*se {
			t.Errorf("estimate %.3f, exact %.3f (standard error %.3f)", est, exact, se)
		}
	}
}

// A near copy of a page is flagged as a duplicate of the earlier page; a
// distinct page and a heavily edited one are not.
func TestNearDuplicates(t *testing.T) {
	seattle := Parse(wikitest.Page(t, "Seattle")).Text()
	needle := Parse(wikitest.Page(t, "Space_Needle")).Text()
	rng := rand.New(rand.NewPCG(3, 4))
	texts := []string{
		seattle,
		needle,
		edit(seattle, 0.005, rng), // a few words changed: a near copy of 0
		edit(needle, 0.2, rng),    // a fifth of the words changed: related, not a copy
		"",                        // a failed fetch
		seattle,                   // the same text again: a copy of 0 (and of 2, later and less similar)
	}
	sigs := make([][]uint64, len(texts))
	for i, s := range texts {
		sigs[i] = Signature(s)
	}
	of, sim := NearDuplicates(sigs, 0.9)
	want := []int{-1, -1, 0, -1, -1, 0}
	for i := range want {
		if of[i] != want[i] {
			t.Errorf("text %d: near-duplicate of %d (%.3f), want %d", i, of[i], sim[i], want[i])
		}
	}
	if sim[5] != 1 {
		t.Errorf("an identical text estimates %.3f", sim[5])
	}
	if e := jaccard(shingles(texts[3]), shingles(needle)); e > 0.5 {
		t.Errorf("the heavy edit keeps %.2f of its shingles: not the case this test means", e)
	}
}

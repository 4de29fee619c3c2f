package page

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/text"
)

// bruteWeight is the weighted strategy's rule read literally: the nearest
// topic occurrence over all of them, for each link.
func bruteWeight(x *extractor, o occurrence) float64 {
	if o.named {
		return 1
	}
	d := -1
	for _, h := range x.hits {
		var dist int
		switch {
		case h[1] < o.pos:
			dist = o.pos - h[1] - 1
		case h[0] > o.pos:
			dist = h[0] - o.pos - 1
		default:
			continue
		}
		if d < 0 || dist < d {
			d = dist
		}
	}
	if d < 0 || d > maxDistance {
		return 0
	}
	return 1 / float64(d+2)
}

// The linear nearest-occurrence arrays give the brute-force weights on
// random pages of words, links and topic phrases of several lengths.
func TestWeightMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"tennis", "grand", "slam", "open", "x", "y", "z", "court"}
	topics := NewTopics([]string{"tennis", "grand slam", "us open", "slam"})
	for trial := range 300 {
		var b strings.Builder
		b.WriteString(`<div id="mw-content-text"><p>`)
		for i := range rng.IntN(200) {
			if rng.IntN(4) == 0 {
				fmt.Fprintf(&b, `<a href="/wiki/L%d">%s</a> `, rng.IntN(50), words[rng.IntN(len(words))])
			} else {
				b.WriteString(words[rng.IntN(len(words))] + " ")
			}
			_ = i
		}
		x := extractor{topics: topics, seen: map[string]bool{}}
		x.run([]byte(b.String()))
		n := x.nearest()
		for _, o := range x.links {
			if got, want := x.weight(o, &n), bruteWeight(&x, o); got != want {
				t.Fatalf("trial %d: weight of %s at %d = %v, want %v\n%s", trial, o.key, o.pos, got, want, b.String())
			}
		}
	}
}

// BenchmarkWeighLinks extracts and weighs a page of n links among topic
// words: time per link stays flat from 10 k to 1 M links (it grew with the
// number of links when each link was compared with every occurrence).
func BenchmarkWeighLinks(b *testing.B) {
	topics := NewTopics([]string{"tennis", "grand slam"})
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		var sb strings.Builder
		sb.WriteString(`<div id="mw-content-text"><div class="mw-parser-output"><p>`)
		for i := range n {
			fmt.Fprintf(&sb, `tennis and more words <a href="/wiki/Link_%d">link %d</a> grand slam `, i, i)
		}
		page := []byte(sb.String())
		b.Run(fmt.Sprintf("links=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for i := 0; i < b.N; i++ {
				Extract(page, nil, ScopeBody, topics)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/link")
		})
		if n > 100_000 {
			continue // the prose scope's DOM of a 50 MB page: beyond the 8 MiB body cap anyway
		}
		for _, s := range []Strategy{StrategyWeighted, StrategySimilarity} {
			x := Extractor{Scope: ScopeProse, Topics: topics, Topic: text.NewTopic([]string{"tennis", "grand slam"}, nil), Strategy: s}
			b.Run(fmt.Sprintf("prose/%s/links=%d", s, n), func(b *testing.B) {
				b.SetBytes(int64(len(page)))
				for i := 0; i < b.N; i++ {
					x.Extract(page)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/link")
			})
		}
	}
}

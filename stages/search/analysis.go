package search

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	_ "github.com/blevesearch/bleve/v2/analysis/analyzer/custom" // the "custom" analyzer type
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/topicrank/topicrank/stages/text"
)

// The index reads text exactly as stages/text does for relevance: a word
// is a maximal run of letters and digits, lower-cased; Snowball's English
// stop words are dropped and the rest stemmed (text.Term). So a query
// term matches the pages whose relevance it would count in.
const (
	tokenizerName = "topicrank_words"
	filterName    = "topicrank_terms"
	analyzerName  = "topicrank_en"
)

func init() {
	registry.RegisterTokenizer(tokenizerName, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return wordTokenizer{}, nil
	})
	registry.RegisterTokenFilter(filterName, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return termFilter{}, nil
	})
}

// addAnalyzer registers the analyzer in m.
func addAnalyzer(m *mapping.IndexMappingImpl) error {
	return m.AddCustomAnalyzer(analyzerName, map[string]any{
		"type":          "custom",
		"tokenizer":     tokenizerName,
		"token_filters": []any{filterName},
	})
}

// length is the number of terms the analyzer makes of s: its length for
// BM25.
func length(s string) int {
	n := 0
	text.ForEachWord([]byte(s), func(w []byte) {
		if text.Term(string(w)) != "" {
			n++
		}
	})
	return n
}

// wordTokenizer splits text into lower-cased words (text.ForEachWord's
// rule), keeping byte offsets for highlighting and positions for phrases.
type wordTokenizer struct{}

func (wordTokenizer) Tokenize(input []byte) analysis.TokenStream {
	var out analysis.TokenStream
	start, pos := -1, 0
	emit := func(end int) {
		pos++
		out = append(out, &analysis.Token{
			Term: text.Lower(nil, input[start:end]), Start: start, End: end, Position: pos, Type: analysis.AlphaNumeric,
		})
		start = -1
	}
	for i := 0; i < len(input); {
		r, size := utf8.DecodeRune(input[i:])
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			emit(i)
		}
		i += size
	}
	if start >= 0 {
		emit(len(input))
	}
	return out
}

// termFilter drops stop words and stems the rest (text.Term). Dropped
// words keep their positions, so phrases still need adjacent words.
type termFilter struct{}

func (termFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	out := input[:0]
	for _, t := range input {
		term := text.Term(string(t.Term))
		if term == "" {
			continue
		}
		t.Term = []byte(term)
		out = append(out, t)
	}
	return out
}

package report

import (
	"slices"
	"testing"

	"github.com/topicrank/topicrank/stages/publish"
)

// Hand-checked: each topic word counts the judged pages holding it and
// the relevant ones among them, whatever its case; a word no page holds
// is listed with none, so the report shows it does no work.
func TestTopicWords(t *testing.T) {
	cur := &publish.Previous{
		Relevance:  map[string]float64{"/wiki/A": 0.9, "/wiki/B": 0.1, "/wiki/C": 0, "/wiki/D": 0.25},
		TopicWords: map[string]string{"/wiki/A": "film, actor", "/wiki/B": "film", "/wiki/C": "", "/wiki/D": "actor"},
	}
	got := topicWords([]string{"Film", "actor", "movie"}, cur, 0.25)
	want := []Word{{"Film", 2, 1}, {"actor", 2, 2}, {"movie", 0, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// A topic word holding the column's separator is still one word.
	cur.TopicWords["/wiki/E"], cur.Relevance["/wiki/E"] = "film, paris, texas", 0.5
	got = topicWords([]string{"Paris, Texas", "film"}, cur, 0.25)
	if want := []Word{{"Paris, Texas", 1, 1}, {"film", 3, 2}}; !slices.Equal(got, want) {
		t.Errorf("with a word holding \", \": got %+v, want %+v", got, want)
	}
	if got := topicWords(nil, cur, 0.25); got != nil {
		t.Errorf("a job without topic words: %+v", got)
	}
	if got := topicWords([]string{"film"}, &publish.Previous{Relevance: cur.Relevance}, 0.25); got != nil {
		t.Errorf("a run from before topic_words: %+v", got)
	}
}

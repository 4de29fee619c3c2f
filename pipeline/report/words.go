package report

import (
	"strings"

	"github.com/topicrank/topicrank/stages/publish"
)

// Word is one of the job's topic words (or phrases) and the judged pages
// of the run that hold it: relevance reads nothing wider than these words
// and their stems, so a word few pages hold finds few pages, and the
// table tells a user which of the job's words do the work.
type Word struct {
	Word     string
	Pages    int // judged pages holding it
	Relevant int // of those, the relevant ones
}

// topicWords counts, for each topic word of the job in its order, the
// judged pages holding it (pages.parquet topic_words) and the relevant
// ones among them. It returns nil for a job without topic words, or a
// run published before topic_words was kept.
func topicWords(topics []string, cur *publish.Previous, threshold float64) []Word {
	if len(topics) == 0 || len(cur.Relevance) == 0 || len(cur.TopicWords) == 0 {
		return nil
	}
	out := make([]Word, len(topics))
	for i, t := range topics {
		out[i].Word = t
	}
	for page, words := range cur.TopicWords {
		// The column joins the words with ", "; a word is looked up as a
		// whole element, so one that itself holds ", " is found too.
		list := ", " + strings.ToLower(words) + ", "
		for i, t := range topics {
			if !strings.Contains(list, ", "+strings.ToLower(t)+", ") {
				continue
			}
			out[i].Pages++
			if cur.Relevance[page] >= threshold {
				out[i].Relevant++
			}
		}
	}
	return out
}

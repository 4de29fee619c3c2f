package page

import (
	"strings"

	"github.com/topicrank/topicrank/stages/text"
)

// Topics is a compiled topic list. The zero value (no topics) gives every
// link weight 0.
type Topics struct {
	phrases [][]string // each topic as lower-case words
	raw     []string   // each topic lower-cased, blanks folded: substring form
	longest int
}

// NewTopics compiles topic words and phrases; matching is case-insensitive.
// Blank entries are ignored.
func NewTopics(topics []string) Topics {
	var t Topics
	for _, s := range topics {
		words := splitWords(strings.ToLower(s))
		if len(words) == 0 {
			continue
		}
		t.phrases = append(t.phrases, words)
		t.raw = append(t.raw, strings.Join(strings.Fields(strings.ToLower(s)), " "))
		t.longest = max(t.longest, len(words))
	}
	return t
}

// Phrases returns the topic phrases, each as its words.
func (t Topics) Phrases() [][]string { return t.phrases }

// Empty reports whether there are no topics.
func (t Topics) Empty() bool { return len(t.phrases) == 0 }

// containedIn reports whether s (lower case, blanks folded) contains a topic.
func (t Topics) containedIn(s string) bool {
	for _, r := range t.raw {
		if strings.Contains(s, r) {
			return true
		}
	}
	return false
}

// endsWith reports whether the most recent words end with phrase.
func endsWith(recent [][]byte, phrase []string) bool {
	if len(recent) < len(phrase) {
		return false
	}
	off := len(recent) - len(phrase)
	for i, w := range phrase {
		if string(recent[off+i]) != w {
			return false
		}
	}
	return true
}

// splitWords splits s the way page text is split into words.
func splitWords(s string) []string { return text.Words(s) }

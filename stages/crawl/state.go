package crawl

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

// State is what a crawl keeps across runs (see package store). With it a
// re-crawl sends conditional requests and reuses the links of unchanged
// pages, and a killed run, run again, replays the pages it had fetched.
// Implementations must be safe for concurrent use.
type State interface {
	// Load returns what was stored for key under the same extraction
	// settings (digest); replay is true when the page was fetched by the
	// interrupted run this one resumes, so it needs no request at all.
	Load(key, digest string) (s Stored, replay bool, ok bool)
	// Save stores a page fetched with a usable answer.
	Save(key, digest string, s Stored) error
	// Touch records that the page was found unchanged (304), the answer
	// giving lastModified.
	Touch(key, lastModified string) error
	// Missing returns the status, 404 or 410, that key last answered and
	// when, if that was its last answer.
	Missing(key string) (status int, at time.Time, ok bool)
	// SaveMissing records that key answered status (404 or 410).
	SaveMissing(key string, status int) error
	// Requests records the requests the run has spent so far (with a
	// budget), so that a run resumed after a kill does not spend them again.
	Requests(n int) error
}

// Stored is a fetched page as the state keeps it.
type Stored struct {
	ETag         string
	LastModified string
	Hash         string // sha256 of the body
	Bytes        int
	Doc          page.Document // its Structure tells structural changes from textual ones
	FetchedAt    time.Time     // when it was fetched (set by Load)
}

// current reports whether this code read the stored copy (page.Version):
// only then may it stand in for the page unchanged.
func (s Stored) current() bool { return s.Doc.Version == page.Version }

// extractDigest identifies the settings that extraction results depend on,
// so stored links are reused only under the same topics, scope and
// strategy.
func (c *crawler) extractDigest() string {
	b, _ := json.Marshal(struct {
		Topics     [][]string
		Scope      page.Scope
		Hosts      []string
		Strategy   page.Strategy
		Relevance  []string // what relevance is measured against
		TopicTexts []string
		KeepText   bool `json:",omitempty"`
		Feedback   bool `json:",omitempty"`
	}{c.extract.Topics.Phrases(), c.cfg.Scope, c.hosts[1:], c.cfg.Strategy, c.cfg.Topics, c.cfg.TopicTexts, c.cfg.KeepText, c.cfg.TopicFeedback})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

package crawl

import (
	"time"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

// Progress is a snapshot of a running crawl. Its counts are the tally
// of the vertices so far, the same tally the run's manifest is made of.
type Progress struct {
	Tally
	// Done is the vertices whose fetch has an outcome (every state but
	// not_fetched): never more than Vertices, which is at most Max.
	Done, Vertices, Max, Queued int
	Elapsed                     time.Duration
}

// Page is one vertex of the crawl and the outcome of its fetch.
type Page struct {
	Key         string  // vertex name: "/wiki/Title", canonical once fetched
	Discovered  string  // the key it was discovered as, if a redirect renamed it
	DuplicateOf string  // in Result.Merged: the vertex whose article this was
	Weight      float64 // weight when queued
	Seq         int     // when the crawl loop took it: 1 for the first page processed
	State       FetchState
	Status      int    // last HTTP status, 0 if none
	Class       string // error class, "" for a usable page
	Error       string
	Bytes       int
	Attempts    int
	Duration    time.Duration
	FetchedAt   time.Time
	Title       string
	ContentHash string // page.ContentHashPrefix + the digest of what was read (page.Document.Content)
	Links       int    // distinct article links on the page
	// Relevance is the judged chance that a person calls the page about
	// the topic (text.Judge); Relevant says it reached the threshold.
	Relevance float64
	Relevant  bool
	// TopicWords are the topic words the page holds (the words behind
	// its relevance).
	TopicWords []string
	Replayed   bool // taken from an interrupted run's state, not fetched again
	// Carried says a budgeted re-crawl kept the stored copy (FetchedAt is
	// then when it was fetched); Revisit says why the page was fetched or
	// not: "new", "all", "carried", "budget" or the plan's reason.
	Carried bool
	Revisit string
	// LastModified is the page's Last-Modified header, as its answer (or
	// the stored copy's) gave it.
	LastModified string
	// StructureChanged reports that the page's elements differ from the
	// stored page's: a structural change, where a new ContentHash alone
	// may be a textual one.
	StructureChanged bool
	// Depth is the page's link distance from the nearest seed, along the
	// links followed before it was fetched (exact for a bfs crawl).
	Depth int
	Text  string // the article's text, with Config.KeepText
	// Downloaded is the body bytes this run read for the page: 0 for a
	// 304 or a page replayed from the state, where Bytes is the stored
	// page's size.
	Downloaded int
	// Identity is what the page says of itself (page id, revision,
	// Wikidata item, categories): this run's answer's, or for a 304, a
	// carried or a replayed page, the stored copy's.
	page.Identity
	// Edited says the revision differs from the one the page's previous
	// visit read: true or false when both are known and the page was
	// visited (fetched, or a 304: false), nil otherwise.
	Edited *bool
}

// Edge is a directed edge between vertex ids (indexes into Result.Pages).
type Edge struct{ From, To uint32 }

// Result is a finished crawl.
type Result struct {
	Pages []Page // indexed by vertex id: discovery order
	Edges []Edge // in the order the BFS recorded them
	// Merged are pages fetched under a redirect title whose canonical
	// article was already a vertex: they were folded into that vertex.
	Merged   []Page
	Complete bool // false when a seed failed or the crawl was interrupted
	// Judged says pages were judged for relevance (the crawl has a topic).
	Judged   bool
	Problems []string
	// Requests counts every request the crawl sent (robots.txt, retries,
	// redirects, pages fetched ahead and never used), by the status of its
	// answer (0: no answer: a reset, a time-out, a cancellation), as the
	// host saw them. Downloaded is the body bytes robots.txt took; the
	// pages' own are per page.
	Requests   map[int]int
	Downloaded int
	Started    time.Time
	Robots     string // how robots.txt was read: "ok", "allow-all (404)", ...
	// Spent is the requests a budgeted re-crawl has spent, those of the
	// run it resumes included.
	Spent int
	// FeedbackTerms are the terms relevance feedback added to the topic.
	FeedbackTerms []string
	// AdmittedBy counts best-first admissions by where their priority
	// came from (FromMemory, FromModel, FromExploration); nil without a
	// state that remembers.
	AdmittedBy map[string]int
}

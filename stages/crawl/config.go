package crawl

import (
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/learn"
	"github.com/topicrank/topicrank/stages/crawl/page"
)

// Config describes one crawl.
type Config struct {
	BaseURL string   // where pages are fetched, e.g. https://en.wikipedia.org
	Hosts   []string // further hosts whose absolute links are the job's own
	Seeds   []string // "/wiki/Title" paths
	Topics  []string
	// TopicTexts are further texts of the topic (the article text of the
	// job's topic pages), for relevance and the similarity strategy.
	TopicTexts []string
	Weighted   bool // false: every link weighs 0, whatever the strategy
	Strategy   page.Strategy
	Admission  Admission
	// MaxFrontier bounds best-first admission's frontier (<= 0: 100 times
	// MaxPages).
	MaxFrontier int
	// RelevanceThreshold is the relevance at which a page counts as
	// relevant (harvest rate).
	RelevanceThreshold float64
	MaxPages           int
	Scope              page.Scope
	MaxRPS             float64 // request starts per second to the host (<= 0: no limit)
	Concurrency        int     // requests in flight to the host
	Fetch              FetchOptions
	Politeness         *Politeness    // the process-wide registry; nil: a private one
	Progress           func(Progress) // called after each page, from the crawl loop
	State              State          // nil: no state across runs
	Log                *slog.Logger   // nil: slog.Default()
	// KeepText keeps each page's article text (Page.Text).
	KeepText bool
	// MaxDepth, if positive, admits only pages at most this many links
	// from the nearest seed (Page.Depth); Include and Exclude, if set,
	// admit only pages whose decoded title matches one of Include and
	// none of Exclude. Seeds are always admitted.
	MaxDepth         int
	Include, Exclude []*regexp.Regexp
	// TopicFeedback turns relevance feedback on (feedback.go), with at
	// most FeedbackTerms terms added (0: the default) weighing
	// FeedbackWeight in a link's priority (0: the default).
	TopicFeedback  bool
	FeedbackTerms  int
	FeedbackWeight float64
	// Oracle, if set, gives every link the true relevance of its target
	// (0 for a target it lacks), whatever the strategy: the evaluation's
	// ceiling (pipeline/evaluate), never a job's setting.
	Oracle map[string]float64
	// Judge, if set, is every fetched page's relevance by its key (0 for
	// a page it lacks), in place of what the page shows: people's labels
	// as a perfect judge, the evaluation's way to tell a judge's share of
	// a crawl's misses from its links' (pipeline/evaluate), never a job's
	// setting.
	Judge map[string]float64
	// MaxTunnel, if set, lets a path pass through at most that many
	// irrelevant pages in a row before the links it finds lose priority
	// (×TunnelPenalty per page beyond); nil: no limit.
	MaxTunnel *int
	// RecheckMissing is how long a page that answered 404 or 410 is not
	// requested again: its last answer is replayed from the state
	// (0: every run asks again).
	RecheckMissing time.Duration
	// Revisit, if set (with State), makes the crawl a budgeted re-crawl.
	Revisit *Revisit
	// LinkPrior, if set, starts the learned strategy's model of a
	// best-first crawl that has no model of its own yet (a new topic's
	// first night) from a prior learned across topics (learn.Shipped).
	LinkPrior *learn.Prior
	// ExploreShare is the share of MaxPages that best-first admission
	// with memory keeps for pages ranked by the strategy alone: memory
	// ranks at most the rest (memory.go).
	ExploreShare float64
	// Beyond is how many pages a best-first night with memory judges
	// beyond its graph for the next night (judgeBeyond; BeyondFor
	// gives a job's); 0 for a crawl no night
	// follows.
	Beyond int
}

// Admission says when a discovered page becomes a vertex (DESIGN.md,
// "Admission").
type Admission int

const (
	// AdmitDiscovery makes a page a vertex when it is first discovered:
	// the reference behaviour.
	AdmitDiscovery Admission = iota
	// AdmitBestFirst makes the first MaxPages pages extracted from the
	// frontier the vertices: the focused crawler of the literature.
	AdmitBestFirst
)

// Admissions are the admissions' names, in the order of their constants.
var Admissions = []string{"discovery", "best-first"}

func (a Admission) String() string { return Admissions[a] }

// ParseAdmission returns the admission a jobs.yaml name stands for.
func ParseAdmission(name string) (Admission, error) {
	if i := slices.Index(Admissions, name); i >= 0 {
		return Admission(i), nil
	}
	return 0, fmt.Errorf("unknown admission %q: want one of %s", name, strings.Join(Admissions, ", "))
}

// Package pipeline runs topicrank jobs: it reads jobs.yaml, calls the
// stages in order (crawl -> graph -> rank -> publish), publishes each run
// atomically with its manifest, and schedules jobs on their cron
// expressions. Stages never call back into it.
package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/topicrank/topicrank/pipeline/notify"
	"os"
	"time"

	"gopkg.in/yaml.v3"
)

// Job is one fully merged and validated job of jobs.yaml.
type Job struct {
	Name        string   `json:"name"`
	Schedule    string   `json:"schedule,omitempty"`
	Timezone    string   `json:"timezone"` // the schedule's IANA zone; default UTC
	Seeds       []string `json:"seeds"`
	Topics      []string `json:"topics"`
	Weighted    bool     `json:"weighted"`
	LinkScope   string   `json:"link_scope"`
	Strategy    string   `json:"strategy"`
	Admission   string   `json:"admission"`
	MaxFrontier int      `json:"max_frontier,omitempty"` // best-first frontier bound; 0: 100 × max_pages
	// RelevanceThreshold is the relevance from which a page is relevant.
	RelevanceThreshold float64 `json:"relevance_threshold"`
	// TopicPages are files (HTML pages or plain text) whose text joins the
	// topic words, resolved against jobs.yaml's directory.
	TopicPages  []string  `json:"topic_pages,omitempty"`
	MaxPages    int       `json:"max_pages"`
	BaseURL     string    `json:"base_url"`
	UserAgent   string    `json:"user_agent"`
	Epsilons    []float64 `json:"epsilons"`
	Beta        float64   `json:"beta"`
	MaxRPS      float64   `json:"max_rps"`
	Concurrency int       `json:"concurrency"`
	Keep        int       `json:"keep"` // published runs kept; 0 keeps all
	// FeedEntries bounds outputs/<job>/feed.atom: its newest runs.
	FeedEntries int `json:"feed_entries"`
	// Notify are the job's webhooks (their URLs redacted in JSON), each
	// message delivered within NotifyTimeout.
	Notify        []notify.Hook `json:"notify,omitempty"`
	NotifyTimeout time.Duration `json:"notify_timeout"`
	// StateDir, when set, holds the crawl state (<state_dir>/<job>/) instead
	// of the job's output directory: local disk when outputs are on shared
	// storage, where SQLite must not be.
	StateDir string `json:"state_dir,omitempty"`
	// NearDuplicateThreshold is the estimated Jaccard similarity of word
	// 5-shingles from which a page is a near-duplicate of an earlier one.
	NearDuplicateThreshold float64 `json:"near_duplicate_threshold,omitempty"`
	// MaxDepth (0: none) admits only pages at most this many links from
	// the nearest seed; Include and Exclude are Go regexps on the decoded
	// title that a page must match (one of) and must not match.
	MaxDepth int      `json:"max_depth,omitempty"`
	Include  []string `json:"include,omitempty"`
	Exclude  []string `json:"exclude,omitempty"`
	// RecheckMissing is how long a page that answered 404 or 410 is not
	// requested again (its answer replayed from the crawl state); 0: every
	// run asks again.
	RecheckMissing time.Duration `json:"recheck_missing"`
	// Revisit is the revisit policy (package revisit; "" is all); a budget
	// bounds each run's requests (MaxRequests) and time (MaxDuration);
	// NewShare is the budget's share kept for pages never fetched.
	// MaxTunnel (nil: none) is how many irrelevant pages in a row a path
	// may pass through before the links it finds lose priority.
	MaxTunnel *int `json:"max_tunnel,omitempty"`
	// TopicFeedback turns relevance feedback on: FeedbackTerms terms at
	// most (0: 20), weighing FeedbackWeight in link priorities (0: 0.3).
	TopicFeedback  bool    `json:"topic_feedback,omitempty"`
	FeedbackTerms  int     `json:"feedback_terms,omitempty"`
	FeedbackWeight float64 `json:"feedback_weight,omitempty"`
	// GlobalRanks is a ranks table of the whole wiki (rank -dump -out),
	// set beside the job's ranks (global_rank, global_position).
	GlobalRanks string        `json:"global_ranks,omitempty"`
	Revisit     string        `json:"revisit,omitempty"`
	MaxRequests int           `json:"max_requests,omitempty"`
	MaxDuration time.Duration `json:"max_duration,omitempty"`
	NewShare    *float64      `json:"new_share,omitempty"`
	// SearchIndex false publishes runs without a search index (nil: with
	// one): for jobs that only want ranks and tables.
	SearchIndex *bool `json:"search_index,omitempty"`
	Line        int   `json:"-"` // where the job starts in jobs.yaml
}

// Indexed reports whether the job's runs get a search index.
func (j Job) Indexed() bool { return j.SearchIndex == nil || *j.SearchIndex }

// Digest is a stable hash of the job's settings, recorded in manifests so
// that runs made with different settings can be told apart.
func (j Job) Digest() string {
	b, _ := json.Marshal(j)
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Config is a parsed jobs.yaml.
type Config struct {
	Path string
	Jobs []Job
	// MaxParallelJobs bounds the runs `runner schedule` has going at once
	// (top-level max_parallel_jobs; default 1: jobs on one host share its
	// politeness budget, so running them side by side gains nothing).
	MaxParallelJobs int
	// Warnings are what is valid but likely not meant (a job without
	// topics, a seed or topic given twice), each with file:line.
	Warnings []string
}

// DefaultMaxParallelJobs is max_parallel_jobs when jobs.yaml does not say.
const DefaultMaxParallelJobs = 1

// Job returns the named job.
func (c *Config) Job(name string) (Job, bool) {
	for _, j := range c.Jobs {
		if j.Name == name {
			return j, true
		}
	}
	return Job{}, false
}

// LoadConfig reads and validates a jobs.yaml file.
func LoadConfig(path string) (*Config, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, &Error{Op: "config", Kind: Invalid, Err: fmt.Errorf(
			"%s is a folder, not a file: name the file itself (a folder mounted where jobs.yaml was meant? mount the file, or its folder and -config FOLDER/jobs.yaml)", path)}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{Op: "config", Kind: Invalid, Err: err}
	}
	return ParseConfig(path, b)
}

// ParseConfig decodes jobs.yaml strictly: unknown keys, wrong types and
// invalid values are errors naming the file, line, job and field. All
// problems are reported at once, joined.
func ParseConfig(path string, data []byte) (*Config, error) {
	d := &decoder{file: path}
	cfg := &Config{Path: path, MaxParallelJobs: DefaultMaxParallelJobs}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, &Error{Op: "config", Kind: Invalid, Err: syntaxError(path, data, err)}
	}
	if len(root.Content) == 0 {
		return nil, &Error{Op: "config", Kind: Invalid, Err: fmt.Errorf("%s: empty file: want defaults and jobs", path)}
	}
	defaults := builtinDefaults()
	var jobNodes []*yaml.Node
	d.mapping(root.Content[0], "", map[string]func(*yaml.Node){
		"defaults": func(n *yaml.Node) { d.settings(n, "defaults", &defaults) },
		"max_parallel_jobs": func(n *yaml.Node) {
			if d.decode(n, "", "max_parallel_jobs", &cfg.MaxParallelJobs) && (cfg.MaxParallelJobs < 1 || cfg.MaxParallelJobs > 64) {
				d.errorf(n, "", "max_parallel_jobs", "%d must be between 1 and 64", cfg.MaxParallelJobs)
			}
		},
		"jobs": func(n *yaml.Node) {
			if n.Kind != yaml.SequenceNode {
				d.errorf(n, "", "jobs", "want a list of jobs")
				return
			}
			jobNodes = n.Content
		},
	})
	if jobNodes == nil && len(d.errs) == 0 {
		d.errorf(root.Content[0], "", "jobs", "no jobs: add at least one under jobs:")
	}
	seen := map[string]int{}
	for _, n := range jobNodes {
		j := d.job(n, defaults)
		if first, dup := seen[j.Name]; dup && j.Name != "" {
			d.errorf(n, jobCtx(j.Name), "name", "duplicate job name (first at line %d)", first)
		}
		seen[j.Name] = n.Line
		cfg.Jobs = append(cfg.Jobs, j)
	}
	if len(d.errs) > 0 {
		return nil, &Error{Op: "config", Kind: Invalid, Err: errors.Join(d.errs...)}
	}
	cfg.Warnings = d.warnings
	return cfg, nil
}

// Limits are the bounds validate enforces, so that no value in jobs.yaml
// can defeat politeness or exhaust memory: a max_rps of 1e-10 would
// overflow the gap between requests into no limit at all.
var Limits = struct {
	MaxPages, MaxFrontier, Seeds, Topics, Epsilons int
	MinRPS, MaxRPS, MinEpsilon                     float64
}{
	MaxPages: 10_000_000, MaxFrontier: 100_000_000, Seeds: 10_000, Topics: 1_000, Epsilons: 32,
	MinRPS: 0.01, MaxRPS: 1000, MinEpsilon: 1e-15,
}

// DefaultRelevanceThreshold is the relevance from which a page counts as
// relevant when a job does not say. Relevance is the judge's estimate of
// the chance that a person calls the page at least partly about the topic
// (stages/text.Judge); F1 against people's labels peaks near a
// one-in-four chance on topics left out of the judge's fit
// (docs/relevance.md).
const DefaultRelevanceThreshold = 0.25

// DefaultRecheckMissing is recheck_missing's default: a week.
const DefaultRecheckMissing = 7 * 24 * time.Hour

// DefaultNearDuplicateThreshold is near_duplicate_threshold's default.
const DefaultNearDuplicateThreshold = 0.9

func builtinDefaults() Job {
	return Job{
		BaseURL: "https://en.wikipedia.org", Epsilons: []float64{0.01, 0.005}, Beta: 0.85,
		MaxPages: 1000, MaxRPS: 2, Concurrency: 2, Weighted: true, LinkScope: "prose",
		Strategy: "weighted", Admission: "discovery", RelevanceThreshold: DefaultRelevanceThreshold,
		Timezone: "UTC", NearDuplicateThreshold: DefaultNearDuplicateThreshold, RecheckMissing: DefaultRecheckMissing,
		FeedEntries: DefaultFeedEntries, NotifyTimeout: DefaultNotifyTimeout,
	}
}

// MaxJobName bounds a job's name: it names the job's folder and, with a
// suffix, files in it and beside it (crawl-state.sqlite.lock; state_dir's
// <job>/; evaluate's <job>/<strategy>.sqlite), and a file system's names
// end at 255 bytes.
const MaxJobName = 100

// DefaultNotifyTimeout bounds a webhook's delivery, retries included:
// short, since a receiver that is down for longer misses one message, and
// a one-shot run waits for deliveries before its process exits.
// MaxNotifyTimeout bounds notify_timeout.
const (
	DefaultNotifyTimeout = 30 * time.Second
	MaxNotifyTimeout     = 10 * time.Minute
)

// DefaultFeedEntries is feed_entries' default: about seven weeks of nights.
// MaxFeedEntries bounds it: a feed reader fetches the whole file.
const (
	DefaultFeedEntries = 50
	MaxFeedEntries     = 1000
)

package pipeline

import (
	"github.com/topicrank/topicrank/pipeline/notify"
	"net/http"
	"strconv"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
)

// Run statuses recorded in manifest.json.
const (
	StatusComplete = "complete" // every stage finished; LATEST points here
	StatusPartial  = "partial"  // published, but the crawl was cut short
)

// Manifest is manifest.json: what a run did and every file it wrote.
type Manifest struct {
	Job           string `json:"job"`
	RunID         string `json:"run_id"`
	PreviousRunID string `json:"previous_run_id,omitempty"` // what changes are measured against
	// Notifications are the outcomes of the webhook messages of earlier
	// runs that arrived since the job's last run (delivery never delays a
	// publication, so a run's own are in the next run's manifest).
	Notifications []notify.Delivery  `json:"notifications,omitempty"`
	ResumedFrom   string             `json:"resumed_from,omitempty"` // the interrupted run whose pages were replayed
	Status        string             `json:"status"`
	Version       string             `json:"topicrank_version"`
	Problems      []string           `json:"problems,omitempty"`
	ConfigDigest  string             `json:"config_digest"`
	Config        Job                `json:"config"`
	FetchedFrom   string             `json:"fetched_from"`
	Started       time.Time          `json:"started"`
	Finished      time.Time          `json:"finished"`
	StageSeconds  map[string]float64 `json:"stage_seconds"`
	// StageCPUSeconds is the process's CPU time (user and system) in each
	// stage: with other jobs running at once, theirs is counted too.
	StageCPUSeconds map[string]float64 `json:"stage_cpu_seconds,omitempty"`
	Counts          Counts             `json:"counts"`
	Robots          string             `json:"robots"`
	Merged          []string           `json:"merged,omitempty"` // "redirect title -> article"
	Ranks           []RankSummary      `json:"ranks"`
	// FeedbackTerms are the terms relevance feedback added to the topic.
	FeedbackTerms []string `json:"feedback_terms,omitempty"`
	// AdmittedBy counts a best-first crawl's vertices by what ranked them:
	// memory (what earlier nights judged), the model (the strategy, for a
	// page fetched before), exploration (a page never fetched before).
	AdmittedBy map[string]int `json:"admitted_by,omitempty"`
	// Revisit is a budgeted re-crawl's policy and budget (absent for
	// revisit: all without a budget).
	Revisit *RevisitSummary `json:"revisit,omitempty"`
	Files   []publish.File  `json:"files"`
}

// Counts are the sizes of a run. Every page count is a tally of the
// run's vertices by fetch state (crawl.Tally), so the manifest,
// runs.parquet, the metrics, the progress line, the report and
// pages.parquet's fetch_state column cannot disagree.
type Counts struct {
	Vertices int `json:"vertices"`
	Edges    int `json:"edges"`
	crawl.Tally
	// Judged is the pages whose text was judged this run (fetched,
	// not_modified, carried, replayed); HarvestRate is Relevant / Judged
	// (absent without a topic).
	Judged      int      `json:"judged"`
	HarvestRate *float64 `json:"harvest_rate,omitempty"`
	Changed     int      `json:"changed"` // pages whose content changed since the last run
	// Churn compares the vertices with the previous complete run's
	// (absent without one).
	Churn    *publish.Churn `json:"churn,omitempty"`
	NotFound int            `json:"not_found"` // failed pages that answered 404 or 410
	// StructureChanged pages have other elements than when last stored.
	StructureChanged int `json:"structure_changed"`
	// Requests counts every request sent (robots.txt, retries, redirects,
	// pages fetched ahead and not used), RequestsByStatus the same by
	// the answer's status ("0": no answer); BytesDownloaded is the
	// response body bytes read.
	Requests         int            `json:"requests"`
	RequestsByStatus map[string]int `json:"requests_by_status"`
	BytesDownloaded  int64          `json:"bytes_downloaded"`
	// Outcomes is read from manifests of versions before fetch states
	// (pages per error class, "ok" for none) and never written.
	Outcomes map[string]int `json:"outcomes,omitempty"`
}

// RankSummary is PageRank's convergence for one epsilon.
type RankSummary struct {
	Epsilon    float64 `json:"epsilon"`
	Iterations int     `json:"iterations"`
	Residual   float64 `json:"residual"`
	Converged  bool    `json:"converged"`
}

// timed runs f as the named stage, recording its wall and CPU seconds.
// The manifest is written inside the publish stage, so that stage times
// the writing of tables and index, not its own publication.
func (m *Manifest) timed(name string, f func()) {
	t, cpu := time.Now(), cpuSeconds()
	f()
	m.StageSeconds[name] = time.Since(t).Seconds()
	m.StageCPUSeconds[name] = cpuSeconds() - cpu
}

// record fills in what the stages produced.
func (m *Manifest) record(res *crawl.Result, g *graph.Graph, ranks []rank.Result, prev *publish.Previous) {
	m.Robots, m.FeedbackTerms, m.AdmittedBy = res.Robots, res.FeedbackTerms, res.AdmittedBy
	for _, p := range res.Merged {
		m.Merged = append(m.Merged, p.Key+" -> "+p.DuplicateOf)
	}
	m.Counts = countPages(res, prev)
	m.Counts.Edges = g.NumEdges()
	if prev != nil {
		m.PreviousRunID = prev.RunID
	}
	for _, r := range ranks {
		m.Ranks = append(m.Ranks, RankSummary{r.Epsilon, r.Iterations, r.Residual, r.Converged})
	}
	if !res.Complete {
		m.Status, m.Problems = StatusPartial, res.Problems
	}
}

func countPages(res *crawl.Result, prev *publish.Previous) Counts {
	c := Counts{Vertices: len(res.Pages), Tally: crawl.CountPages(res.Pages), RequestsByStatus: map[string]int{}}
	if c.FailedByClass == nil {
		c.FailedByClass = map[string]int{}
	}
	c.Judged = c.Tally.Judged()
	if res.Judged && c.Judged > 0 {
		h := c.Harvest()
		c.HarvestRate = &h
	}
	for status, n := range res.Requests {
		c.Requests += n
		c.RequestsByStatus[strconv.Itoa(status)] += n
	}
	c.BytesDownloaded = int64(res.Downloaded)
	if prev != nil {
		keys := make([]string, len(res.Pages))
		for i, p := range res.Pages {
			keys[i] = p.Key
		}
		was := make(map[string]bool, len(prev.InDegree))
		for k := range prev.InDegree {
			was[k] = true
		}
		ch := publish.CompareVertices(was, keys)
		c.Churn = &ch
	}
	for _, p := range res.Pages {
		if p.State == crawl.Failed && (p.Status == http.StatusNotFound || p.Status == http.StatusGone) {
			c.NotFound++
		}
		c.BytesDownloaded += int64(p.Downloaded)
		if p.StructureChanged {
			c.StructureChanged++
		}
		if prev == nil {
			continue
		}
		if changed, _ := page.ContentChanged(prev.Hashes[p.Key], p.ContentHash); changed {
			c.Changed++
		}
	}
	return c
}

// upgrade fills the fetch-state counts of a manifest written before
// them from its old counts: "fetched" then meant every usable page, and
// "outcomes" gave pages per error class, "budget" being pages a budget
// left unrequested. Carried pages were counted as fetched, so they stay
// there; requests by status are unknown.
func (c *Counts) upgrade() {
	if c.Outcomes == nil || c.FailedByClass != nil || c.Judged != 0 {
		return
	}
	c.Judged = c.Fetched
	c.Fetched = max(c.Fetched-c.NotModified-c.Replayed, 0)
	c.Failed = 0
	for class, n := range c.Outcomes {
		switch class {
		case "ok":
		case crawl.ClassBudget:
			c.NotFetched += n
		default:
			if c.FailedByClass == nil {
				c.FailedByClass = map[string]int{}
			}
			c.FailedByClass[class] += n
			c.Failed += n
		}
	}
	c.Outcomes = nil
}

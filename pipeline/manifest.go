package pipeline

import (
	"net/http"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
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
	Job           string             `json:"job"`
	RunID         string             `json:"run_id"`
	PreviousRunID string             `json:"previous_run_id,omitempty"` // what changes are measured against
	ResumedFrom   string             `json:"resumed_from,omitempty"`    // the interrupted run whose pages were replayed
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
	// Revisit is a budgeted re-crawl's policy and budget (absent for
	// revisit: all without a budget).
	Revisit *RevisitSummary `json:"revisit,omitempty"`
	Files   []publish.File  `json:"files"`
}

// Counts are the sizes of a run.
type Counts struct {
	Vertices int            `json:"vertices"`
	Edges    int            `json:"edges"`
	Fetched  int            `json:"fetched"`   // pages that gave usable HTML
	Failed   int            `json:"failed"`    // pages that did not
	Outcomes map[string]int `json:"outcomes"`  // pages per error class ("ok" for none)
	Changed  int            `json:"changed"`   // pages whose content changed since the last run
	NotFound int            `json:"not_found"` // pages that answered 404 or 410
	// Relevant fetched pages reached the job's relevance threshold;
	// HarvestRate is Relevant / Fetched (absent without a topic).
	Relevant    int      `json:"relevant"`
	HarvestRate *float64 `json:"harvest_rate,omitempty"`
	// NotModified pages answered 304 to a conditional request; Replayed
	// pages came from an interrupted run's state; StructureChanged pages
	// have other elements than when last stored.
	NotModified      int `json:"not_modified"`
	Replayed         int `json:"replayed"`
	StructureChanged int `json:"structure_changed"`
	// Requests counts the requests made (robots.txt and retries
	// included); BytesDownloaded the response body bytes read.
	Requests        int   `json:"requests"`
	BytesDownloaded int64 `json:"bytes_downloaded"`
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
	m.Robots, m.FeedbackTerms = res.Robots, res.FeedbackTerms
	for _, p := range res.Merged {
		m.Merged = append(m.Merged, p.Key+" -> "+p.DuplicateOf)
	}
	m.Counts = countPages(res.Pages, prev)
	m.Counts.Requests += res.Requests
	m.Counts.BytesDownloaded += int64(res.Downloaded)
	if res.Judged && m.Counts.Fetched > 0 {
		h := float64(m.Counts.Relevant) / float64(m.Counts.Fetched)
		m.Counts.HarvestRate = &h
	}
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

func countPages(pages []crawl.Page, prev *publish.Previous) Counts {
	c := Counts{Vertices: len(pages), Outcomes: map[string]int{}}
	for _, p := range pages {
		class := p.Class
		if class == "" {
			class = "ok"
			c.Fetched++
		} else {
			c.Failed++
		}
		c.Outcomes[class]++
		if p.Relevant {
			c.Relevant++
		}
		if p.Status == http.StatusNotFound || p.Status == http.StatusGone {
			c.NotFound++
		}
		if p.Status == http.StatusNotModified {
			c.NotModified++
		}
		if p.Replayed {
			c.Replayed++
		}
		c.Requests += p.Attempts
		c.BytesDownloaded += int64(p.Downloaded)
		if p.StructureChanged {
			c.StructureChanged++
		}
		if prev == nil {
			continue
		}
		if h, ok := prev.Hashes[p.Key]; ok && p.ContentHash != "" && h != p.ContentHash {
			c.Changed++
		}
	}
	return c
}

// Package evaluate measures how well crawl strategies keep to a job's
// topic: it crawls the job once per strategy from the same seeds and base
// URL, judges every fetched page by its relevance (package text, never the
// weights the strategy used) and reports each crawl's harvest rate, how it
// grew page by page, and how far the strategies agree on the top pages.
package evaluate

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
)

// TopK is the size of the PageRank top lists compared between strategies.
const TopK = 20

// Report is an evaluation: one harvest per strategy, in the order asked.
type Report struct {
	Job       string
	RunID     string // the UTC start, like a run's
	Admission string
	MaxPages  int
	Threshold float64 // the relevance threshold pages were judged by
	Harvests  []publish.Harvest
	Top       map[string][]string // each strategy's top pages by PageRank
	// Nights is the nights per strategy of an evaluation of nights
	// (EvaluateNights; 0 for one crawl per strategy).
	Nights int
	// Labelled says the crawls were judged by people's labels: People
	// holds each harvest's judgment, in the order of Harvests.
	Labelled bool
	People   []Judged
	// LabelJudge says the crawls judged their pages by people's labels,
	// not by the judge (Truth.LabelJudge).
	LabelJudge bool
}

// judgedBy says how the report's crawls judged their pages relevant.
func (r *Report) judgedBy() string {
	if r.LabelJudge {
		return "relevant: labelled at least 1 by people (-label-judge)"
	}
	return fmt.Sprintf("relevant: relevance >= %g", r.Threshold)
}

// add appends a crawl's harvest and what people's labels say of it.
func (r *Report) add(h publish.Harvest, j Judged) {
	r.Harvests = append(r.Harvests, h)
	r.People = append(r.People, j)
}

// Evaluate crawls job once per strategy (names as in jobs.yaml, or Oracle
// with oracle, the true relevance of each page: LoadOracle) with the given
// admission ("" keeps the job's). Crawls keep no state: each starts
// afresh, so no strategy profits from another's fetches.
func Evaluate(ctx context.Context, r *pipeline.Runner, job pipeline.Job, strategies []string, admission string, truth Truth, log *slog.Logger) (*Report, error) {
	rep, err := newReport(job, strategies, admission, truth)
	if err != nil {
		return nil, err
	}
	for _, s := range strategies {
		j := job
		j.Name, j.Strategy, j.Admission, j.Weighted = job.Name+"/"+s, s, rep.Admission, true
		h, top, res, err := crawlOnce(ctx, r, j, truth, nil, log.With("strategy", s))
		if err != nil {
			return nil, err
		}
		h.Strategy = s
		rep.add(h, judge(res, truth.Labels))
		rep.Top[s] = top
	}
	for i := range rep.Harvests {
		h := &rep.Harvests[i]
		h.Overlap = map[string]int{}
		for _, o := range rep.Harvests {
			h.Overlap[o.Strategy] = overlap(rep.Top[h.Strategy], rep.Top[o.Strategy])
		}
	}
	return rep, rep.crawled()
}

// newReport checks an evaluation's strategies and admission ("" keeps
// the job's) and starts its report.
func newReport(job pipeline.Job, strategies []string, admission string, truth Truth) (*Report, error) {
	if admission == "" {
		admission = job.Admission
	}
	if _, err := crawl.ParseAdmission(admission); err != nil {
		return nil, err
	}
	if truth.LabelJudge && (truth.Labels == nil || job.RelevanceThreshold <= 0) {
		return nil, fmt.Errorf("judging pages by people's labels needs the labels and a relevance threshold above 0 (job %q: %g)",
			job.Name, job.RelevanceThreshold)
	}
	for _, s := range strategies {
		if s == Oracle && truth.oracle() == nil {
			return nil, fmt.Errorf("the oracle needs the true relevance of the pages: give people's labels (-labels) or the corpus the mirror serves")
		}
		if _, err := page.ParseStrategy(s); err != nil && s != Oracle {
			return nil, err
		}
	}
	if len(job.Topics) == 0 && len(job.TopicPages) == 0 {
		return nil, fmt.Errorf("job %q has no topics or topic_pages: there is nothing to judge relevance by", job.Name)
	}
	return &Report{Job: job.Name, RunID: time.Now().UTC().Format("20060102T150405Z"), Admission: admission,
		MaxPages: job.MaxPages, Threshold: job.RelevanceThreshold, Top: map[string][]string{}, Labelled: truth.Labels != nil,
		LabelJudge: truth.LabelJudge}, nil
}

// crawlOnce crawls with one strategy (with state, if not nil: a night of
// a job's nights) and measures the crawl.
func crawlOnce(ctx context.Context, r *pipeline.Runner, job pipeline.Job, truth Truth, state crawl.State, log *slog.Logger) (publish.Harvest, []string, *crawl.Result, error) {
	oracle := job.Strategy == Oracle
	if oracle {
		job.Strategy = "similarity" // its links' priorities are the truth's
	}
	cfg, err := r.CrawlConfig(job, log)
	if err != nil {
		return publish.Harvest{}, nil, nil, err
	}
	if oracle {
		cfg.Oracle = truth.oracle()
	}
	if truth.LabelJudge {
		cfg.Judge = truth.judge(cfg.RelevanceThreshold)
	}
	cfg.State = state
	start := time.Now()
	res, err := crawl.Crawl(ctx, cfg)
	if err != nil {
		return publish.Harvest{}, nil, nil, err
	}
	if !res.Complete {
		log.Warn("crawl incomplete", "problems", res.Problems)
		if ctx.Err() != nil {
			return publish.Harvest{}, nil, nil, ctx.Err()
		}
	}
	h := measure(res)
	h.Admission = job.Admission
	h.Seconds = time.Since(start).Seconds()
	g, err := pipeline.BuildGraph(res)
	if err != nil {
		return publish.Harvest{}, nil, nil, err
	}
	ranks := rank.PageRank(g, job.Beta, job.Epsilons[:1])
	var top []string
	for _, v := range rank.TopKNamed(ranks[0].Ranks, TopK, g.Name) {
		top = append(top, g.Name(v))
	}
	log.Info("strategy crawled", "pages", h.Pages, "fetched", h.Fetched, "relevant", h.Relevant,
		"harvest", h.Rate(), "not_found", h.NotFound, "seconds", h.Seconds)
	return h, top, res, nil
}

// measure counts a crawl's outcomes and its harvest curve, pages taken in
// the order the crawl fetched them.
func measure(res *crawl.Result) publish.Harvest {
	h := publish.Harvest{Pages: len(res.Pages)}
	pages := slices.Clone(res.Pages)
	slices.SortFunc(pages, func(a, b crawl.Page) int { return a.Seq - b.Seq })
	for _, p := range pages {
		if p.Status == http.StatusNotFound || p.Status == http.StatusGone {
			h.NotFound++
		}
		switch {
		case p.State == crawl.Failed:
			h.Failed++
			continue
		case !p.State.Usable(): // never requested
			continue
		}
		h.Fetched++
		if p.Relevant {
			h.Relevant++
		}
		h.Curve = append(h.Curve, h.Relevant)
	}
	return h
}

// overlap counts the pages two top lists share.
func overlap(a, b []string) int {
	n := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			n++
		}
	}
	return n
}

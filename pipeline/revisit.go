package pipeline

import (
	"math"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/store"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/revisit"
)

// RevisitSummary is the manifest's account of a budgeted re-crawl: the
// policy and budget, what the budget bought and what it left.
type RevisitSummary struct {
	Policy      string  `json:"policy"`
	MaxRequests int     `json:"max_requests,omitempty"`
	MaxDuration string  `json:"max_duration,omitempty"`
	NewShare    float64 `json:"new_share"`
	Tick        int     `json:"tick"`          // the revisit clock: runs of the job before this one
	Planned     int     `json:"planned"`       // known pages the policy chose, in order
	Requests    int     `json:"requests_used"` // of the budget, those of a resumed run included
	Revisited   int     `json:"revisited"`     // known pages fetched again
	New         int     `json:"new"`           // pages fetched for the first time
	Carried     int     `json:"carried"`       // known pages kept unvisited, with their stored copy
	Deferred    int     `json:"deferred"`      // new pages left for the next run: no request was left
}

// newShare is the job's new_share, or the default.
func (j Job) newShare() float64 {
	if j.NewShare != nil {
		return *j.NewShare
	}
	return revisit.DefaultNewShare
}

// planRevisit plans the run's revisits from the state's histories, or
// returns nil when every page is fetched as always (revisit: all without
// a budget).
func planRevisit(job Job, st *store.Store, start time.Time) (*crawl.Revisit, *RevisitSummary, error) {
	policy := revisit.Policy(job.Revisit)
	if policy == "" {
		policy = revisit.All
	}
	if policy == revisit.All && job.MaxRequests == 0 && job.MaxDuration == 0 {
		return nil, nil, nil
	}
	hist, err := st.Histories()
	if err != nil {
		return nil, nil, err
	}
	share := job.newShare()
	plan := &crawl.Revisit{MaxRequests: job.MaxRequests, Spent: st.Spent()}
	budget := len(hist)
	if job.MaxRequests > 0 {
		plan.Reserve = int(math.Ceil(share * float64(job.MaxRequests)))
		budget = max(job.MaxRequests-plan.Spent, 0) // the reserve's unused part goes to the plan's next pages
	}
	if job.MaxDuration > 0 {
		plan.Deadline = start.Add(job.MaxDuration)
	}
	clock, err := st.ServerClock()
	if err != nil {
		return nil, nil, err
	}
	for _, c := range revisit.PlanWith(policy, hist, st.Tick(), budget, clock) {
		plan.Keys = append(plan.Keys, hist[c.Index].Key)
		plan.Reasons = append(plan.Reasons, c.Reason)
	}
	sum := &RevisitSummary{Policy: string(policy), MaxRequests: job.MaxRequests, NewShare: share,
		Tick: st.Tick(), Planned: len(plan.Keys)}
	if job.MaxDuration > 0 {
		sum.MaxDuration = job.MaxDuration.String()
	}
	return plan, sum, nil
}

// account fills in what the crawl did with its budget.
func (s *RevisitSummary) account(res *crawl.Result) {
	s.Requests = res.Spent
	for _, p := range res.Pages {
		switch p.Revisit {
		case crawl.ReasonCarried:
			s.Carried++
		case crawl.ReasonNew:
			s.New++
		case crawl.ReasonBudget:
			s.Deferred++
		default:
			if !p.Replayed && p.Attempts > 0 {
				s.Revisited++
			}
		}
	}
}

// pageHistories turns the state's histories of the crawl's pages into
// pages.parquet's columns.
func pageHistories(st *store.Store, res *crawl.Result) (map[string]publish.PageHistory, error) {
	hist, err := st.Histories()
	if err != nil {
		return nil, err
	}
	clock, err := st.Clock()
	if err != nil {
		return nil, err
	}
	out := make(map[string]publish.PageHistory, len(res.Pages))
	for _, h := range hist {
		ph := publish.PageHistory{Visits: h.Visits, Textual: h.Textual, Structural: h.Structural, Edits: h.Edits,
			ChangeRate: math.NaN()}
		if r := h.Rate(); !math.IsNaN(r) && clock.DaysPerTick > 0 {
			ph.ChangeRate = r / clock.DaysPerTick
		}
		if h.LastChange >= 0 {
			ph.LastChanged = clock.Started[h.LastChange]
		}
		out[h.Key] = ph
	}
	return out, nil
}

// Package revisit decides which known pages a budgeted re-crawl fetches
// again (DESIGN.md, "Revisits"). It keeps each page's change history
// (History), estimates its rate of change from the visits (Rate, after Cho
// and Garcia-Molina) and orders the pages by one of the policies:
//
//   - all: every page (the default; no budget needed);
//   - oldest: least recently visited first (the baseline revisits are
//     judged against);
//   - dynamicity: the dynamicity dissertation's two frontiers (dynamic.go);
//   - adaptive: Nutch's and StormCrawler's adaptive fetch interval;
//   - freshness: Cho and Garcia-Molina's optimal refresh allocation
//     (freshness.go).
//
// Time is counted in ticks, the job's runs: a page's visits happen at
// runs, so its intervals are whole numbers of runs, and a job run hourly
// learns the same way as one run nightly. Rates are per tick; callers turn
// them into rates per day with the mean time between the job's runs.
//
// The package is pure: the crawl state (package store) keeps histories,
// the pipeline plans a run with Plan, and the evaluation replays recorded
// nights (Replay) with the same code.
package revisit

import (
	"fmt"
	"slices"
	"strings"
)

// Policy names a revisit policy.
type Policy string

const (
	All        Policy = "all"
	Oldest     Policy = "oldest"
	Dynamicity Policy = "dynamicity"
	Adaptive   Policy = "adaptive"
	Freshness  Policy = "freshness"
)

// Policies are the policies a job may set; Oldest is for evaluation only.
var Policies = []Policy{All, Dynamicity, Adaptive, Freshness}

// ParsePolicy returns the policy a jobs.yaml (or -policies) name stands for.
// oldest is accepted only with evaluation.
func ParsePolicy(name string, evaluation bool) (Policy, error) {
	p := Policy(name)
	if slices.Contains(Policies, p) || evaluation && p == Oldest {
		return p, nil
	}
	names := make([]string, len(Policies))
	for i, q := range Policies {
		names[i] = string(q)
	}
	if evaluation {
		names = append(names, string(Oldest))
	}
	return "", fmt.Errorf("unknown revisit policy %q: want one of %s", name, strings.Join(names, ", "))
}

// DefaultNewShare is the share of a run's request budget kept for pages
// never fetched (links new since the last run): the revisits spend the
// rest first. A tenth keeps a topic growing by a tenth of a budget a
// night while nine tenths chase changes.
const DefaultNewShare = 0.1

// Choice is one page a plan revisits and why.
type Choice struct {
	Index  int    // into the pages given to Plan
	Reason string // the frontier or rule that chose it, e.g. "dynamic"
}

// Reasons a page is fetched or not, as pages.parquet's revisit column says.
const (
	ReasonNew     = "new"     // never fetched before: from the new-page share
	ReasonAll     = "all"     // revisit: all
	ReasonOldest  = "oldest"  // least recently visited
	ReasonDynamic = "dynamic" // dynamicity: a page with registered changes
	ReasonStatic  = "static"  // dynamicity: the static frontier
	ReasonDue     = "due"     // adaptive: its interval has passed
	ReasonRate    = "rate"    // freshness: its share of the optimal allocation
	ReasonCarried = "carried" // not chosen this run: stored copy kept
	ReasonBudget  = "budget"  // chosen (or new), but the budget ran out first
)

// Plan orders pages for revisiting at tick now under policy, and returns
// at most budget of them, best first (all of them, in the order given,
// for All). Ties go to the page given first, so a plan depends only on
// its input.
func Plan(policy Policy, pages []History, now, budget int) []Choice {
	return PlanWith(policy, pages, now, budget, nil)
}

// PlanWith is Plan with the server's clock, by which the freshness policy
// reads Last-Modified dates (nil: it learns from the visits alone).
func PlanWith(policy Policy, pages []History, now, budget int, clock *ServerClock) []Choice {
	if policy == All {
		out := make([]Choice, len(pages))
		for i := range pages {
			out[i] = Choice{i, ReasonAll}
		}
		return out
	}
	if budget <= 0 {
		return nil
	}
	var out []Choice
	switch policy {
	case Oldest:
		out = byKey(pages, ReasonOldest, func(*History) bool { return true }, func(h *History) float64 { return float64(h.LastVisit) })
	case Dynamicity:
		out = dynamicity(pages)
	case Adaptive:
		out = adaptive(pages, now)
	case Freshness:
		out = freshness(pages, now, budget, clock)
	}
	if len(out) > budget {
		out = out[:budget]
	}
	return out
}

// byKey returns the pages that pass keep, by key ascending (ties: given
// order).
func byKey(pages []History, reason string, keep func(*History) bool, key func(*History) float64) []Choice {
	var idx []int
	keys := make([]float64, len(pages))
	for i := range pages {
		if keep(&pages[i]) {
			idx, keys[i] = append(idx, i), key(&pages[i])
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case keys[a] < keys[b]:
			return -1
		case keys[a] > keys[b]:
			return 1
		}
		return 0
	})
	out := make([]Choice, len(idx))
	for i, j := range idx {
		out[i] = Choice{j, reason}
	}
	return out
}

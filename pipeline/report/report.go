// Package report renders one published run as a single self-contained
// HTML file: status and counts, fetch outcomes, the top pages per epsilon
// with their degrees, the biggest movers since the previous complete run,
// the rank history of today's top pages and the job's topic words with
// the pages holding each. It reads only published outputs (manifests and
// Parquet tables), never the crawl.
//
// Charts are SVG written here rather than with gonum/plot: plot's SVG
// embeds its fonts (hundreds of kilobytes per chart) and carries no
// structure a test or a reader can address, where a few lines of SVG give
// one <polyline> per series and one <circle> per point.
package report

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/publish"
)

// Limits of what a report shows.
const (
	TopPages    = 20 // per epsilon
	Movers      = 10
	HistoryRuns = 10 // complete runs in the rank-history chart
	HistoryTop  = 10 // pages followed there
)

// Data is what a report shows, read from the output root.
type Data struct {
	Manifest *pipeline.Manifest
	Tops     []Top   // topic-sensitive PageRank first where the run has it, then PageRank
	Movers   []Mover // at the smallest epsilon, since PreviousRun
	// PreviousRun is the complete run movers are measured against ("" none).
	PreviousRun string
	History     History
	Outcomes    []Count // fetch outcomes, most pages first
	// Categories are the categories holding most of the run's PageRank
	// (at the smallest epsilon), hidden ones left out; empty for a run
	// published before categories were kept.
	Categories []CategoryRank
	// Nights are the harvest of the last complete runs, this one last
	// (empty for a job without a topic).
	Nights []Night
	// Digest is what changed since PreviousRun, with causes (nil: the
	// run's changes.parquet is unreadable).
	Digest *publish.Digest
	// Failed are the vertices whose fetch failed: never in a top list as
	// if they were articles.
	Failed []FailedPage
	// Words are the job's topic words and the judged pages holding each
	// (nil: no topic words, or a run published before they were kept).
	Words []Word
	// OverRepresented are the pages most central here and least in the
	// whole wiki (with a job's global_ranks): of the top OverTop by local
	// position, the highest global position over local position first.
	OverRepresented []Page
}

// OverTop and Over bound the over-represented pages: found among the top
// OverTop locally, Over of them shown.
const (
	OverTop = 100
	Over    = 10
)

// Mover is a page whose rank or position moved between two runs.
type Mover struct {
	Name                   string
	Previous, Rank, Change float64
	PlacesUp               int32
}

// History is the rank of today's top pages over the last complete runs.
type History struct {
	Epsilon float64
	Runs    []string
	Series  []Series
}

// Series is one page's rank and position in each run (NaN and 0 where it
// was not a vertex).
type Series struct {
	Page      string
	Ranks     []float64
	Positions []int32
}

// Night is one complete run's harvest, and where its vertices' ranks
// came from (best-first admission with memory: manifest admitted_by).
type Night struct {
	RunID                      string
	Relevant, Judged           int
	Harvest                    float64
	Memory, Model, Exploration int
	HasAdmissions              bool
	Churn                      *publish.Churn // vertices kept, entered, left since the run before
}

// CategoryRank is a category and the PageRank its pages hold.
type CategoryRank struct {
	Name  string
	Pages int
	Rank  float64
}

// TopCategories bounds the report's categories.
const TopCategories = 10

// categories sums the run's ranks at eps by visible category.
func categories(dir string, ranks map[string]publish.Ranked) []CategoryRank {
	cats, err := publish.ReadCategories(dir)
	if err != nil {
		return nil // a run published before categories.parquet
	}
	sum := map[string]*CategoryRank{}
	for page, cs := range cats {
		r, ok := ranks[page]
		if !ok {
			continue
		}
		for _, c := range cs {
			if c.Hidden {
				continue
			}
			if sum[c.Name] == nil {
				sum[c.Name] = &CategoryRank{Name: c.Name}
			}
			sum[c.Name].Pages++
			sum[c.Name].Rank += r.Rank
		}
	}
	out := make([]CategoryRank, 0, len(sum))
	for _, c := range sum {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b CategoryRank) int { return cmp.Or(cmp.Compare(b.Rank, a.Rank), cmp.Compare(a.Name, b.Name)) })
	return out[:min(TopCategories, len(out))]
}

// Count is a labelled number.
type Count struct {
	Label string
	N     int
}

// Read gathers a report of the run runID of job (the newest complete run
// if runID is ""). A partial run may be named too.
func Read(root, job, runID string) (*Data, error) {
	dir, m, err := pipeline.FindRun(root, job, runID)
	if err != nil {
		return nil, err
	}
	runID = m.RunID
	runs, err := pipeline.CompleteRuns(root, job)
	if err != nil {
		return nil, err
	}
	cur, err := publish.ReadPrevious(dir)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", runID, err)
	}
	d := &Data{Manifest: m}
	var epsilons []float64
	for _, r := range m.Ranks {
		epsilons = append(epsilons, r.Epsilon)
	}
	if len(cur.TopicRanks) > 0 {
		d.Tops = append(d.Tops, top(cur, cur.TopicRanks, epsilons, "Topic-sensitive PageRank", true))
	}
	d.Tops = append(d.Tops, top(cur, cur.Ranks, epsilons, "PageRank", false))
	whyHere(root, job, runID, d.Tops)
	d.Failed = failedPages(cur)
	d.Words = topicWords(m.Config.Topics, cur, m.Config.RelevanceThreshold)
	d.Outcomes = outcomes(m.Counts.Tally)
	if len(m.Ranks) == 0 {
		return d, nil
	}
	eps := m.Ranks[len(m.Ranks)-1].Epsilon // the smallest: the most converged
	d.OverRepresented = overRepresented(cur, eps)
	d.Categories = categories(dir, cur.Ranks[eps])
	// The complete runs before this one (run ids sort by time).
	earlier := slices.DeleteFunc(slices.Clone(runs), func(r string) bool { return r >= runID })
	if len(earlier) > 0 {
		d.PreviousRun = earlier[len(earlier)-1]
		prev, err := publish.ReadPrevious(filepath.Join(root, job, d.PreviousRun))
		if err != nil {
			return nil, fmt.Errorf("previous run %s: %w", d.PreviousRun, err)
		}
		d.Movers = movers(prev, cur, eps)
		d.Digest, _ = publish.ReadDigest(dir, prev) // unreadable: the section says so
	} else {
		d.Digest = &publish.Digest{}
	}
	recent := append(earlier[max(0, len(earlier)-HistoryRuns+1):], runID)
	d.Nights = nights(root, job, recent, m)
	d.History, err = history(root, job, recent, eps, cur)
	return d, err
}

// nights reads the harvest of runs (the last is m's) from their
// manifests; none for a job without a topic.
func nights(root, job string, runs []string, m *pipeline.Manifest) []Night {
	if m.Counts.HarvestRate == nil {
		return nil
	}
	var out []Night
	for i, id := range runs {
		rm := m
		if i < len(runs)-1 {
			var err error
			if rm, err = pipeline.ReadManifest(filepath.Join(root, job, id)); err != nil || rm.Counts.HarvestRate == nil {
				continue
			}
		}
		c := rm.Counts
		out = append(out, Night{RunID: id, Relevant: c.Relevant, Judged: c.Judged, Harvest: *c.HarvestRate,
			Memory: rm.AdmittedBy[crawl.FromMemory], Model: rm.AdmittedBy[crawl.FromModel],
			Exploration: rm.AdmittedBy[crawl.FromExploration], HasAdmissions: rm.AdmittedBy != nil, Churn: c.Churn})
	}
	return out
}

// movers are the pages whose position changed, by how much their rank
// moved (a rank that changed in place is no move to a reader), among the
// pages that are sound vertices of both runs: a page whose fetch failed
// in either has no content, and its rank is the graph's accident.
func movers(prevRun, curRun *publish.Previous, eps float64) []Mover {
	prev, cur := prevRun.Ranks[eps], curRun.Ranks[eps]
	var ms []Mover
	for name, c := range cur {
		_, bad := curRun.Unsound[name]
		_, badBefore := prevRun.Unsound[name]
		if p, ok := prev[name]; ok && p.Position != c.Position && !bad && !badBefore {
			ms = append(ms, Mover{name, p.Rank, c.Rank, c.Rank - p.Rank, p.Position - c.Position})
		}
	}
	slices.SortFunc(ms, func(a, b Mover) int {
		return cmp.Or(cmp.Compare(math.Abs(b.Change), math.Abs(a.Change)), cmp.Compare(a.Name, b.Name))
	})
	return ms[:min(Movers, len(ms))]
}

// history reads the ranks of today's top pages in each of runs (the last
// of which is the report's run, cur).
func history(root, job string, runs []string, eps float64, cur *publish.Previous) (History, error) {
	h := History{Epsilon: eps, Runs: runs}
	pages := byPosition(cur.Ranks[eps], HistoryTop)
	for _, p := range pages {
		h.Series = append(h.Series, Series{Page: p})
	}
	for i, id := range runs {
		run := cur
		if i < len(runs)-1 {
			var err error
			if run, err = publish.ReadPrevious(filepath.Join(root, job, id)); err != nil {
				return h, fmt.Errorf("run %s: %w", id, err)
			}
		}
		for s := range h.Series {
			r, ok := run.Ranks[eps][h.Series[s].Page]
			if !ok {
				r.Rank = math.NaN()
			}
			h.Series[s].Ranks = append(h.Series[s].Ranks, r.Rank)
			h.Series[s].Positions = append(h.Series[s].Positions, r.Position)
		}
	}
	return h, nil
}

// overRepresented returns the pages of the local top OverTop whose global
// position is furthest behind their local one.
func overRepresented(run *publish.Previous, eps float64) []Page {
	var out []Page
	for _, name := range byPosition(run.Ranks[eps], OverTop) {
		if r := run.Ranks[eps][name]; r.GlobalPosition > 0 {
			out = append(out, Page{Name: name, Position: r.Position, Rank: r.Rank, GlobalPosition: r.GlobalPosition,
				InDegree: run.InDegree[name], OutDeg: run.OutDegree[name]})
		}
	}
	ratio := func(p Page) float64 { return float64(p.GlobalPosition) / float64(p.Position) }
	slices.SortStableFunc(out, func(a, b Page) int { return cmp.Compare(ratio(b), ratio(a)) })
	return out[:min(len(out), Over)]
}

// stateLabels and classLabels name fetch states and error classes in words.
var (
	stateLabels = map[crawl.FetchState]string{
		crawl.Fetched: "fetched", crawl.NotModified: "unchanged (304)", crawl.Carried: "kept, not revisited",
		crawl.Replayed: "replayed from an interrupted run", crawl.NotFetched: "not fetched",
	}
	classLabels = map[string]string{
		crawl.ClassHTTP: "HTTP error status", crawl.ClassNetwork: "network error", crawl.ClassTimeout: "timed out",
		crawl.ClassNotHTML: "not HTML", crawl.ClassTooLarge: "too large", crawl.ClassRedirect: "bad redirect",
		crawl.ClassEncoding: "unreadable encoding", crawl.ClassCancelled: "cut short",
	}
)

// outcomes are the pages by fetch state, failures by class, in the
// states' order, each in words.
func outcomes(t crawl.Tally) []Count {
	var out []Count
	for _, s := range crawl.FetchStates {
		if s == crawl.Failed {
			var failed []Count
			for class, n := range t.FailedByClass {
				failed = append(failed, Count{"failed: " + cmp.Or(classLabels[class], class), n})
			}
			slices.SortFunc(failed, func(a, b Count) int { return cmp.Or(b.N-a.N, cmp.Compare(a.Label, b.Label)) })
			out = append(out, failed...)
		} else if n := t.Of(s); n > 0 {
			out = append(out, Count{stateLabels[s], n})
		}
	}
	return out
}

package evaluate

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/topicrank/topicrank/internal/perm"
	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/revisit"
)

// RevisitReport replays a job's recorded nights under revisit policies.
type RevisitReport struct {
	Job, RunID string
	Runs       []string // the recorded nights replayed, oldest first
	Skipped    []string // complete runs that were budgeted: not a night's whole truth
	Budget     float64  // pages per night: a share of the night's pages if ≤ 1
	NewShare   float64
	Scores     []revisit.Score
}

// EvaluateRevisit replays the job's complete runs that fetched every page
// (revisit: all) under each policy with the budget (a share of each
// night's pages when at most 1, else pages per night).
func EvaluateRevisit(root string, job pipeline.Job, policies []revisit.Policy, budget, newShare float64) (*RevisitReport, error) {
	if !(budget > 0) {
		return nil, fmt.Errorf("-budget %v: want a share of the pages (0 < F ≤ 1) or a number of pages", budget)
	}
	runs, err := pipeline.CompleteRuns(root, job.Name)
	if err != nil {
		return nil, err
	}
	rep := &RevisitReport{Job: job.Name, RunID: time.Now().UTC().Format("20060102T150405Z"), Budget: budget, NewShare: newShare}
	var nights []revisit.Night
	for _, id := range runs {
		night, whole, err := publish.ReadNight(filepath.Join(root, job.Name, id))
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", id, err)
		}
		if !whole {
			rep.Skipped = append(rep.Skipped, id)
			continue
		}
		rep.Runs = append(rep.Runs, id)
		nights = append(nights, night)
	}
	if len(nights) < 2 {
		return nil, fmt.Errorf("job %q has %d recorded nights with revisit: all (%d budgeted runs skipped): replaying needs at least 2; run the job with revisit: all on more nights",
			job.Name, len(nights), len(rep.Skipped))
	}
	pages := func(n int) int {
		if budget <= 1 {
			return int(math.Round(budget * float64(n)))
		}
		return int(budget)
	}
	for _, p := range policies {
		sc, err := revisit.Replay(nights, p, pages, newShare)
		if err != nil {
			return nil, err
		}
		rep.Scores = append(rep.Scores, sc)
	}
	return rep, nil
}

// Print writes the mean of each policy over the replayed nights, then
// each night's change recall and freshness.
func (r *RevisitReport) Print(w io.Writer) error {
	fmt.Fprintf(w, "job %s: %d recorded nights (%s to %s), budget %s a night, new-page share %g\n\n",
		r.Job, len(r.Runs), r.Runs[0], r.Runs[len(r.Runs)-1], r.budgetText(), r.NewShare)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tfetched/night\tchange recall\tbacklog recall\tfreshness\tmean age (nights)\t")
	for _, s := range r.Scores {
		m := s.Mean
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\n", s.Policy, m.Fetched, m.ChangeRecall, m.BacklogRecall, m.Freshness, m.MeanAge)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nchange recall / freshness by night:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"night"}
	for _, s := range r.Scores {
		head = append(head, string(s.Policy))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for i := range r.Scores[0].Nights {
		row := []string{fmt.Sprint(r.Scores[0].Nights[i].Night)}
		for _, s := range r.Scores {
			row = append(row, fmt.Sprintf("%.2f / %.3f", s.Nights[i].ChangeRecall, s.Nights[i].Freshness))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

func (r *RevisitReport) budgetText() string {
	if r.Budget <= 1 {
		return fmt.Sprintf("%g of the pages", r.Budget)
	}
	return fmt.Sprintf("%g pages", r.Budget)
}

// RevisitDir is where a revisit evaluation of job is saved.
func RevisitDir(root, job, runID string) string {
	return filepath.Join(root, job, "evaluate", "revisit-"+runID)
}

// Save writes revisit.parquet and the chart (revisit.png, revisit.svg)
// into dir, through a temporary directory renamed into place.
func (r *RevisitReport) Save(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if _, err := publish.WriteRevisit(tmp, r.Job, r.RunID, r.Budget, r.Scores); err != nil {
		return err
	}
	for _, format := range []string{"png", "svg"} {
		if err := r.chart(filepath.Join(tmp, "revisit."+format), format); err != nil {
			return fmt.Errorf("chart: %w", err)
		}
	}
	if err := perm.Like(tmp); err != nil { // MkdirTemp's folder is private
		return err
	}
	return os.Rename(tmp, dir)
}

// chart draws change recall (top) and freshness (bottom) by night, one
// line per policy.
func (r *RevisitReport) chart(path, format string) error {
	panels := []struct {
		title string
		get   func(revisit.NightScore) float64
	}{
		{"next-night change recall", func(n revisit.NightScore) float64 { return n.ChangeRecall }},
		{"freshness after the night", func(n revisit.NightScore) float64 { return n.Freshness }},
	}
	plots := make([][]*plot.Plot, len(panels))
	legends := make([]plot.Legend, len(panels))
	for k, panel := range panels {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s: %s (budget %s a night)", r.Job, panel.title, r.budgetText())
		p.X.Label.Text = "night"
		p.Add(plotter.NewGrid())
		legends[k] = plot.NewLegend()
		for i, s := range r.Scores {
			var pts plotter.XYs
			for _, n := range s.Nights {
				if v := panel.get(n); !math.IsNaN(v) {
					pts = append(pts, plotter.XY{X: float64(n.Night), Y: v})
				}
			}
			line, points, err := plotter.NewLinePoints(pts)
			if err != nil {
				return err
			}
			line.Color, points.Color = palette[i%len(palette)], palette[i%len(palette)]
			// A shape of its own, so that a policy whose nights are
			// another's still shows.
			points.Shape, points.Radius = glyphs[i%len(glyphs)], vg.Points(4)
			line.Width = vg.Points(2)
			p.Add(line, points)
			legends[k].Add(fmt.Sprintf("%s (mean %.2f)", s.Policy, panel.get(s.Mean)), line, points)
		}
		if k == 0 {
			p.Y.Min, p.Y.Max = 0, 1
		} else {
			p.Y.Max = 1
		}
		plots[k] = []*plot.Plot{p}
	}
	c, err := draw.NewFormattedCanvas(10*vg.Inch, 9*vg.Inch, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	side := legendStrip(dc, legends...)
	canvases := plot.Align(plots, draw.Tiles{Rows: 2, Cols: 1, PadY: vg.Points(12)}, draw.Crop(dc, 0, -side, 0, -chartMargin/2))
	for k := range plots {
		plots[k][0].Draw(canvases[k][0])
		drawLegend(dc, canvases[k][0], plots[k][0], side, legends[k])
	}
	return saveTo(path, c)
}

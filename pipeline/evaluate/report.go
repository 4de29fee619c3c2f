package evaluate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/topicrank/topicrank/internal/perm"
	"github.com/topicrank/topicrank/stages/publish"
)

// Print writes the report as a table: one row per strategy with its
// harvest, then how many of its top-20 pages by PageRank each other
// strategy's top 20 shares. With both bfs and the oracle in the report, a
// column gives each strategy's distance from halfway between them, the
// mark a focused strategy is measured against.
func (r *Report) Print(w io.Writer) error {
	fmt.Fprintf(w, "job %s, %s admission, %d pages, %s\n\n", r.Job, r.Admission, r.MaxPages, r.judgedBy())
	half, hasHalf := r.Halfway()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"strategy", "fetched", "404", "relevant", "harvest"}
	if hasHalf {
		head = append(head, "vs halfway")
	}
	for _, h := range r.Harvests {
		head = append(head, "top20∩"+h.Strategy)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, h := range r.Harvests {
		row := []string{h.Strategy, fmt.Sprint(h.Fetched), fmt.Sprint(h.NotFound), fmt.Sprint(h.Relevant), fmt.Sprintf("%.3f", h.Rate())}
		if hasHalf {
			row = append(row, fmt.Sprintf("%+.3f", h.Rate()-half))
		}
		for _, o := range r.Harvests {
			row = append(row, fmt.Sprint(h.Overlap[o.Strategy]))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if hasHalf {
		_, err := fmt.Fprintf(w, "\nhalfway between bfs and the oracle: %.3f\n", half)
		return err
	}
	return nil
}

// Halfway returns the harvest halfway between bfs's and the oracle's, and
// whether the report has both.
func (r *Report) Halfway() (float64, bool) {
	bfs, oracle := r.bounds()
	if bfs == nil || oracle == nil {
		return 0, false
	}
	return (bfs.Rate() + oracle.Rate()) / 2, true
}

// bounds returns the report's bfs and oracle harvests, nil where absent:
// the floor and the ceiling a focused strategy is placed between.
func (r *Report) bounds() (bfs, oracle *publish.Harvest) {
	for i, h := range r.Harvests {
		switch h.Strategy {
		case "bfs":
			bfs = &r.Harvests[i]
		case Oracle:
			oracle = &r.Harvests[i]
		}
	}
	return bfs, oracle
}

// Dir returns where an evaluation of job is saved under the output root:
// beside the job's runs, one level deeper, so that globs over runs never
// see it.
func Dir(root, job, runID string) string { return filepath.Join(root, job, "evaluate", runID) }

// Save writes the report's tables (harvest, overlap and curve Parquet
// files, and people.parquet when people's labels judged the crawls) and
// its chart (harvest.png, harvest.svg) into dir, first into a
// temporary directory that is renamed into place, so dir is whole or
// absent.
func (r *Report) Save(dir string) ([]publish.File, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	files, err := publish.WriteHarvest(tmp, r.Job, r.RunID, r.Harvests)
	if err != nil {
		return nil, err
	}
	if r.Labelled {
		f, err := publish.WritePeople(tmp, r.Job, r.RunID, r.judgments())
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	chart := r.chart
	if r.Nights > 0 {
		chart = r.chartNights
	}
	for _, format := range []string{"png", "svg"} {
		if err := chart(filepath.Join(tmp, "harvest."+format), format); err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		files = append(files, publish.File{Path: "harvest." + format})
	}
	if err := perm.Like(tmp); err != nil { // MkdirTemp's folder is private
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, err
	}
	return files, nil
}

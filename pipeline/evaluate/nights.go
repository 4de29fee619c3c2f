package evaluate

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl/store"
	"github.com/topicrank/topicrank/stages/publish"
)

// EvaluateNights crawls job for nights nights per strategy, one after
// another, each strategy with a crawl state of its own kept across its
// nights under stateDir, as a nightly job's runs are: with best-first
// admission each night starts from what the earlier ones learned. bfs
// and the oracle are crawled once, on a first night, as the yardsticks:
// the harvest of a plain crawl and the ceiling of a crawl that scores
// single links.
func EvaluateNights(ctx context.Context, r *pipeline.Runner, job pipeline.Job, strategies []string, admission string, nights int,
	truth Truth, stateDir string, log *slog.Logger) (*Report, error) {
	if nights < 1 {
		return nil, fmt.Errorf("-nights %d: want at least 1", nights)
	}
	rep, err := newReport(job, strategies, admission, truth)
	if err != nil {
		return nil, err
	}
	rep.Nights = nights
	for _, s := range strategies {
		j := job
		j.Name, j.Strategy, j.Admission, j.Weighted = job.Name+"/"+s, s, rep.Admission, true
		var prev []string
		n := nights
		if s == Oracle || s == "bfs" {
			n = 1
		}
		path := filepath.Join(stateDir, s+".sqlite")
		for night := 1; night <= n; night++ {
			st, err := store.Open(path, fmt.Sprintf("night-%03d", night))
			if err != nil {
				return nil, err
			}
			h, _, res, err := crawlOnce(ctx, r, j, truth, st, log.With("strategy", s, "night", night))
			if ferr := st.Finish(pipeline.StatusComplete); err == nil {
				err = ferr
			}
			if err != nil {
				return nil, err
			}
			h.Strategy, h.Night = s, night
			cur := vertexKeys(res)
			if prev != nil {
				c := churn(prev, cur)
				h.Churn = &c
			}
			rep.add(h, judge(res, truth.Labels))
			prev = cur
		}
	}
	return rep, rep.crawled()
}

// PrintNights writes a report of nights as a table: one row per strategy,
// its harvest night by night, and with bfs and the oracle in the report,
// how far each night is from bfs to the oracle.
func (r *Report) PrintNights(w io.Writer) error {
	fmt.Fprintf(w, "job %s, %s admission, %d pages, %d nights, %s\n\n", r.Job, r.Admission, r.MaxPages, r.Nights, r.judgedBy())
	bfs, oracle := r.bounds()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"strategy"}
	for n := 1; n <= r.Nights; n++ {
		head = append(head, fmt.Sprintf("night %d", n))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, s := range r.strategies() {
		row := []string{s}
		for n := 1; n <= r.Nights; n++ {
			h, ok := r.night(s, n)
			switch {
			case !ok:
				row = append(row, "")
			case bfs != nil && oracle != nil && oracle.Rate() > bfs.Rate() && s != "bfs" && s != Oracle:
				row = append(row, fmt.Sprintf("%.3f (%.0f%%)", h.Rate(), 100*(h.Rate()-bfs.Rate())/(oracle.Rate()-bfs.Rate())))
			default:
				row = append(row, fmt.Sprintf("%.3f", h.Rate()))
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if bfs != nil && oracle != nil {
		if _, err := fmt.Fprintln(w, "\n(%: of the way from bfs to the oracle, each crawled once as a first night)"); err != nil {
			return err
		}
	}
	if r.Labelled { // PrintPeople shows the churn beside people's judgment
		return nil
	}
	return r.printChurn(w)
}

// printChurn writes each night's change of vertices since the night
// before: kept, entered, left, and the Jaccard of the two vertex sets.
func (r *Report) printChurn(w io.Writer) error {
	if r.Nights < 2 {
		return nil
	}
	fmt.Fprintf(w, "\nvertices since the night before\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "strategy\tnight\tkept\tentered\tleft\tJaccard\t")
	for _, h := range r.Harvests {
		if h.Churn != nil {
			row := append([]string{h.Strategy, fmt.Sprint(h.Night)}, churnCells(h.Churn)...)
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
	}
	return tw.Flush()
}

// churnCells are a night's churn as table cells (kept, entered, left,
// Jaccard), empty on a first night.
func churnCells(c *publish.Churn) []string {
	if c == nil {
		return []string{"", "", "", ""}
	}
	return []string{fmt.Sprint(c.Kept), fmt.Sprint(c.Entered), fmt.Sprint(c.Left), fmt.Sprintf("%.3f", c.Jaccard)}
}

// strategies returns the report's strategies in order.
func (r *Report) strategies() []string {
	var out []string
	for _, h := range r.Harvests {
		if len(out) == 0 || out[len(out)-1] != h.Strategy {
			out = append(out, h.Strategy)
		}
	}
	return out
}

// night returns strategy s's harvest on night n.
func (r *Report) night(s string, n int) (publish.Harvest, bool) {
	for _, h := range r.Harvests {
		if h.Strategy == s && (h.Night == n || h.Night == 0 && n == 1) {
			return h, true
		}
	}
	return publish.Harvest{}, false
}

// crawled is an error when no crawl of the report fetched a page: an
// evaluation of nothing (no network, a wrong -base-url) is a failure,
// not a table of zeros.
func (r *Report) crawled() error {
	for _, h := range r.Harvests {
		if h.Fetched > 0 {
			return nil
		}
	}
	return fmt.Errorf("no crawl fetched a page (is the wiki reachable from here? -base-url points a job at a mirror)")
}

// StateDir is where an evaluation of nights keeps each strategy's crawl
// state while it runs (removed by the caller once the report is saved).
func StateDir(root, job string) (string, error) {
	dir := filepath.Join(root, job, "evaluate")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return os.MkdirTemp(dir, ".state-"+time.Now().UTC().Format("20060102T150405Z")+"-")
}

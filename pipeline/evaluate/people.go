package evaluate

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/topicrank/topicrank/stages/publish"
)

// PrintPeople writes, for an evaluation judged by people's labels, each
// crawl as people see it: the harvest (the share of its labelled fetched
// vertices labelled at least 1) and, with bfs and the oracle present,
// how far it is from bfs to the oracle; the published relevant's
// precision, recall and F1 against the labels; and on nights after the
// first, the vertices kept, entered and left since the night before and
// the Jaccard of the two nights' vertex sets.
func (r *Report) PrintPeople(w io.Writer) error {
	if !r.Labelled {
		return nil
	}
	fmt.Fprintf(w, "\njudged by people's labels (relevant: labelled at least 1)\n\n")
	var bfs, oracle float64
	bounds := 0
	for i, h := range r.Harvests {
		switch h.Strategy {
		case "bfs":
			bfs = r.People[i].Harvest()
			bounds++
		case Oracle:
			oracle = r.People[i].Harvest()
			bounds++
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "strategy\tnight\tlabelled\tharvest\tof the way\tP\tR\tF1\tkept\tentered\tleft\tJaccard\t")
	for i, h := range r.Harvests {
		p := r.People[i]
		way := ""
		if bounds == 2 && oracle > bfs && h.Strategy != "bfs" && h.Strategy != Oracle {
			way = fmt.Sprintf("%.0f%%", 100*(p.Harvest()-bfs)/(oracle-bfs))
		}
		night := max(h.Night, 1)
		row := []string{h.Strategy, fmt.Sprint(night), fmt.Sprint(p.Labelled), fmt.Sprintf("%.3f", p.Harvest()), way,
			fmt.Sprintf("%.3f", p.Precision()), fmt.Sprintf("%.3f", p.Recall()), fmt.Sprintf("%.3f", p.F1())}
		row = append(row, churnCells(h.Churn)...)
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

// judgments returns what PrintPeople prints, a row per crawl, for
// people.parquet.
func (r *Report) judgments() []publish.Judgment {
	js := make([]publish.Judgment, len(r.Harvests))
	for i, h := range r.Harvests {
		p := r.People[i]
		js[i] = publish.Judgment{Strategy: h.Strategy, Night: h.Night, LabelJudge: r.LabelJudge,
			Labelled: p.Labelled, Relevant: p.Relevant, Harvest: p.Harvest(), TP: p.TP, FP: p.FP, FN: p.FN,
			Precision: p.Precision(), Recall: p.Recall(), F1: p.F1(), Churn: h.Churn}
	}
	return js
}

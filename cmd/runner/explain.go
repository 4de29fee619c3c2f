package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/report"
	"github.com/topicrank/topicrank/stages/crawl/page"
)

func cmdExplain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain", stderr)
	out := fs.String("out", "outputs", "output root")
	config := fs.String("config", "jobs.yaml", "jobs file (to name the jobs when -job has no runs)")
	job := fs.String("job", "", "job of the run (required)")
	run := fs.String("run", "", "run id (default: the newest complete run)")
	eps := fs.Float64("epsilon", 0, "the epsilon of the ranks explained (default: the run's smallest)")
	topic := fs.Bool("topic", false, "explain topic-sensitive PageRank instead of plain")
	format := fs.String("format", "text", "text or json")
	rest, err := parseAnywhere(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	if *job == "" || len(rest) != 1 {
		return usageError{"want -job NAME and one PAGE (a title or /wiki/Title)"}
	}
	if *format != "text" && *format != "json" {
		return usageError{fmt.Sprintf("-format %q: want text or json", *format)}
	}
	key, ok := page.ArticleKey(pageArg(rest[0]), nil)
	if !ok {
		return usageError{fmt.Sprintf("%q is not an article title", rest[0])}
	}
	_, m, err := findRun("explain", *out, *config, *job, *run)
	if err != nil {
		return err
	}
	if *eps == 0 && len(m.Ranks) > 0 {
		*eps = m.Ranks[len(m.Ranks)-1].Epsilon
	}
	fail := func(err error) error {
		return &pipeline.Error{Op: "explain", Job: *job, Kind: pipeline.Invalid, Err: err}
	}
	r, err := report.ReadRun(ctx, *out, *job, m.RunID)
	if err != nil {
		return fail(err)
	}
	e, err := r.Explain(key, *eps, *topic)
	if err != nil {
		return fail(err)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(e)
	}
	return printExplanation(stdout, e)
}

// pageArg makes a bare title a /wiki/ path.
func pageArg(s string) string {
	if strings.HasPrefix(s, "/wiki/") {
		return s
	}
	return "/wiki/" + strings.ReplaceAll(s, " ", "_")
}

// explainLinks is how many in-links the text lists one by one.
const explainLinks = 15

func printExplanation(w io.Writer, e *report.Explanation) error {
	kind := "PageRank"
	if e.Topic {
		kind = "topic-sensitive PageRank"
	}
	fmt.Fprintf(w, "%s in run %s of %s: %s %.6g at epsilon %g, #%d of %d", e.Page, e.RunID, e.Job, kind, e.Rank, e.Epsilon, e.Position, e.Vertices)
	if e.Relevance != nil {
		fmt.Fprintf(w, "; relevance %.2f", *e.Relevance)
		if e.TopicWords != "" {
			fmt.Fprintf(w, " (topic words: %s)", e.TopicWords)
		}
	}
	fmt.Fprintf(w, "\n\nwhere its rank comes from (the shares sum to %.6g):\n", e.Sum)
	row := func(v float64, from string) { fmt.Fprintf(w, "  %12.6g  %5.1f%%  %s\n", v, 100*v/e.Rank, from) }
	fmt.Fprintf(w, "  %12s  %6s  %s\n", "share", "of it", "from")
	for i, l := range e.Links {
		if i == explainLinks && len(e.Links) > explainLinks+1 {
			rest := 0.0
			for _, m := range e.Links[i:] {
				rest += m.Share
			}
			row(rest, fmt.Sprintf("(%d more in-links; -format json lists them)", len(e.Links)-i))
			break
		}
		row(l.Share, l.From)
	}
	row(e.Teleport, "(teleport)")
	row(e.Dangling, "(dangling pages' rank, spread)")
	if l := e.Without; l != nil {
		fmt.Fprintf(w, "\nwithout its best in-link, from %s: %.6g (%+.1f%%), #%d\n", l.Link, l.Rank, 100*(l.Rank-e.Rank)/e.Rank, l.Position)
	}
	return nil
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	iofs "io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/search"
)

func cmdSearch(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("search", stderr)
	out := fs.String("out", "outputs", "output root")
	config := fs.String("config", "jobs.yaml", "jobs file (to name the jobs when -job has no runs)")
	job := fs.String("job", "", "job whose pages to search (required)")
	run := fs.String("run", "", "run id (default: the newest complete run)")
	top := fs.Int("top", 10, "hits to show")
	format := fs.String("format", "text", "text or json")
	weight := fs.Float64("rank-weight", search.DefaultRankWeight, "PageRank's weight: score = (bm25 + title) × (1 + w·ln(1 + N·pagerank)), title being -title-boost's term; 0: no PageRank")
	boost := fs.Float64("title-boost", search.DefaultTitleBoost, "weight of the query's words in titles; 0: titles count as text only")
	category := fs.String("category", "", "keep only pages of this category (its exact title, with or without Category:; the first letter's case and spaces or underscores do not matter, as on Wikipedia)")
	words, err := parseAnywhere(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	query := strings.Join(words, " ")
	switch {
	case *job == "":
		return usageError{"-job is required"}
	case strings.TrimSpace(query) == "":
		return usageError{`no query: runner search -job NAME "space needle"`}
	case *format != "text" && *format != "json":
		return usageError{fmt.Sprintf("-format %q: want text or json", *format)}
	case *top < 1:
		return usageError{"-top must be at least 1"}
	case *weight < 0 || *boost < 0:
		return usageError{"-rank-weight and -title-boost must not be negative"}
	}
	dir, m, err := findRun("search", *out, *config, *job, *run)
	if err != nil {
		return err
	}
	style := "html"
	if *format == "text" && isTerminal(stdout) {
		style = "ansi"
	}
	opt := search.Options{Top: *top, RankWeight: *weight, TitleBoost: *boost, Highlight: style}
	if *category != "" {
		if opt.Only, err = inCategory(dir, m.RunID, *category); err != nil {
			return &pipeline.Error{Op: "search", Job: *job, Kind: pipeline.Invalid, Err: err}
		}
	}
	res, err := search.Search(filepath.Join(dir, "index"), query, opt)
	var qe *search.QueryError
	switch {
	case errors.As(err, &qe):
		return usageError{qe.Error()}
	case errors.Is(err, search.ErrNoIndex) && indexed(m):
		return &pipeline.Error{Op: "search", Job: *job, Kind: pipeline.Failed,
			Err: fmt.Errorf("run %s is damaged: its manifest lists a search index, but %s is missing ('runner verify -job %s' checks the run)", m.RunID, filepath.Join(dir, "index"), *job)}
	case errors.Is(err, search.ErrNoIndex):
		return &pipeline.Error{Op: "search", Job: *job, Kind: pipeline.Invalid,
			Err: fmt.Errorf("run %s (%s) has no search index: its job has search_index: false, or it was published before topicrank indexed runs; search a run made with an index", m.RunID, dir)}
	case err != nil && !errors.Is(err, iofs.ErrPermission):
		return &pipeline.Error{Op: "search", Job: *job, Kind: pipeline.Failed,
			Err: fmt.Errorf("%w (the index of run %s may be damaged: 'runner verify -job %s' checks it against the manifest)", err, m.RunID, *job)}
	case err != nil:
		return &pipeline.Error{Op: "search", Job: *job, Kind: pipeline.Failed, Err: err}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(struct {
			Job   string `json:"job"`
			RunID string `json:"run_id"`
			*search.Result
		}{*job, m.RunID, res})
	}
	printHits(stdout, *job, m.RunID, res, style == "ansi")
	return nil
}

// printHits prints hits for a reader: a terminal gets the matched words
// highlighted in colour, anything else «marked».
func printHits(w io.Writer, job, runID string, res *search.Result, terminal bool) {
	query := res.Query // echoed as typed: a quoted phrase keeps its own quotes
	if !strings.ContainsAny(query, `"'`) {
		query = `"` + query + `"`
	}
	fmt.Fprintf(w, "%s run %s: %d of %d pages match %s\n", job, runID, res.Total, res.Pages, query)
	for i, h := range res.Hits {
		fmt.Fprintf(w, "\n%2d. %s  %s\n    score %.4g (bm25 %.4g, title %.4g, pagerank %.3g)\n", i+1, h.Title, h.Page, h.Score, h.BM25, h.TitleFit, h.PageRank)
		snippets := h.Snippets
		if !terminal {
			snippets = nil
			for _, s := range h.Marked {
				snippets = append(snippets, search.Tidy(html.UnescapeString(strings.NewReplacer("<mark>", "«", "</mark>", "»").Replace(s))))
			}
		}
		for _, s := range snippets {
			fmt.Fprintf(w, "    %s\n", s)
		}
	}
}

// parseAnywhere parses flags before, between and after the other
// arguments, which it returns: `search -job j "space needle" -top 3` is
// `search -job j -top 3 "space needle"`, never a search for "-top 3".
// After "--" everything is an argument.
func parseAnywhere(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			return append(rest, left...), nil
		}
		if len(left) == 0 {
			return rest, nil
		}
		rest, args = append(rest, left[0]), left[1:]
	}
}

// indexed says whether run m's manifest lists a search index.
func indexed(m *pipeline.Manifest) bool {
	for _, f := range m.Files {
		if strings.HasPrefix(f.Path, "index/") {
			return true
		}
	}
	return false
}

// inCategory returns the pages of a run that are in category name, folded
// as MediaWiki folds titles: spaces as underscores, the first letter
// upper case, an optional "Category:" prefix.
func inCategory(dir, runID, name string) ([]string, error) {
	cats, err := publish.ReadCategories(dir)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil, fmt.Errorf("run %s has no categories.parquet (it was published before topicrank kept categories): -category needs a newer run", runID)
	}
	if err != nil {
		return nil, err
	}
	want := foldCategory(name)
	pages := []string{} // not nil: a category no page is in keeps none
	for page, cs := range cats {
		if slices.ContainsFunc(cs, func(c publish.PageCategory) bool { return c.Name == want }) {
			pages = append(pages, page)
		}
	}
	slices.Sort(pages)
	return pages, nil
}

// foldCategory is a category title as categories.parquet names it: without
// "Category:", normalised as MediaWiki normalises titles.
func foldCategory(name string) string {
	name = strings.TrimSpace(name)
	if rest, ok := strings.CutPrefix(name, "Category:"); ok {
		name = rest
	} else if rest, ok := strings.CutPrefix(name, "category:"); ok {
		name = rest
	}
	return page.NormalizeTitle(name)
}

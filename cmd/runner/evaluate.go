package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/evaluate"
	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/revisit"
)

func cmdEvaluate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("evaluate", stderr)
	var f jobFlags
	f.register(fs)
	name := fs.String("job", "", "job to evaluate, several comma-separated, or all (required); several end with their means")
	strategies := fs.String("strategies", strings.Join(page.Strategies, ","), "strategies to compare, comma-separated")
	admission := fs.String("admission", "", "discovery or best-first (default: the job's)")
	revisitMode := fs.Bool("revisit", false, "replay the job's recorded nights (revisit: all runs) under revisit policies instead of crawling")
	policies := fs.String("policies", "oldest,dynamicity,adaptive,freshness", "with -revisit: policies to replay, comma-separated")
	budget := fs.Float64("budget", 0.2, "with -revisit: pages a night, as a share of the night's pages (≤ 1) or a number")
	newShare := fs.Float64("new-share", revisit.DefaultNewShare, "with -revisit: the budget's share kept for new pages")
	nights := fs.Int("nights", 0, "crawl N nights one after another per strategy, each strategy with a crawl state of its own (memory on); bfs and oracle once, as yardsticks")
	labels := fs.String("labels", "", "people's assessments (TSV: page, then a label 0/1/2 per topic): judge every crawl by them, and the oracle fetches by them")
	labelTopic := fs.String("label-topic", "", "with -labels: the assessments' topic column to judge by (default: the job's name)")
	labelJudge := fs.Bool("label-judge", false, "with -labels: every crawl judges its pages by people's labels instead of the judge, to see how far a strategy gets with a perfect judge")
	oracleCorpus := fs.String("oracle-corpus", "", "with -strategies oracle: the corpus archive (.tar.zst) the closed-world mirror serves, for the true relevance of every page")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *name == "" {
		return usageError{"-job is required"}
	}
	if *revisitMode {
		if *name == "all" || strings.Contains(*name, ",") {
			return usageError{"-revisit replays one job: name it"}
		}
		return evaluateRevisit(f, *name, *policies, *budget, *newShare, stdout, stderr)
	}
	var names []string
	for _, s := range strings.Split(*strategies, ",") {
		if s = strings.TrimSpace(s); s != "" {
			if _, err := page.ParseStrategy(s); err != nil && s != evaluate.Oracle {
				return usageError{"-strategies: " + err.Error() + " (or oracle, with -labels or -oracle-corpus)"}
			}
			if s == evaluate.Oracle && *oracleCorpus == "" && *labels == "" {
				return usageError{"-strategies oracle needs -labels (people's labels) or -oracle-corpus (the corpus archive the closed-world mirror serves)"}
			}
			names = append(names, s)
		}
	}
	if len(names) == 0 {
		return usageError{"-strategies is empty"}
	}
	if *admission != "" {
		if _, err := crawl.ParseAdmission(*admission); err != nil {
			return usageError{"-admission: " + err.Error()}
		}
	}
	if *nights < 0 {
		return usageError{fmt.Sprintf("-nights %d: want a number of nights", *nights)}
	}
	cfg, r, err := f.runner(stderr)
	if err != nil {
		return err
	}
	jobs, err := pickJobs(cfg, *name, f.config)
	if err != nil {
		return err
	}
	if *labelJudge && *labels == "" {
		return usageError{"-label-judge judges pages by people's labels: give them with -labels"}
	}
	if len(jobs) > 1 && *labelTopic != "" {
		return usageError{"-label-topic names one topic: with several jobs, each job's name is its topic"}
	}
	truth, err := jobLabels(jobs, *labels, *labelTopic)
	if err != nil {
		return err
	}
	e := evaluation{strategies: names, admission: *admission, nights: *nights, oracleCorpus: *oracleCorpus, labelJudge: *labelJudge}
	var reps []*evaluate.Report
	for i, job := range jobs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		rep, err := e.run(ctx, r, f.out, job, truth[i], stdout)
		if err != nil {
			return err
		}
		reps = append(reps, rep)
	}
	if len(reps) < 2 {
		return nil
	}
	for _, s := range names {
		if s == "bfs" || s == evaluate.Oracle {
			continue
		}
		sum, err := evaluate.Summarize(s, reps)
		if err == nil {
			err = sum.Print(stdout)
		}
		if err != nil {
			return &pipeline.Error{Op: "evaluate", Kind: pipeline.Failed, Err: err}
		}
	}
	return nil
}

// pickJobs returns the jobs -job names: one, several comma-separated,
// or all.
func pickJobs(cfg *pipeline.Config, list, config string) ([]pipeline.Job, error) {
	if list == "all" {
		return cfg.Jobs, nil
	}
	var jobs []pipeline.Job
	for _, n := range strings.Split(list, ",") {
		job, ok := cfg.Job(strings.TrimSpace(n))
		if !ok {
			return nil, usageError{fmt.Sprintf("no job %q in %s", strings.TrimSpace(n), config)}
		}
		jobs = append(jobs, job)
	}
	return jobs, nil
}

// jobLabels reads people's labels once (none without a file) and
// returns each job's: the column -label-topic names, or the job's own.
// A job without its column fails here, before any crawl.
func jobLabels(jobs []pipeline.Job, path, topic string) ([]map[string]int, error) {
	out := make([]map[string]int, len(jobs))
	if path == "" {
		return out, nil
	}
	names, all, err := evaluate.ReadAssessments(path)
	for i, job := range jobs {
		if err == nil {
			out[i], err = evaluate.LabelsOf(path, names, all, cmp.Or(topic, job.Name))
		}
		if err != nil {
			return nil, &pipeline.Error{Op: "evaluate", Job: job.Name, Kind: pipeline.Invalid, Err: fmt.Errorf("-labels: %w", err)}
		}
	}
	return out, nil
}

// evaluation is what evaluate's flags ask of each job.
type evaluation struct {
	strategies   []string
	admission    string
	nights       int
	oracleCorpus string
	labelJudge   bool
}

// run evaluates one job, judged by labels when there are some: crawls
// it once per strategy (or night by night), prints the tables and saves
// them under the job's evaluate folder.
func (e evaluation) run(ctx context.Context, r *pipeline.Runner, out string, job pipeline.Job, labels map[string]int, stdout io.Writer) (*evaluate.Report, error) {
	fail := func(kind pipeline.Kind, err error) error {
		return &pipeline.Error{Op: "evaluate", Job: job.Name, Kind: kind, Err: err}
	}
	truth := evaluate.Truth{Labels: labels, LabelJudge: e.labelJudge}
	if e.oracleCorpus != "" {
		texts, err := pipeline.TopicTexts(job.TopicPages)
		if err == nil {
			truth.Oracle, err = evaluate.LoadOracle(e.oracleCorpus, job, texts)
		}
		if err != nil {
			return nil, fail(pipeline.Invalid, fmt.Errorf("-oracle-corpus: %w", err))
		}
	}
	var rep *evaluate.Report
	var err error
	if e.nights > 0 {
		stateDir, err := evaluate.StateDir(out, job.Name)
		if err != nil {
			return nil, fail(pipeline.Failed, err)
		}
		defer os.RemoveAll(stateDir)
		rep, err = evaluate.EvaluateNights(ctx, r, job, e.strategies, e.admission, e.nights, truth, stateDir, r.Log)
		if err == nil {
			err = rep.PrintNights(stdout)
		}
		if err == nil {
			err = rep.PrintPeople(stdout)
		}
		if err != nil {
			return nil, fail(pipeline.Failed, err)
		}
	} else {
		rep, err = evaluate.Evaluate(ctx, r, job, e.strategies, e.admission, truth, r.Log)
		if err == nil {
			err = rep.Print(stdout)
		}
		if err == nil {
			err = rep.PrintPeople(stdout)
		}
		if err != nil {
			return nil, fail(pipeline.Failed, err)
		}
	}
	dir := evaluate.Dir(out, job.Name, rep.RunID)
	files, err := rep.Save(dir)
	if err != nil {
		return nil, fail(pipeline.Failed, err)
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Path
	}
	fmt.Fprintf(stdout, "\nwrote %s (%s)\n", dir, strings.Join(names, ", "))
	return rep, nil
}

// evaluateRevisit is evaluate -revisit: a replay of recorded nights.
func evaluateRevisit(f jobFlags, name, policies string, budget, newShare float64, stdout, stderr io.Writer) error {
	var ps []revisit.Policy
	for _, s := range strings.Split(policies, ",") {
		if s = strings.TrimSpace(s); s != "" {
			p, err := revisit.ParsePolicy(s, true)
			if err != nil {
				return usageError{"-policies: " + err.Error()}
			}
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return usageError{"-policies is empty"}
	}
	if !(budget > 0) {
		return usageError{fmt.Sprintf("-budget %v: want a share of the pages (0 < F ≤ 1) or a number of pages", budget)}
	}
	if !(newShare >= 0 && newShare < 1) {
		return usageError{fmt.Sprintf("-new-share %v: want a share in [0,1)", newShare)}
	}
	cfg, _, err := f.runner(stderr)
	if err != nil {
		return err
	}
	job, ok := cfg.Job(name)
	if !ok {
		return usageError{fmt.Sprintf("no job %q in %s", name, f.config)}
	}
	rep, err := evaluate.EvaluateRevisit(f.out, job, ps, budget, newShare)
	if err != nil {
		return &pipeline.Error{Op: "evaluate", Job: job.Name, Kind: pipeline.Failed, Err: err}
	}
	if err := rep.Print(stdout); err != nil {
		return err
	}
	dir := evaluate.RevisitDir(f.out, job.Name, rep.RunID)
	if err := rep.Save(dir); err != nil {
		return &pipeline.Error{Op: "evaluate", Job: job.Name, Kind: pipeline.Failed, Err: err}
	}
	fmt.Fprintf(stdout, "\nwrote %s (revisit.parquet, revisit.png, revisit.svg)\n", dir)
	return nil
}

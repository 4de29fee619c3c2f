// Command trainprior learns the prior of a new topic's link model
// (stages/crawl/learn/prior.json) from the corpus: it crawls each training
// job once, best-first with the learned strategy and no prior, from a
// mirror of the corpus, and averages the topic-free weights of the models
// the crawls end with (learn.Average: the bias, the weights of the
// similarity weight, the parent's relevance, the depth, the sibling
// shares and the topic-term features), over the topics whose models
// learned from at least -min-relevant links to relevant pages. Crawls
// are deterministic, so the same corpus and jobs give the same prior
// (TestTrainReproducesShipped).
//
//	go run ./cmd/trainprior -config docs/learned/prior-topics.yaml \
//	  -base-url <wikimirror -closed> \
//	  -corpus "the 2018 corpus (2,695 pages) through wikimirror -closed"
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/learn"
	"github.com/topicrank/topicrank/stages/crawl/store"
)

func main() {
	config := flag.String("config", "docs/learned/prior-topics.yaml", "jobs file of the training topics")
	jobs := flag.String("jobs", "", "comma-separated training jobs (default: all)")
	base := flag.String("base-url", "", "the mirror serving the corpus (required)")
	corpus := flag.String("corpus", "", "what the mirror serves, recorded in the prior")
	out := flag.String("out", "stages/crawl/learn/prior.json", "where to write the prior")
	minRel := flag.Int("min-relevant", 10, "average the models that learned from at least this many links to relevant pages")
	flag.Parse()
	if err := train(*config, *jobs, *base, *corpus, *out, *minRel); err != nil {
		fmt.Fprintln(os.Stderr, "trainprior:", err)
		os.Exit(1)
	}
}

func train(config, names, base, corpus, out string, minRel int) error {
	if base == "" {
		return fmt.Errorf("-base-url is required: a mirror of the corpus (wikimirror -closed)")
	}
	cfg, err := pipeline.LoadConfig(config)
	if err != nil {
		return err
	}
	jobs := cfg.Jobs
	if names != "" {
		jobs = nil
		for _, n := range strings.Split(names, ",") {
			j, ok := cfg.Job(strings.TrimSpace(n))
			if !ok {
				return fmt.Errorf("no job %q in %s", n, config)
			}
			jobs = append(jobs, j)
		}
	}
	tmp, err := os.MkdirTemp("", "trainprior")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	log := slog.New(slog.DiscardHandler)
	r := pipeline.NewRunner(tmp, log)
	r.BaseURL, r.LinkPrior = strings.TrimRight(base, "/"), nil // trained without a prior
	var models [][]byte
	for i, job := range jobs {
		job.Strategy, job.Admission = "learned", "best-first"
		m, err := trainOn(r, job, filepath.Join(tmp, job.Name+".sqlite"), log)
		if err != nil {
			return fmt.Errorf("job %s: %w", job.Name, err)
		}
		p, err := learn.Dense(m)
		if err != nil {
			return fmt.Errorf("job %s: %w", job.Name, err)
		}
		fmt.Printf("%3d/%d %-36s bias %+.2f sim %+.2f rel %+.2f depth %+.2f siblings %+.2f %+.2f topic terms %+.2f %+.2f %+.2f\n", i+1, len(jobs), job.Name,
			p.Bias, p.Sim, p.Rel, p.Depth, p.SibRel, p.SibIrr, p.Anchor, p.Context, p.Title)
		models = append(models, m)
	}
	prior, err := learn.Average(models, minRel)
	if err != nil {
		return err
	}
	for _, job := range jobs {
		prior.Topics = append(prior.Topics, job.Name)
	}
	prior.Corpus = corpus
	b, err := json.MarshalIndent(prior, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// trainOn crawls job once with a state of its own and returns the model
// the crawl ended with (Learner.Model's bytes).
func trainOn(r *pipeline.Runner, job pipeline.Job, state string, log *slog.Logger) ([]byte, error) {
	cfg, err := r.CrawlConfig(job, log)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(state, "train")
	if err != nil {
		return nil, err
	}
	cfg.State, cfg.Beyond = st, 0 // one night, none after it to judge for
	_, err = crawl.Crawl(context.Background(), cfg)
	if ferr := st.Finish("complete"); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, err
	}
	models, err := store.LinkModels(state)
	if err != nil {
		return nil, err
	}
	if len(models) != 1 {
		return nil, fmt.Errorf("%d models kept, want 1", len(models))
	}
	return models[0], nil
}

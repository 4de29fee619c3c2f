// Command trainprior learns the prior of a new topic's link model
// (stages/crawl/learn/prior.json) from the corpus: it crawls each training
// job once, best-first with the learned strategy and no prior, from a
// mirror of the corpus, and averages the topic-free weights of the models
// the crawls end with (the bias and the weights of the similarity weight,
// the parent's relevance, the depth and the sibling shares). Crawls are
// deterministic, so the same corpus and jobs give the same prior.
//
//	go run ./cmd/trainprior -config docs/learned/topics.yaml \
//	  -jobs seattle-news,us-senate,... -base-url <wikimirror -closed> \
//	  -corpus "2018 corpus, wikimirror -closed" -out stages/crawl/learn/prior.json
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
	config := flag.String("config", "docs/learned/topics.yaml", "jobs file of the training topics")
	jobs := flag.String("jobs", "", "comma-separated training jobs (default: all)")
	base := flag.String("base-url", "", "the mirror serving the corpus (required)")
	corpus := flag.String("corpus", "", "what the mirror serves, recorded in the prior")
	out := flag.String("out", "stages/crawl/learn/prior.json", "where to write the prior")
	flag.Parse()
	if err := train(*config, *jobs, *base, *corpus, *out); err != nil {
		fmt.Fprintln(os.Stderr, "trainprior:", err)
		os.Exit(1)
	}
}

func train(config, names, base, corpus, out string) error {
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
	var sum learn.Prior
	for _, job := range jobs {
		job.Strategy, job.Admission = "learned", "best-first"
		p, err := trainOn(r, job, filepath.Join(tmp, job.Name+".sqlite"), log)
		if err != nil {
			return fmt.Errorf("job %s: %w", job.Name, err)
		}
		fmt.Printf("%-24s bias %+.3f sim %+.3f rel %+.3f depth %+.3f siblings %+.3f %+.3f\n", job.Name, p.Bias, p.Sim, p.Rel, p.Depth, p.SibRel, p.SibIrr)
		sum.Bias, sum.Sim, sum.Rel, sum.Depth = sum.Bias+p.Bias, sum.Sim+p.Sim, sum.Rel+p.Rel, sum.Depth+p.Depth
		sum.SibRel, sum.SibIrr = sum.SibRel+p.SibRel, sum.SibIrr+p.SibIrr
		sum.Topics = append(sum.Topics, job.Name)
	}
	n := float64(len(jobs))
	prior := learn.Prior{Bias: sum.Bias / n, Sim: sum.Sim / n, Rel: sum.Rel / n, Depth: sum.Depth / n,
		SibRel: sum.SibRel / n, SibIrr: sum.SibIrr / n, Topics: sum.Topics, Corpus: corpus}
	b, err := json.MarshalIndent(prior, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// trainOn crawls job once with a state of its own and returns the
// topic-free weights of the model the crawl ended with.
func trainOn(r *pipeline.Runner, job pipeline.Job, state string, log *slog.Logger) (learn.Prior, error) {
	cfg, err := r.CrawlConfig(job, log)
	if err != nil {
		return learn.Prior{}, err
	}
	st, err := store.Open(state, "train")
	if err != nil {
		return learn.Prior{}, err
	}
	cfg.State = st
	_, err = crawl.Crawl(context.Background(), cfg)
	if ferr := st.Finish("complete"); err == nil {
		err = ferr
	}
	if err != nil {
		return learn.Prior{}, err
	}
	models, err := store.LinkModels(state)
	if err != nil {
		return learn.Prior{}, err
	}
	if len(models) != 1 {
		return learn.Prior{}, fmt.Errorf("%d models kept, want 1", len(models))
	}
	return learn.Dense(models[0])
}

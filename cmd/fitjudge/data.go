package main

import (
	"fmt"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/evaluate"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/text"
)

// example is one page judged against one topic.
type example struct {
	topic    int
	key      string
	e        text.Evidence
	label    int // people's 0, 1 or 2
	relevant bool
}

// dataset is every assessed page under every topic.
type dataset struct {
	topics   []string
	examples []example
}

// rows returns the examples of the topics keep allows (nil: all).
func (d *dataset) rows(keep func(topic int) bool) []example {
	var out []example
	for _, x := range d.examples {
		if keep == nil || keep(x.topic) {
			out = append(out, x)
		}
	}
	return out
}

// load reads the labels, the topics' words and the corpus, and returns
// each labelled page's evidence under each topic.
func load(corpus, labelsPath, config string) (*dataset, error) {
	names, labels, err := evaluate.ReadAssessments(labelsPath)
	if err != nil {
		return nil, err
	}
	cfg, err := pipeline.LoadConfig(config)
	if err != nil {
		return nil, err
	}
	topics := make([]*text.Topic, len(names))
	for i, n := range names {
		job, ok := cfg.Job(n)
		if !ok {
			return nil, fmt.Errorf("%s: no job %q for the labels' topic %q", config, n, n)
		}
		topics[i] = text.NewTopic(job.Topics, nil)
	}
	d := &dataset{topics: names}
	x := page.Extractor{Scope: page.ScopeProse}
	seen := map[string]bool{}
	err = evaluate.WalkCorpus(corpus, func(key string, body []byte) error {
		l, ok := labels[key]
		if !ok || seen[key] {
			return nil
		}
		seen[key] = true
		p := x.Judged(body)
		for i, t := range topics {
			d.examples = append(d.examples, example{topic: i, key: key, e: t.Evidence(p), label: l[i], relevant: l[i] >= 1})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("%s: no page of %s is in the corpus", labelsPath, corpus)
	}
	return d, nil
}

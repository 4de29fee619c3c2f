package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

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
	names, labels, err := readLabels(labelsPath)
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

// readLabels reads the assessments: a header "page<TAB>topic..." and a
// line per page of its key and one label (0, 1 or 2) per topic.
func readLabels(path string) ([]string, map[string][]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	if !sc.Scan() {
		return nil, nil, fmt.Errorf("%s: empty; want a header line", path)
	}
	head := strings.Split(sc.Text(), "\t")
	if len(head) < 2 {
		return nil, nil, fmt.Errorf("%s:1: want a header of page and topic names, tab-separated", path)
	}
	labels := map[string][]int{}
	for n := 2; sc.Scan(); n++ {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != len(head) {
			return nil, nil, fmt.Errorf("%s:%d: %d fields, want %d", path, n, len(f), len(head))
		}
		l := make([]int, len(f)-1)
		for i, s := range f[1:] {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 || v > 2 {
				return nil, nil, fmt.Errorf("%s:%d: label %q of %s: want 0, 1 or 2", path, n, s, head[i+1])
			}
			l[i] = v
		}
		key, ok := page.ArticleKey("/wiki/"+f[0], nil)
		if !ok {
			key = f[0]
		}
		labels[key] = l
	}
	return head[1:], labels, sc.Err()
}

package evaluate

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/topicrank/topicrank/internal/tarzst"
	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/text"
)

// Oracle is the name of the evaluation-only strategy that fetches by the
// true relevance of each link's target: the ceiling a strategy could reach
// at a budget.
const Oracle = "oracle"

// LoadOracle reads a corpus archive (a .tar.zst of saved pages, each with
// a "<!-- METADATA ... uri: https://host/wiki/Title" header, as
// ../shared/data/wikipedia-2018 holds) and returns the relevance to job's
// topic of every article in it, judged exactly as the crawl judges a
// fetched page (the prose scope's text). On the closed-world mirror of the
// same corpus every link leads to one of these pages.
func LoadOracle(path string, job pipeline.Job, topicTexts []string) (map[string]float64, error) {
	x := page.Extractor{Scope: page.ScopeProse, Topic: text.NewTopic(job.Topics, topicTexts)}
	out := map[string]float64{}
	err := WalkCorpus(path, func(key string, body []byte) error {
		doc := x.Extract(body)
		out[key] = doc.Relevance
		if doc.Canonical != "" {
			out[doc.Canonical] = doc.Relevance
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no saved article pages (want HTML files with a METADATA uri)", path)
	}
	return out, nil
}

// WalkCorpus calls f with the article key and body of every saved page of
// a corpus archive (as LoadOracle reads it).
func WalkCorpus(path string, f func(key string, body []byte) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	err = tarzst.Walk(file, func(name string, contents io.Reader) error {
		if !strings.HasSuffix(name, ".html") {
			return nil
		}
		body, err := io.ReadAll(io.LimitReader(contents, 64<<20))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if key, ok := corpusKey(body); ok {
			return f(key, body)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// corpusKey returns the article key of a saved page's METADATA uri.
func corpusKey(body []byte) (string, bool) {
	head, _, ok := bytes.Cut(body, []byte("-->"))
	if !ok || !bytes.Contains(head, []byte("METADATA")) {
		return "", false
	}
	_, uri, ok := bytes.Cut(head, []byte("uri: "))
	if !ok {
		return "", false
	}
	uri, _, _ = bytes.Cut(uri, []byte("\n"))
	u := strings.TrimSpace(string(uri))
	if i := strings.Index(u, "/wiki/"); i >= 0 {
		return page.ArticleKey(u[i:], nil)
	}
	return "", false
}

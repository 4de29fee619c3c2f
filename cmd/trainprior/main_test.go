package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/learn"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// The shipped prior is what trainprior makes from the corpus: trained
// again on docs/learned/prior-topics.yaml through a closed-world mirror,
// it comes out the same to the byte.
func TestTrainReproducesShipped(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls 243 training topics")
	}
	if raceBuild {
		t.Skip("measures crawls, not concurrency: .ci/run runs it without the race detector")
	}
	base := wikitest.Mirror(t, "-closed")
	shippedPath := filepath.Join("..", "..", "stages", "crawl", "learn", "prior.json")
	shipped, err := os.ReadFile(shippedPath)
	if err != nil {
		t.Fatal(err)
	}
	var p learn.Prior
	if err := json.Unmarshal(shipped, &p); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "prior.json")
	config := filepath.Join("..", "..", "docs", "learned", "prior-topics.yaml")
	if err := train(config, "", base, p.Corpus, out, p.MinRelevant); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, shipped) {
		t.Errorf("trainprior made\n%s\nthe shipped prior is\n%s", got, shipped)
	}
}

// Bad input: no mirror, an unknown job.
func TestTrainErrors(t *testing.T) {
	config := filepath.Join("..", "..", "docs", "learned", "prior-topics.yaml")
	if err := train(config, "", "", "", filepath.Join(t.TempDir(), "p.json"), 10); err == nil {
		t.Error("no -base-url: no error")
	}
	if err := train(config, "no-such-topic", "http://127.0.0.1:1", "", filepath.Join(t.TempDir(), "p.json"), 10); err == nil {
		t.Error("an unknown job: no error")
	}
}

// Command fitjudge fits the relevance judge (stages/text/judge.json) to
// people's assessments: for every assessed page and topic it reads the
// page's Evidence as the crawl does, fits a logistic model of "labelled at
// least 1" by L2-regularised Newton steps, and reports, topic by topic,
// precision, recall and F1 at the default threshold, fitted on every
// topic and, the honest figure, on the other topics only (leave one topic
// out). The fit is deterministic: the same corpus, labels and topics give
// the same judge, byte for byte (TestFitReproducesShipped).
//
//	go run ./cmd/fitjudge -corpus wikipedia-2018.tar.zst \
//	  -labels assessments/dev-labels.tsv -config docs/relevance/assessed-topics.yaml
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	corpus := flag.String("corpus", "", "the assessed corpus archive (.tar.zst; required)")
	labels := flag.String("labels", "", "the assessments: TSV of page key and one label per topic (required)")
	config := flag.String("config", "docs/relevance/assessed-topics.yaml", "jobs file naming each assessed topic's words (job name = label column)")
	out := flag.String("out", "", "where to write the judge (default: print the report only)")
	flag.Parse()
	if err := run(os.Stdout, *corpus, *labels, *config, *out); err != nil {
		fmt.Fprintln(os.Stderr, "fitjudge:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, corpus, labels, config, out string) error {
	if corpus == "" || labels == "" {
		return fmt.Errorf("-corpus and -labels are required")
	}
	set, err := load(corpus, labels, config)
	if err != nil {
		return err
	}
	j := fit(set.rows(nil))
	report(w, set, j)
	if out == "" {
		return nil
	}
	b, err := encode(j, set)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}

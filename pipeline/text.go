package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/publish"
	"github.com/topicrank/topicrank/stages/rank"
	"github.com/topicrank/topicrank/stages/search"
	"github.com/topicrank/topicrank/stages/text"
)

// indexDir is the run's search index, beside its tables.
const indexDir = "index"

// relevances are the pages' relevance, by vertex id: topic-sensitive
// PageRank's teleport weights.
func relevances(res *crawl.Result) []float64 {
	w := make([]float64, len(res.Pages))
	for i, p := range res.Pages {
		w[i] = p.Relevance
	}
	return w
}

// nearDuplicates finds each page's earlier near-duplicate by MinHash over
// its article text (text.NearDuplicates).
func nearDuplicates(res *crawl.Result, threshold float64) ([]int, []float64) {
	sigs := make([][]uint64, len(res.Pages))
	for i, p := range res.Pages {
		sigs[i] = text.Signature(p.Text)
	}
	return text.NearDuplicates(sigs, threshold)
}

// buildIndex writes the run's search index into dir/index and describes
// its files for the manifest. A page's PageRank in the index is its rank
// at the smallest epsilon.
func buildIndex(dir string, in *publish.Input) ([]publish.File, error) {
	var best *rank.Result
	for i := range in.Ranks {
		if best == nil || in.Ranks[i].Epsilon < best.Epsilon {
			best = &in.Ranks[i]
		}
	}
	docs := make([]search.Doc, 0, len(in.Crawl.Pages))
	for i, p := range in.Crawl.Pages {
		if p.Text == "" {
			continue
		}
		d := search.Doc{Page: p.Key, Title: page.KeyTitle(p.Key), Text: p.Text, Relevance: p.Relevance}
		if best != nil {
			d.PageRank = best.Ranks[i]
		}
		docs = append(docs, d)
	}
	if err := search.Build(filepath.Join(dir, indexDir), docs); err != nil {
		return nil, err
	}
	return describeTree(dir, indexDir)
}

// describeTree lists the files under dir/sub with their sizes and sha256,
// as the manifest lists every file of a run.
func describeTree(dir, sub string) ([]publish.File, error) {
	var files []publish.File
	err := filepath.WalkDir(filepath.Join(dir, sub), func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.Copy(h, f)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files = append(files, publish.File{Path: filepath.ToSlash(rel), Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))})
		return nil
	})
	return files, err
}

// compileAll compiles validated regexps.
func compileAll(patterns []string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, p := range patterns {
		out = append(out, regexp.MustCompile(p))
	}
	return out
}

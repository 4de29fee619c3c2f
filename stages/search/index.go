// Package search is the full-text index of a run's pages (bleve, BM25)
// and its queries, whose scores are boosted by the page's PageRank.
//
// The index reads text as stages/text does (analysis.go), holds each
// page's title and article text, and is built once per run inside the
// run's temporary directory, so that it is published with the run.
package search

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/topicrank/topicrank/internal/perm"
)

// Doc is one page as the index holds it.
type Doc struct {
	Page      string  // "/wiki/Title": the document's id
	Title     string  // the article's title
	Text      string  // the article's text (stages/text)
	PageRank  float64 // the page's PageRank at the run's smallest epsilon
	Relevance float64 // the page's relevance to the job's topic
}

// Field names in the index.
const (
	fieldTitle     = "title"
	fieldBody      = "body"
	fieldPageRank  = "pagerank"
	fieldRelevance = "relevance"
	fieldLength    = "length" // the document's terms, title and text

	// totalLength is the internal key of the sum of every document's
	// length, from which BM25's average length comes.
	totalLength = "topicrank.total_length"
)

// newMapping is the index's mapping: BM25 scoring, title and body as
// analysed, stored text (for snippets), PageRank and relevance stored
// but not searched.
func newMapping() (*mapping.IndexMappingImpl, error) {
	m := bleve.NewIndexMapping()
	if err := addAnalyzer(m); err != nil {
		return nil, err
	}
	m.DefaultAnalyzer = analyzerName
	m.ScoringModel = index.BM25Scoring
	textField := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer, f.Store, f.IncludeTermVectors = analyzerName, true, true
		return f
	}
	number := func() *mapping.FieldMapping {
		f := bleve.NewNumericFieldMapping()
		f.Index, f.IncludeInAll = false, false
		return f
	}
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldTitle, textField())
	doc.AddFieldMappingsAt(fieldBody, textField())
	doc.AddFieldMappingsAt(fieldPageRank, number())
	doc.AddFieldMappingsAt(fieldRelevance, number())
	doc.AddFieldMappingsAt(fieldLength, number())
	m.DefaultMapping = doc
	return m, nil
}

// batchDocs is how many pages go into the index at once: each batch
// becomes a segment that is merged later, so fewer, larger batches are
// cheaper (a 1,000-page run is one or two), within bounded memory.
const batchDocs = 2000

// Build writes the index of docs into dir, which must not exist. Pages
// without text (failed fetches) are left out.
func Build(dir string, docs []Doc) error {
	m, err := newMapping()
	if err != nil {
		return err
	}
	idx, err := bleve.New(dir, m)
	if err != nil {
		return fmt.Errorf("search index %s: %w", dir, err)
	}
	batch := idx.NewBatch()
	total := 0
	for _, d := range docs {
		if d.Text == "" && d.Title == "" {
			continue
		}
		n := length(d.Title) + length(d.Text)
		total += n
		err = batch.Index(d.Page, map[string]any{
			fieldTitle: d.Title, fieldBody: d.Text, fieldPageRank: d.PageRank, fieldRelevance: d.Relevance, fieldLength: n,
		})
		if err == nil && batch.Size() >= batchDocs {
			err = idx.Batch(batch)
			batch.Reset()
		}
		if err != nil {
			break
		}
	}
	if err == nil {
		batch.SetInternal([]byte(totalLength), []byte(strconv.Itoa(total)))
		err = idx.Batch(batch)
	}
	if cerr := idx.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = perm.Like(dir) // bleve makes its folders private (0700)
	}
	if err != nil {
		return fmt.Errorf("search index %s: %w", dir, err)
	}
	return nil
}

// ErrNoIndex says a run has no index: it was published before runs had
// one, or the run is partial.
var ErrNoIndex = errors.New("the run has no search index")

// open opens the index in dir read-only.
func open(dir string) (bleve.Index, error) {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoIndex
	}
	// bleve says "metadata missing" of a folder it may not read: name the
	// real cause.
	if f, err := os.Open(filepath.Join(dir, "index_meta.json")); errors.Is(err, fs.ErrPermission) {
		return nil, fmt.Errorf("search index %s: %w", dir, err)
	} else if err == nil {
		f.Close()
	}
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true})
	if err != nil {
		return nil, fmt.Errorf("search index %s: %w", dir, err)
	}
	return idx, nil
}

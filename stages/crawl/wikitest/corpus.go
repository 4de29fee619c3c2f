package wikitest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// CorpusPage is one saved article page of the 2018 corpus.
type CorpusPage struct {
	Title string // as saved, e.g. "Seattle"
	HTML  []byte
}

var (
	corpusOnce  sync.Once
	corpusPages []CorpusPage
	corpusErr   string
)

// Corpus returns the article pages of the real 2018 corpus in archive
// order, unpacked once per test binary (with the system tar, which knows
// zstd): namespace pages (File:, Category:, ...) and edit pages are left
// out. It skips the test when ../shared is absent.
func Corpus(t testing.TB) []CorpusPage {
	t.Helper()
	shared := Shared(t)
	corpusOnce.Do(func() {
		archive := filepath.Join(shared, "data", "wikipedia-2018", "uw-cse373-en-wikipedia-2018.tar.zst")
		out, err := exec.Command("tar", "--zstd", "-xOf", archive, "--wildcards", "*.html").Output()
		if err != nil {
			corpusErr = "tar cannot unpack the corpus: " + err.Error()
			return
		}
		for _, doc := range bytes.Split(out, []byte("<!-- METADATA")) {
			i := bytes.Index(doc, []byte("-->"))
			if i < 0 {
				continue
			}
			_, uri, _ := bytes.Cut(doc[:i], []byte("uri: https://en.wikipedia.org/wiki/"))
			uri, _, _ = bytes.Cut(uri, []byte("\n"))
			if len(uri) > 0 && !bytes.ContainsAny(uri, ":#?") {
				corpusPages = append(corpusPages, CorpusPage{string(uri), bytes.Clone(doc[i+3:])})
			}
		}
	})
	if corpusErr != "" {
		t.Skip(corpusErr)
	}
	return corpusPages
}

// Page returns the corpus page saved under title, failing the test if
// there is none.
func Page(t testing.TB, title string) []byte {
	t.Helper()
	for _, p := range Corpus(t) {
		if p.Title == title {
			return p.HTML
		}
	}
	t.Fatalf("the corpus has no page %q", title)
	return nil
}

// Modern returns a page of ../shared/data/wikipedia-modern (as Wikipedia
// served it in 2024-2026) by file name, e.g. "Cat.html".
func Modern(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Shared(t), "data", "wikipedia-modern", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ModernPages returns every page of ../shared/data/wikipedia-modern, by
// file name ("Cat.html", ...): the five pages as Wikipedia serves them
// now, one a Parsoid read view.
func ModernPages(t testing.TB) []CorpusPage {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(Shared(t), "data", "wikipedia-modern", "*.html"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no pages in wikipedia-modern: %v", err)
	}
	var pages []CorpusPage
	for _, p := range paths {
		pages = append(pages, CorpusPage{Title: filepath.Base(p), HTML: Modern(t, filepath.Base(p))})
	}
	return pages
}

package publish

import (
	"context"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ReadPageHashes reads page -> content_hash from a published pages.parquet,
// skipping pages that were not fetched.
func ReadPageHashes(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tbl, err := pqarrow.ReadTable(context.Background(), f, parquet.NewReaderProperties(memory.DefaultAllocator),
		pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer tbl.Release()
	pageCol, hashCol := -1, -1
	for i, fld := range tbl.Schema().Fields() {
		switch fld.Name {
		case "page":
			pageCol = i
		case "content_hash":
			hashCol = i
		}
	}
	if pageCol < 0 || hashCol < 0 {
		return nil, fmt.Errorf("%s: no page and content_hash columns", path)
	}
	hashes := make(map[string]string, tbl.NumRows())
	pages, hs := tbl.Column(pageCol).Data().Chunks(), tbl.Column(hashCol).Data().Chunks()
	for c := range pages {
		p, h := pages[c].(*array.String), hs[c].(*array.String)
		for i := range p.Len() {
			if h.IsValid(i) {
				hashes[p.Value(i)] = h.Value(i)
			}
		}
	}
	return hashes, nil
}

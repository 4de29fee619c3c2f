package parquetin

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/topicrank/topicrank/stages/graph"
)

// Text pairs are read a row group at a time: workers decode row groups
// (decompression, pages, the names' hashes) on every core, and one
// goroutine takes the row groups in order and interns each distinct name
// of a row group once, the first time a row uses it. Rows are taken in
// order, src before dst, so vertices are numbered by first mention
// exactly as for an edge list, whatever the workers' timing.

// pairRows bounds the rows of the row groups decoded at once.
const pairRows = 8 << 20

// pair is one row group's src and dst chunks.
type pair struct {
	src, dst chunk
	err      error
}

// readable reports whether the pair of columns src and dst of the
// file can be read by chunk: flat text columns of PLAIN or dictionary
// pages, unencrypted.
func readable(md *file.Reader, src, dst int) bool {
	meta := md.MetaData()
	for _, col := range []int{src, dst} {
		c := meta.Schema.Column(col)
		if c.PhysicalType() != parquet.Types.ByteArray || c.MaxRepetitionLevel() != 0 || c.MaxDefinitionLevel() > 1 {
			return false
		}
		for rg := range meta.NumRowGroups() {
			cc, err := meta.RowGroup(rg).ColumnChunk(col)
			if err != nil || cc.CryptoMetadata() != nil {
				return false
			}
			for _, e := range cc.Encodings() {
				switch e {
				case parquet.Encodings.Plain, parquet.Encodings.PlainDict, parquet.Encodings.RLEDict, parquet.Encodings.RLE:
				default:
					return false
				}
			}
		}
	}
	return true
}

// readPairs adds the edges of the text columns src and dst (leaf column
// indices) of the file to b.
func readPairs(ctx context.Context, path string, pf *file.Reader, src, dst int, b *graph.Builder) error {
	ctx, cancel := context.WithCancel(ctx)
	n := pf.NumRowGroups()
	workers := runtime.GOMAXPROCS(0)
	// Row groups are handed out in order, each with a free pair: the
	// pairs bound the memory, and since the next row group in order
	// always gets one first, the consumer is never left waiting on a
	// row group that waits on a pair. A decoded row group costs about 10
	// bytes a row: row groups of many millions of rows (arrow-go writes
	// up to 64 M) get fewer pairs, and less parallelism.
	largest := int64(1)
	for rg := range n {
		largest = max(largest, pf.MetaData().RowGroup(rg).NumRows())
	}
	free := make(chan *pair, min(workers+1, max(1, int(pairRows/largest))))
	for range cap(free) {
		free <- new(pair)
	}
	done := make([]chan *pair, n)
	for i := range done {
		done[i] = make(chan *pair, 1)
	}
	type job struct {
		rg int
		p  *pair
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel() // runs before the wait
	wg.Go(func() {
		defer close(jobs)
		for rg := range n {
			select {
			case p := <-free:
				jobs <- job{rg, p}
			case <-ctx.Done():
				return
			}
		}
	})
	optional := func(col int) bool { return pf.MetaData().Schema.Column(col).MaxDefinitionLevel() > 0 }
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				j.p.err = decodePair(pf.RowGroup(j.rg), src, dst, optional(src), optional(dst), j.p, b)
				done[j.rg] <- j.p
			}
		})
	}
	row := int64(0)
	var ids idScratch
	for rg := range n {
		var p *pair
		select {
		case p = <-done[rg]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if p.err != nil {
			return fmt.Errorf("%s: row group %d: %w", path, rg, p.err)
		}
		rows := pf.MetaData().RowGroup(rg).NumRows()
		if err := ids.add(p, rows, b); err != nil {
			return rowGroupError(path, pf, src, dst, row, err)
		}
		row += rows
		free <- p
	}
	return nil
}

// decodePair decodes row group rg's chunks of columns src and dst into p.
// arrow-go's page reader panics on some damaged page headers (a
// dictionary page without its header): that is an error in the file.
func decodePair(rg *file.RowGroupReader, src, dst int, srcOpt, dstOpt bool, p *pair, b *graph.Builder) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("damaged pages (the reader failed: %v)", r)
		}
	}()
	for _, c := range []struct {
		col      int
		optional bool
		into     *chunk
	}{{src, srcOpt, &p.src}, {dst, dstOpt, &p.dst}} {
		pr, err := rg.GetColumnPageReader(c.col)
		if err != nil {
			return err
		}
		err = c.into.read(pr, c.optional, b)
		pr.Close()
		if err != nil {
			return fmt.Errorf("column %s: %w", rg.MetaData().Schema.Column(c.col).Name(), err)
		}
	}
	return nil
}

// idScratch holds the vertices of a row group's values, +1 (0: not yet
// interned).
type idScratch struct{ src, dst []uint32 }

// add interns the names of a decoded row group of rows rows as its rows
// first use them, and adds its edges.
func (s *idScratch) add(p *pair, rows int64, b *graph.Builder) error {
	if int64(len(p.src.rows)) != rows || int64(len(p.dst.rows)) != rows {
		return fmt.Errorf("%d and %d values in a row group of %d rows", len(p.src.rows), len(p.dst.rows), rows)
	}
	s.src, s.dst = resize(s.src, len(p.src.ends)), resize(s.dst, len(p.dst.ends))
	clear(s.src)
	clear(s.dst)
	for i, a := range p.src.rows {
		c := p.dst.rows[i]
		if a == null {
			return nullAt{i, 0}
		}
		if c == null {
			return nullAt{i, 1}
		}
		u := s.src[a]
		if u == 0 {
			u = b.VertexHashed(p.src.value(a), p.src.hashes[a]) + 1
			s.src[a] = u
		}
		v := s.dst[c]
		if v == 0 {
			v = b.VertexHashed(p.dst.value(c), p.dst.hashes[c]) + 1
			s.dst[c] = v
		}
		b.AddEdge(u-1, v-1)
	}
	return nil
}

// nullAt is a null at a row of a row group, in src (0) or dst (1).
type nullAt struct{ row, col int }

func (e nullAt) Error() string { return "a null" }

// rowGroupError places err, from the row group starting at row, in the
// file.
func rowGroupError(path string, pf *file.Reader, src, dst int, row int64, err error) error {
	if e, ok := err.(nullAt); ok {
		col := pf.MetaData().Schema.Column([]int{src, dst}[e.col]).Name()
		return fmt.Errorf("%s: row %d: a null %s", path, row+int64(e.row)+1, col)
	}
	return fmt.Errorf("%s: rows from %d: %w", path, row+1, err)
}

package parquetin

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/topicrank/topicrank/stages/graph"
)

// Text pairs are read a row group at a time: workers decode row groups
// (decompression, pages, the names' hashes) on every core, a slice of
// rows at a time, and one goroutine takes the slices in order and
// interns each distinct name of a row group once, the first time a row
// uses it. Rows are taken in order, src before dst, so vertices are
// numbered by first mention exactly as for an edge list, whatever the
// workers' timing.

// Row groups decoded at once, and rows in a slice. A row group's values
// (its distinct names) are held until its last slice is interned; its
// rows only a slice at a time.
const (
	pairRows  = 32 << 20
	sliceRows = 1 << 20
)

// pair is one row group's src and dst chunks being decoded, and the
// slices of rows decoded from them: two, used in turn.
type pair struct {
	src, dst      chunk
	slices, spare chan *slice
	err           error // once slices is closed
}

// slice is a run of rows of a row group: their src and dst values, and
// the values decoded so far.
type slice struct {
	src, dst         []uint32
	srcVals, dstVals values
}

func newPair() *pair {
	p := &pair{spare: make(chan *slice, 2)}
	p.spare <- new(slice)
	p.spare <- new(slice)
	return p
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
		free <- newPair()
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
				j.p.slices = make(chan *slice, 2)
				done[j.rg] <- j.p
				j.p.err = decodePair(ctx, pf.RowGroup(j.rg), src, dst, optional(src), optional(dst), j.p, b)
				close(j.p.slices)
			}
		})
	}
	row := int64(0)
	var ids idScratch
	column := [2]string{pf.MetaData().Schema.Column(src).Name(), pf.MetaData().Schema.Column(dst).Name()}
	for rg := range n {
		var p *pair
		select {
		case p = <-done[rg]:
		case <-ctx.Done():
			return ctx.Err()
		}
		ids.src, ids.dst = ids.src[:0], ids.dst[:0]
		got := int64(0)
		for s := range p.slices {
			if end, err := ids.add(s, b); err != nil {
				return columnError(path, column[end], row+got, err)
			}
			got += int64(len(s.src))
			p.spare <- s
		}
		if p.err != nil {
			return fmt.Errorf("%s: row group %d: %w", path, rg, p.err)
		}
		if rows := pf.MetaData().RowGroup(rg).NumRows(); got != rows {
			return fmt.Errorf("%s: row group %d: %d rows of values in a row group of %d rows", path, rg, got, rows)
		}
		row += got
		free <- p
	}
	return nil
}

// decodePair decodes row group rg's chunks of columns src and dst into
// p's slices. arrow-go's page reader panics on some damaged page headers
// (a dictionary page without its header): that is an error in the file.
func decodePair(ctx context.Context, rg *file.RowGroupReader, src, dst int, srcOpt, dstOpt bool, p *pair, b *graph.Builder) (err error) {
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
		defer pr.Close()
		c.into.open(pr, c.optional)
	}
	name := func(col int) string { return rg.MetaData().Schema.Column(col).Name() }
	for {
		if err := p.src.fill(sliceRows, b); err != nil {
			return fmt.Errorf("column %s: %w", name(src), err)
		}
		if err := p.dst.fill(sliceRows, b); err != nil {
			return fmt.Errorf("column %s: %w", name(dst), err)
		}
		n := min(len(p.src.rows), len(p.dst.rows))
		if n == 0 {
			if len(p.src.rows) > 0 || len(p.dst.rows) > 0 {
				return fmt.Errorf("columns %s and %s hold different numbers of rows", name(src), name(dst))
			}
			return nil
		}
		var s *slice
		select {
		case s = <-p.spare:
		case <-ctx.Done():
			return ctx.Err()
		}
		s.src, s.dst = p.src.take(s.src, n), p.dst.take(s.dst, n)
		s.srcVals, s.dstVals = p.src.values, p.dst.values
		p.slices <- s
	}
}

// idScratch holds the vertices of a row group's values, +1 (0: not yet
// interned).
type idScratch struct{ src, dst []uint32 }

// add interns the names of a slice of rows as its rows first use them,
// and adds its edges. A null is a rowError in the endpoint it returns
// (0 src, 1 dst).
func (s *idScratch) add(sl *slice, b *graph.Builder) (int, error) {
	s.src, s.dst = extend(s.src, len(sl.srcVals.ends)), extend(s.dst, len(sl.dstVals.ends))
	for i, a := range sl.src {
		c := sl.dst[i]
		if a == null {
			return 0, rowError{i, errNull}
		}
		if c == null {
			return 1, rowError{i, errNull}
		}
		u := s.src[a]
		if u == 0 {
			u = b.VertexHashed(sl.srcVals.value(a), sl.srcVals.hashes[a]) + 1
			s.src[a] = u
		}
		v := s.dst[c]
		if v == 0 {
			v = b.VertexHashed(sl.dstVals.value(c), sl.dstVals.hashes[c]) + 1
			s.dst[c] = v
		}
		b.AddEdge(u-1, v-1)
	}
	return 0, nil
}

// extend lengthens ids to n, the new entries 0.
func extend(ids []uint32, n int) []uint32 {
	if n <= len(ids) {
		return ids
	}
	from := len(ids)
	ids = slices.Grow(ids, n-from)[:n]
	clear(ids[from:])
	return ids
}

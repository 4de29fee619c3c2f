// Package parquet writes Parquet files: flat tables of required or
// optional columns of numbers, booleans, text and UTC timestamps,
// zstd-compressed, with version 1 data pages, column statistics, and
// dictionaries for text.
//
// It exists for speed where a general writer hashes: a text column can be
// handed over as a dictionary and indices (Dict), as a graph's interned
// vertex names are, and its dictionary page is written from them as it is.
// The columns of a row group are encoded in parallel.
//
// The format is apache/parquet-format's; files are checked by reading
// them back with arrow-go's reader and with DuckDB.
package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/topicrank/topicrank/internal/parallel"
)

const magic = "PAR1"

// pageBytes is the size of a data page's values before compression, as
// most writers choose: small enough for readers to skip, large enough to
// compress well. Tests make it smaller.
var pageBytes = 1 << 20

// KeyValue is an entry of a file's key-value metadata.
type KeyValue struct{ Key, Value string }

// Writer writes one Parquet file a row group at a time.
type Writer struct {
	w         io.Writer
	cols      []Column
	kv        []KeyValue
	createdBy string
	offset    int64 // bytes written
	groups    []rowGroupMeta
	chunks    []chunkWriter // by column, reused from row group to row group
	err       error
}

// NewWriter starts a file of the given columns on w. createdBy names the
// writing program, as "name version x.y.z", and kv is added to the
// footer's metadata.
func NewWriter(w io.Writer, cols []Column, createdBy string, kv ...KeyValue) (*Writer, error) {
	seen := map[string]bool{}
	for _, c := range cols {
		switch {
		case c.Name == "":
			return nil, errors.New("parquet: a column without a name")
		case seen[c.Name]:
			return nil, fmt.Errorf("parquet: two columns named %q", c.Name)
		case c.Type < Int32 || c.Type > Timestamp:
			return nil, fmt.Errorf("parquet: column %s: unknown type %d", c.Name, int(c.Type))
		case c.Dict && c.Type != String:
			return nil, fmt.Errorf("parquet: column %s: a dictionary for a %v column", c.Name, c.Type)
		}
		seen[c.Name] = true
	}
	pw := &Writer{w: w, cols: cols, kv: kv, createdBy: createdBy, chunks: make([]chunkWriter, len(cols))}
	pw.write([]byte(magic))
	return pw, pw.err
}

// WriteRowGroup writes one row group: a chunk per column, in the order of
// the columns, each of the same number of rows. The chunks are the
// caller's again when it returns.
func (w *Writer) WriteRowGroup(chunks ...Chunk) error {
	if w.err != nil {
		return w.err
	}
	if len(chunks) != len(w.cols) {
		return fmt.Errorf("parquet: %d chunks for %d columns", len(chunks), len(w.cols))
	}
	for i, ch := range chunks {
		if err := checkChunk(w.cols[i], ch); err != nil {
			return err
		}
		if ch.Len() != chunks[0].Len() {
			return fmt.Errorf("parquet: column %s has %d rows, column %s %d", w.cols[i].Name, ch.Len(), w.cols[0].Name, chunks[0].Len())
		}
	}
	errs := make([]error, len(chunks))
	parallel.For(len(chunks), func(i int) {
		w.chunks[i].reset(w.cols[i])
		errs[i] = chunks[i].encode(&w.chunks[i])
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	g := rowGroupMeta{rows: int64(chunks[0].Len())}
	for i := range w.chunks {
		c := &w.chunks[i]
		c.meta.place(w.offset)
		g.chunks = append(g.chunks, c.meta)
		w.write(c.out)
	}
	w.groups = append(w.groups, g)
	return w.err
}

// Close writes the footer. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	f := footer(w.cols, w.groups, w.kv, w.createdBy)
	w.write(f)
	w.write(binary.LittleEndian.AppendUint32(nil, uint32(len(f))))
	w.write([]byte(magic))
	w.chunks = nil
	return w.err
}

func (w *Writer) write(p []byte) {
	if w.err != nil {
		return
	}
	n, err := w.w.Write(p)
	w.offset += int64(n)
	w.err = err
}

// chunkWriter encodes one column chunk into memory: its pages and what the
// footer says of them.
type chunkWriter struct {
	col  Column
	out  []byte // page headers and compressed pages
	body []byte // a page before compression
	zbuf []byte // a page after compression
	meta chunkMeta
}

func (w *chunkWriter) reset(col Column) {
	w.col, w.out = col, w.out[:0]
	w.meta = chunkMeta{dictOffset: -1}
}

var encoder = sync.OnceValue(func() *zstd.Encoder {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithZeroFrames(true),
		zstd.WithAllLitEntropyCompression(true), zstd.WithEncoderCRC(false)) // pages need no checksum of their own
	if err != nil {
		panic(err) // only for invalid options
	}
	return e
})

// page compresses body and appends it with its header.
func (w *chunkWriter) page(dict bool, values int, enc int32) {
	w.zbuf = encoder().EncodeAll(w.body, w.zbuf[:0])
	h := pageHeader(dict, values, len(w.body), len(w.zbuf), enc)
	if dict {
		w.meta.dictOffset = int64(len(w.out))
	} else {
		if w.meta.dataPages == 0 {
			w.meta.dataOffset = int64(len(w.out))
		}
		w.meta.dataPages++
		w.meta.numValues += int64(values)
	}
	w.out = append(append(w.out, h...), w.zbuf...)
	w.meta.uncompressed += int64(len(h) + len(w.body))
	w.meta.compressed += int64(len(h) + len(w.zbuf))
}

// startPage begins a data page's body of the rows whose definition levels
// are given: a version 1 page holds them RLE-encoded after their length.
func (w *chunkWriter) startPage(levels []uint8) {
	w.body = w.body[:0]
	if !w.col.Optional {
		return
	}
	w.body = append(w.body, 0, 0, 0, 0)
	w.body = appendHybrid(w.body, levels, 1)
	binary.LittleEndian.PutUint32(w.body, uint32(len(w.body)-4))
}

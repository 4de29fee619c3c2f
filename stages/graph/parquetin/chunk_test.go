package parquetin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/topicrank/topicrank/stages/graph"
)

// pairs are 6,000 edges among 800 names, a few of them hubs, some names
// long and some not ASCII, with self-loops and repeats.
func pairs() [][2]string {
	name := func(i int) string {
		switch {
		case i%97 == 0:
			return fmt.Sprintf("/wiki/Ä_%d_%s", i, strings.Repeat("long", 40))
		case i%5 == 0:
			return fmt.Sprintf("/wiki/Hub_%d", i%15)
		}
		return fmt.Sprintf("/wiki/Page_%d", i)
	}
	var out [][2]string
	for i := range 6000 {
		out = append(out, [2]string{name(i * 31 % 800), name(i * 7919 % 800)})
	}
	return out
}

// writePairs writes the pairs with arrow-go's writer and props, the
// columns optional or required.
func writePairs(t *testing.T, path string, ps [][2]string, props *parquet.WriterProperties, nullable bool) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "src", Type: arrow.BinaryTypes.String, Nullable: nullable}, {Name: "dst", Type: arrow.BinaryTypes.String, Nullable: nullable}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, p := range ps {
		b.Field(0).(*array.StringBuilder).Append(p[0])
		b.Field(1).(*array.StringBuilder).Append(p[1])
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// Every way arrow-go writes text pairs reads as the same graph the pairs
// make in order: data pages of version 1 and 2, dictionaries or none, a
// dictionary that overflows into plain pages mid-chunk, many pages and row
// groups, every codec, required and optional columns, and (through arrow,
// not the page decoder) an encoding the decoder does not read.
func TestReadArrowWrittenPairs(t *testing.T) {
	ps := pairs()
	b := graph.NewBuilder()
	for _, p := range ps {
		b.AddEdge(b.Vertex(p[0]), b.Vertex(p[1]))
	}
	want, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		opts     []parquet.WriterProperty
		nullable bool
		decoded  bool // by the page decoder, not arrow
	}{
		{"v1 dictionary", nil, true, true},
		{"v2 dictionary", []parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV2)}, true, true},
		{"v1 plain", []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}, true, true},
		{"v2 plain required", []parquet.WriterProperty{parquet.WithDictionaryDefault(false), parquet.WithDataPageVersion(parquet.DataPageV2)}, false, true},
		{"dictionary overflows to plain", []parquet.WriterProperty{parquet.WithDictionaryPageSizeLimit(2000), parquet.WithDataPageSize(512)}, true, true},
		{"small pages, row groups, snappy", []parquet.WriterProperty{parquet.WithDataPageSize(256), parquet.WithMaxRowGroupLength(700), parquet.WithCompression(compress.Codecs.Snappy)}, true, true},
		{"gzip required", []parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Gzip)}, false, true},
		{"zstd v2 required", []parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDataPageVersion(parquet.DataPageV2)}, false, true},
		{"delta byte array", []parquet.WriterProperty{parquet.WithDictionaryDefault(false), parquet.WithEncoding(parquet.Encodings.DeltaByteArray)}, true, false},
	} {
		path := filepath.Join(t.TempDir(), "e.parquet")
		writePairs(t, path, ps, parquet.NewWriterProperties(c.opts...), c.nullable)
		if got := decodable(t, path); got != c.decoded {
			t.Errorf("%s: read by the page decoder: %v, want %v", c.name, got, c.decoded)
		}
		got, _, err := Read(context.Background(), path, "")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Run(c.name, func(t *testing.T) { sameGraph(t, got, want) })
	}
}

func decodable(t *testing.T, path string) bool {
	tb, err := open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.close()
	pf := tb.reader.ParquetReader()
	return readable(pf, pf.MetaData().Schema.ColumnIndexByName("src"), pf.MetaData().Schema.ColumnIndexByName("dst"))
}

// A null is refused with its file, row and column, in any row group and
// page, dictionary-encoded or plain.
func TestReadPairsRefusesNulls(t *testing.T) {
	for _, opts := range [][]parquet.WriterProperty{
		{parquet.WithMaxRowGroupLength(1000), parquet.WithDataPageSize(300)},
		{parquet.WithDictionaryDefault(false), parquet.WithDataPageVersion(parquet.DataPageV2)},
	} {
		path := filepath.Join(t.TempDir(), "nulls.parquet")
		schema := arrow.NewSchema([]arrow.Field{{Name: "src", Type: arrow.BinaryTypes.String, Nullable: true}, {Name: "dst", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := range 3000 {
			b.Field(0).(*array.StringBuilder).Append(fmt.Sprint("/wiki/", i%40))
			if i == 2345 {
				b.Field(1).(*array.StringBuilder).AppendNull()
				continue
			}
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprint("/wiki/", i%77))
		}
		rec := b.NewRecordBatch()
		f, _ := os.Create(path)
		w, err := pqarrow.NewFileWriter(schema, f, parquet.NewWriterProperties(opts...), pqarrow.DefaultWriterProps())
		if err != nil {
			t.Fatal(err)
		}
		w.Write(rec)
		w.Close()
		if !decodable(t, path) {
			t.Fatal("not read by the page decoder")
		}
		_, _, err = Read(context.Background(), path, "")
		if err == nil || !strings.Contains(err.Error(), "nulls.parquet: row 2346: a null dst") {
			t.Errorf("%v, want row 2346's null dst named", err)
		}
	}
}

// A damaged file is an error naming it, never a panic: every byte is
// altered in turn, pages and footer.
func TestReadPairsDamaged(t *testing.T) {
	for _, props := range []*parquet.WriterProperties{
		parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Uncompressed), parquet.WithDataPageSize(200)),         // the page decoder's
		parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithEncoding(parquet.Encodings.DeltaByteArray)), // arrow's
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "e.parquet")
		writePairs(t, path, pairs()[:60], props, true)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(dir, "bad.parquet")
		for i := range data {
			d := append([]byte(nil), data...)
			d[i] ^= 0x5A
			os.WriteFile(bad, d, 0o644)
			if _, _, err := Read(context.Background(), bad, ""); err != nil && !strings.Contains(err.Error(), "bad.parquet") {
				t.Fatalf("byte %d altered: %v, without the file named", i, err)
			}
		}
	}
}

package parquet

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// testColumns is one column of each kind the writer has.
var testColumns = []Column{
	{Name: "i32", Type: Int32},
	{Name: "i32n", Type: Int32, Optional: true},
	{Name: "i64", Type: Int64},
	{Name: "f64n", Type: Float64, Optional: true},
	{Name: "b", Type: Bool},
	{Name: "bn", Type: Bool, Optional: true},
	{Name: "s", Type: String},
	{Name: "sdn", Type: String, Optional: true, Dict: true},
	{Name: "ts", Type: Timestamp, Optional: true, NoStats: true},
	{Name: "given", Type: String, Dict: true},    // a *Dict
	{Name: "indexed", Type: String},              // the same *Dict, written plainly
	{Name: "rep", Type: Float64, Optional: true}, // a *Repeat
	{Name: "reps", Type: String},                 // a *Repeat
}

// table is what a test wrote: per column, per row, the value or nil.
type table [][]any

// testWords are the text randomGroup draws from, unless told otherwise.
var testWords = []string{"", "a", "Zürich", "/wiki/Seattle", strings.Repeat("x", 5000), "\u202e"}

// randomGroup makes n random rows as chunks of testColumns, and as the
// table a reader should see; text is drawn from words.
func randomGroup(r *rand.Rand, n int, words []string) ([]Chunk, table) {
	var (
		i32, i32n   Col[int32]
		i64, ts     Col[int64]
		f64n        Col[float64]
		b, bn       Col[bool]
		s, sdn      Col[string]
		given       Dict
		nullRate    = r.Float64()
		nullOr      = func() bool { return r.Float64() < nullRate }
		dictionary  = r.IntN(40) + 1
		constRun    = r.IntN(2) == 0 // long runs of equal values
		constantInt = r.Int32()
	)
	want := make(table, len(testColumns))
	for i := range dictionary {
		given.Values = append(given.Values, fmt.Sprintf("v%d", i))
	}
	add := func(col int, v any) { want[col] = append(want[col], v) }
	for row := range n {
		x := r.Int32()
		if constRun {
			x = constantInt
		}
		i32.Append(x)
		add(0, x)
		if nullOr() {
			i32n.AppendNull()
			add(1, nil)
		} else {
			i32n.Append(int32(row))
			add(1, int32(row))
		}
		y := r.Int64() - math.MaxInt64/2
		i64.Append(y)
		add(2, y)
		if nullOr() {
			f64n.AppendNull()
			add(3, nil)
		} else {
			f := [...]float64{r.NormFloat64(), 0, math.Copysign(0, -1), math.Inf(1), math.NaN()}[r.IntN(5)]
			f64n.Append(f)
			add(3, f)
		}
		bv := r.IntN(3) == 0
		b.Append(bv)
		add(4, bv)
		if nullOr() {
			bn.AppendNull()
			add(5, nil)
		} else {
			bn.Append(!bv)
			add(5, !bv)
		}
		w := words[r.IntN(len(words))] + fmt.Sprint(r.IntN(3))
		s.Append(w)
		add(6, w)
		if nullOr() {
			sdn.AppendNull()
			add(7, nil)
		} else {
			first := string([]rune(w)[:1])
			sdn.Append(first)
			add(7, first)
		}
		if nullOr() {
			ts.AppendNull()
			add(8, nil)
		} else {
			ts.Append(int64(row) * 1e6)
			add(8, int64(row)*1e6)
		}
		k := int32(r.IntN(dictionary))
		if constRun {
			k = 0
		}
		given.Index = append(given.Index, k)
		add(9, given.Values[k])
		add(10, given.Values[k])
	}
	indexed := given
	rep := Repeat[float64]{[...]float64{r.NormFloat64(), 0, math.NaN()}[r.IntN(3)], n}
	reps := Repeat[string]{words[r.IntN(len(words))], n}
	for range n {
		add(11, rep.Value)
		add(12, reps.Value)
	}
	return []Chunk{&i32, &i32n, &i64, &f64n, &b, &bn, &s, &sdn, &ts, &given, &indexed, &rep, &reps}, want
}

// Random tables of every column kind, in row groups of random sizes and
// pages of a few hundred bytes, read back by arrow-go's reader: every
// value, every null, and every statistic as arrow-go decodes it.
func TestRoundTripArrow(t *testing.T) {
	defer func(n int) { pageBytes = n }(pageBytes)
	pageBytes = 300
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 30 {
		var buf bytes.Buffer
		want, groups := writeRandom(t, &buf, r, 2000)
		got := readArrow(t, buf.Bytes())
		compareTables(t, fmt.Sprintf("trial %d", trial), got, want)
		checkStats(t, buf.Bytes(), groups)
	}
}

// writeRandom writes a file of up to three row groups of up to maxRows
// random rows (none at all, at times) and returns what a reader should
// see: the whole table and each row group.
func writeRandom(t *testing.T, out io.Writer, r *rand.Rand, maxRows int) (table, []table) {
	t.Helper()
	want, groups, err := writeRandomWords(out, r, maxRows, testWords)
	if err != nil {
		t.Fatal(err)
	}
	return want, groups
}

func writeRandomWords(out io.Writer, r *rand.Rand, maxRows int, words []string) (table, []table, error) {
	w, err := NewWriter(out, testColumns, "topicrank version test", KeyValue{"topicrank.version", "test"})
	if err != nil {
		return nil, nil, err
	}
	want := make(table, len(testColumns))
	var groups []table
	for range r.IntN(4) {
		chunks, g := randomGroup(r, r.IntN(maxRows), words)
		groups = append(groups, g)
		for c := range want {
			want[c] = append(want[c], g[c]...)
		}
		if err := w.WriteRowGroup(chunks...); err != nil {
			return nil, nil, err
		}
	}
	return want, groups, w.Close()
}

func readArrow(t *testing.T, data []byte) table {
	t.Helper()
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	got := make(table, tbl.NumCols())
	for c := range got {
		for _, a := range tbl.Column(c).Data().Chunks() {
			for i := range a.Len() {
				got[c] = append(got[c], valueAt(a, i))
			}
		}
	}
	return got
}

func valueAt(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Timestamp:
		return int64(a.Value(i))
	}
	panic(fmt.Sprintf("unexpected %T", a))
}

func compareTables(t *testing.T, name string, got, want table) {
	t.Helper()
	for c := range want {
		if len(got[c]) != len(want[c]) {
			t.Fatalf("%s: column %s: %d rows, want %d", name, testColumns[c].Name, len(got[c]), len(want[c]))
		}
		for i := range want[c] {
			if !same(got[c][i], want[c][i]) {
				t.Fatalf("%s: column %s row %d: got %#v, want %#v", name, testColumns[c].Name, i, got[c][i], want[c][i])
			}
		}
	}
}

// same compares values bit for bit (NaN, -0).
func same(a, b any) bool {
	if fa, ok := a.(float64); ok {
		fb, ok := b.(float64)
		return ok && math.Float64bits(fa) == math.Float64bits(fb)
	}
	return a == b
}

// checkStats compares each chunk's statistics, as arrow-go reads them,
// with the values written.
func checkStats(t *testing.T, data []byte, groups []table) {
	t.Helper()
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	for g, rows := range groups {
		rg := rdr.MetaData().RowGroup(g)
		for c, col := range testColumns {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			st, err := cc.Statistics()
			if err != nil {
				t.Fatal(err)
			}
			if col.NoStats {
				if st != nil && st.HasMinMax() {
					t.Errorf("group %d column %s: statistics written", g, col.Name)
				}
				continue
			}
			lo, hi, nulls := expectedStats(rows[c])
			if st == nil || st.NullCount() != nulls {
				t.Errorf("group %d column %s: statistics %v, want %d nulls", g, col.Name, st, nulls)
				continue
			}
			if st.HasMinMax() != (lo != nil) {
				t.Errorf("group %d column %s: has min/max %v, want %v", g, col.Name, st.HasMinMax(), lo != nil)
				continue
			}
			if lo == nil {
				continue
			}
			if gotLo, gotHi := statValue(st, true), statValue(st, false); !same(gotLo, lo) || !same(gotHi, hi) {
				t.Errorf("group %d column %s: min/max %v %v, want %v %v", g, col.Name, gotLo, gotHi, lo, hi)
			}
		}
	}
}

func statValue(st metadata.TypedStatistics, min bool) any {
	pick := func(lo, hi any) any {
		if min {
			return lo
		}
		return hi
	}
	switch s := st.(type) {
	case *metadata.Int32Statistics:
		return pick(s.Min(), s.Max())
	case *metadata.Int64Statistics:
		return pick(s.Min(), s.Max())
	case *metadata.Float64Statistics:
		return pick(s.Min(), s.Max())
	case *metadata.BooleanStatistics:
		return pick(s.Min(), s.Max())
	case *metadata.ByteArrayStatistics:
		return pick(string(s.Min()), string(s.Max()))
	}
	return nil
}

// expectedStats computes the bounds of a column's values the slow way.
func expectedStats(vals []any) (lo, hi any, nulls int64) {
	long := false
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			nulls++
			continue
		case float64:
			if math.IsNaN(x) {
				continue
			}
		case string:
			long = long || len(x) > maxStatBytes
		}
		if lo == nil || lessAny(v, lo) {
			lo = v
		}
		if hi == nil || lessAny(hi, v) {
			hi = v
		}
	}
	if f, ok := lo.(float64); ok && f == 0 {
		lo = math.Copysign(0, -1)
	}
	if f, ok := hi.(float64); ok && f == 0 {
		hi = 0.0
	}
	if s, ok := hi.(string); ok && (long && (len(s) > maxStatBytes || len(lo.(string)) > maxStatBytes)) {
		lo, hi = nil, nil
	}
	return lo, hi, nulls
}

func lessAny(a, b any) bool {
	switch a := a.(type) {
	case int32:
		return a < b.(int32)
	case int64:
		return a < b.(int64)
	case float64:
		return a < b.(float64)
	case bool:
		return !a && b.(bool)
	default:
		return a.(string) < b.(string)
	}
}

// Bad input is an error naming the column, never a file readers refuse.
func TestWriterRefuses(t *testing.T) {
	str := func(vals ...string) *Col[string] { return &Col[string]{Values: vals} }
	nullInt := &Col[int32]{}
	nullInt.AppendNull()
	for _, tc := range []struct {
		name   string
		cols   []Column
		chunks []Chunk
		want   string
	}{
		{"two names", []Column{{Name: "a"}, {Name: "a"}}, nil, `two columns named "a"`},
		{"no name", []Column{{Type: Int32}}, nil, "without a name"},
		{"dict int", []Column{{Name: "a", Type: Int32, Dict: true}}, nil, "a dictionary for a int32 column"},
		{"wrong type", []Column{{Name: "a", Type: Int64}}, []Chunk{&Col[int32]{}}, "column a: a *parquet.Col[int32] chunk for a int64 column"},
		{"rows differ", []Column{{Name: "a", Type: String}, {Name: "b", Type: String}}, []Chunk{str("x"), str()}, "column b has 0 rows"},
		{"null required", []Column{{Name: "a", Type: Int32}}, []Chunk{nullInt}, "column a: a null in row 0"},
		{"not utf-8", []Column{{Name: "a", Type: String}}, []Chunk{str("ok", "\xff")}, "column a: value 1"},
		{"bad index", []Column{{Name: "a", Type: String, Dict: true}}, []Chunk{&Dict{Values: []string{"x"}, Index: []int32{0, 1}}}, "row 1: index 1 outside"},
		{"not utf-8 by index", []Column{{Name: "a", Type: String}}, []Chunk{&Dict{Values: []string{"\xc3"}, Index: []int32{0}}}, "column a: row 0"},
		{"repeat not utf-8", []Column{{Name: "a", Type: String}}, []Chunk{&Repeat[string]{Value: "\xff", Rows: 2}}, "column a: value 0"},
	} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, tc.cols, "test")
		if err == nil {
			err = w.WriteRowGroup(tc.chunks...)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzRoundTrip writes random tables whose text comes from the fuzzer
// (words split at NUL) and reads them back with arrow-go: text that is not
// UTF-8 must be refused, any other must come back as it was, with its
// statistics.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(1), "a\x00Zürich\x00\x00/wiki/X")
	f.Add(uint64(2), "\xff\x00ok")
	f.Add(uint64(3), strings.Repeat("long ", 300))
	f.Fuzz(func(t *testing.T, seed uint64, text string) {
		defer func(n int) { pageBytes = n }(pageBytes)
		pageBytes = 64 + int(seed%512)
		words := strings.Split(text, "\x00")
		var buf bytes.Buffer
		want, groups, err := writeRandomWords(&buf, rand.New(rand.NewPCG(seed, 0)), 300, words)
		if err != nil {
			if utf8.ValidString(text) {
				t.Fatal(err)
			}
			return // refused: some text was not UTF-8
		}
		for _, col := range want {
			for _, v := range col {
				if s, ok := v.(string); ok && !utf8.ValidString(s) {
					t.Fatalf("text that is not UTF-8 was written: %q", s)
				}
			}
		}
		compareTables(t, "fuzz", readArrow(t, buf.Bytes()), want)
		checkStats(t, buf.Bytes(), groups)
	})
}

package publish

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/topicrank/topicrank/internal/version"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// CheckRuns compares the runs.parquet at path with the table rows make
// (from the runs' manifests): cell by cell, rows matched by run id, every
// column the file holds must be one runs.parquet has, holding on every
// row the value the manifests give; the statistics readers prune by must
// match; and a table of this program's columns must be, byte for byte,
// what its writer (the version its footer names) makes of rows. A table
// of an older release lacks the newer columns and passes when what it
// holds is right, so the check does not depend on which version wrote it.
func CheckRuns(path, job string, rows []RunRow) (err error) {
	defer func() { // the Parquet reader panics on some damaged footers
		if e := recover(); e != nil {
			err = fmt.Errorf("unreadable: %v", e)
		}
	}()
	made, err := EncodeRuns(job, rows)
	if err != nil {
		return err
	}
	want, _, err := cells(bytes.NewReader(made))
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	got, names, err := cells(f)
	if err != nil {
		return fmt.Errorf("unreadable: %v", err)
	}
	at := map[string]int{} // run id -> the file's row
	for i, id := range got["run_id"] {
		at[id] = i
	}
	for _, name := range names {
		w, ok := want[name]
		if !ok {
			return fmt.Errorf("column %q is not one runs.parquet has", name)
		}
		for i, id := range want["run_id"] {
			j, ok := at[id]
			if !ok {
				return fmt.Errorf("run %s is not listed", rows[i].RunID)
			}
			if g := got[name][j]; g != w[i] {
				return fmt.Errorf("run %s, column %q: %s, the manifest says %s", rows[i].RunID, name, g, w[i])
			}
		}
	}
	if err := sameStats(f, bytes.NewReader(made)); err != nil {
		return err
	}
	return sameBytes(path, job, rows, names, want)
}

// sameBytes compares a table this build wrote (its footer names this
// version, the columns are this version's) with the bytes it makes of
// rows, so a flipped bit anywhere, a footer or page header included,
// is found. The footer's two records of its writer must agree: one flip
// cannot make a table pass as another writer's.
func sameBytes(path, job string, rows []RunRow, names []string, want map[string][]string) error {
	on, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	ver, by, err := writer(bytes.NewReader(on))
	if err != nil {
		return fmt.Errorf("unreadable footer: %v", err)
	}
	if ver == "" && !strings.HasPrefix(by, "topicrank version ") {
		return nil // not a table topicrank wrote: cells and statistics checked
	}
	if by != "topicrank version "+ver {
		return fmt.Errorf("its footer names two writers: %q and version %q", by, ver)
	}
	if ver != version.String() || len(names) != len(want) {
		return nil // another build's encoder: cells and statistics checked
	}
	made, err := encodeRunsAs(job, rows, ver)
	if err != nil {
		return err
	}
	if !bytes.Equal(on, made) {
		return fmt.Errorf("its bytes differ from the table the manifests make (a page header or the footer)")
	}
	return nil
}

// writer returns the version and created_by a table's footer records.
func writer(r parquet.ReaderAtSeeker) (ver, createdBy string, err error) {
	pf, err := file.NewParquetReader(r)
	if err != nil {
		return "", "", err
	}
	defer pf.Close()
	md := pf.MetaData()
	if v := md.KeyValueMetadata().FindValue("topicrank.version"); v != nil {
		ver = *v
	}
	return ver, md.GetCreatedBy(), nil
}

// sameStats compares the statistics (min, max, null count) the two tables
// keep of each column they share, which readers such as DuckDB skip row
// groups by: a flipped bit there gives wrong answers with every cell
// right. Tables of another writer (a different number of row groups)
// and columns one of them keeps no statistics of are not compared.
func sameStats(got, want parquet.ReaderAtSeeker) error {
	g, err := stats(got)
	if err != nil {
		return fmt.Errorf("unreadable footer: %v", err)
	}
	w, err := stats(want)
	if err != nil {
		return err
	}
	for k, ws := range w {
		if gs, ok := g[k]; ok && gs != ws {
			return fmt.Errorf("the statistics of column %q differ from its values", k)
		}
	}
	return nil
}

// stats returns each column chunk's statistics as text, by row group and
// column path.
func stats(r parquet.ReaderAtSeeker) (map[string]string, error) {
	pf, err := file.NewParquetReader(r)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	md := pf.MetaData()
	out := map[string]string{}
	for i := range md.NumRowGroups() {
		rg := md.RowGroup(i)
		for j := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(j)
			if err != nil {
				return nil, err
			}
			if set, err := cc.StatsSet(); err != nil || !set {
				continue
			}
			st, err := cc.Statistics()
			if err != nil || st == nil {
				continue
			}
			key := fmt.Sprintf("%d/%s", i, cc.PathInSchema())
			out[key] = fmt.Sprintf("%v %x %x %d", st.HasMinMax(), st.EncodeMin(), st.EncodeMax(), st.NullCount())
		}
	}
	return out, nil
}

// cells reads a Parquet table into each column's values as text ("(null)"
// for a null), and the column names in order.
func cells(r parquet.ReaderAtSeeker) (map[string][]string, []string, error) {
	tbl, err := pqarrow.ReadTable(context.Background(), r, parquet.NewReaderProperties(memory.DefaultAllocator),
		pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, nil, err
	}
	defer tbl.Release()
	out := map[string][]string{}
	var names []string
	for i := range int(tbl.NumCols()) {
		col := tbl.Column(i)
		name := col.Name()
		if _, dup := out[name]; dup {
			return nil, nil, fmt.Errorf("column %q twice", name)
		}
		names = append(names, name)
		vals := make([]string, 0, tbl.NumRows())
		for _, chunk := range col.Data().Chunks() {
			for j := range chunk.Len() {
				vals = append(vals, valueText(chunk, j))
			}
		}
		out[name] = vals
	}
	return out, names, nil
}

// valueText is a cell as text, the same for a dictionary-encoded string
// as for a plain one.
func valueText(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "(null)"
	}
	if d, ok := a.(*array.Dictionary); ok {
		return d.Dictionary().ValueStr(d.GetValueIndex(i))
	}
	return a.ValueStr(i)
}

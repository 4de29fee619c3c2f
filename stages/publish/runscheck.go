package publish

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/topicrank/topicrank/internal/version"
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
	on, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	got, names, err := cells(bytes.NewReader(on))
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
	gf, err := readFooter(bytes.NewReader(on))
	if err != nil {
		return fmt.Errorf("unreadable footer: %v", err)
	}
	wf, err := readFooter(bytes.NewReader(made))
	if err != nil {
		return err
	}
	// The statistics (min, max, null count) of each column both tables
	// keep, which readers such as DuckDB skip row groups by: a flipped bit
	// there gives wrong answers with every cell right.
	for k, ws := range wf.stats {
		if gs, ok := gf.stats[k]; ok && gs != ws {
			return fmt.Errorf("the statistics of column %q differ from its values", k)
		}
	}
	return sameBytes(on, made, gf, len(names) == len(want))
}

// sameBytes compares a table this build wrote (its footer names this
// version, its columns are this version's) with made, the bytes this
// build makes of the manifests, so a flipped bit anywhere, a footer or
// page header included, is found. The footer's two records of its
// writer must agree: one flip cannot make a table pass as another
// writer's.
func sameBytes(on, made []byte, f footer, sameColumns bool) error {
	if f.version == "" && !strings.HasPrefix(f.createdBy, "topicrank version ") {
		return nil // not a table topicrank wrote: cells and statistics checked
	}
	if f.createdBy != "topicrank version "+f.version {
		return fmt.Errorf("its footer names two writers: %q and version %q", f.createdBy, f.version)
	}
	if f.version != version.String() || !sameColumns {
		return nil // another build's encoder: cells and statistics checked
	}
	if !bytes.Equal(on, made) {
		return fmt.Errorf("its bytes differ from the table the manifests make (a page header or the footer)")
	}
	return nil
}

// footer is what verify reads of a table's footer: each column chunk's
// statistics as text, by row group and column path (chunks without
// statistics left out), and the writer it records.
type footer struct {
	stats              map[string]string
	version, createdBy string
}

func readFooter(r parquet.ReaderAtSeeker) (footer, error) {
	pf, err := file.NewParquetReader(r)
	if err != nil {
		return footer{}, err
	}
	defer pf.Close()
	md := pf.MetaData()
	f := footer{stats: map[string]string{}, createdBy: md.GetCreatedBy()}
	if v := md.KeyValueMetadata().FindValue("topicrank.version"); v != nil {
		f.version = *v
	}
	for i := range md.NumRowGroups() {
		rg := md.RowGroup(i)
		for j := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(j)
			if err != nil {
				return footer{}, err
			}
			if set, err := cc.StatsSet(); err != nil || !set {
				continue
			}
			st, err := cc.Statistics()
			if err != nil || st == nil {
				continue
			}
			key := fmt.Sprintf("%d/%s", i, cc.PathInSchema())
			f.stats[key] = fmt.Sprintf("%v %x %x %d", st.HasMinMax(), st.EncodeMin(), st.EncodeMax(), st.NullCount())
		}
	}
	return f, nil
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

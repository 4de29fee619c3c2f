package dump

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/internal/decompress"
)

func rows(t *testing.T, path, table string) ([][]string, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tb, err := OpenTable(path, f, table)
	if err != nil {
		return nil, err
	}
	var out [][]string
	for {
		row, err := tb.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		var r []string
		for _, v := range row {
			if v.Null {
				r = append(r, "NULL")
			} else {
				r = append(r, string(v.Bytes))
			}
		}
		out = append(out, r)
	}
}

// The simplewiki 2005 excerpt parses to what its own tests say: 17 rows,
// pl_from summing to 92288, the last (7759, -1, 'Recentchanges'); and its
// escaped titles come out as MySQL wrote them.
func TestSimplewiki2005Pagelinks(t *testing.T) {
	got, err := rows(t, "testdata/simplewiki-2005-pagelinks.sql", "pagelinks")
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, r := range got {
		var n int
		for _, c := range r[0] {
			n = n*10 + int(c-'0')
		}
		sum += n
	}
	if len(got) != 17 || sum != 92288 {
		t.Errorf("%d rows summing to %d, want 17 and 92288", len(got), sum)
	}
	for i, want := range map[int]string{1: `"Captain"_Lou_Albano`, 7: `',_art_title,_'`, 9: `'Allo_'Allo!`, 10: `'Newton's_cradle'_toy`, 16: "...Baby_One_More_Time_(single)"} {
		if got[i][2] != want {
			t.Errorf("row %d: title %q, want %q", i+1, got[i][2], want)
		}
	}
	if first := got[0]; first[0] != "7759" || first[1] != "-1" || first[2] != "Recentchanges" {
		t.Errorf("first row %v", first)
	}
}

// The dewiki excerpt ends without its INSERT's ";": every row before is
// read, then an error names the file and the byte where it ends.
func TestTruncatedInsert(t *testing.T) {
	path := "testdata/dewiki-20240901-linktarget-excerpt.sql"
	got, err := rows(t, path, "linktarget")
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrTruncated) || e.File != path {
		t.Fatalf("err %v, want ErrTruncated naming %s", err, path)
	}
	if st, _ := os.Stat(path); e.Offset != st.Size() {
		t.Errorf("offset %d, want the end of the file, %d", e.Offset, st.Size())
	}
	titles := map[string]bool{}
	for _, r := range got {
		titles[r[2]] = true
	}
	for _, want := range []string{"", "!", `"`, `"''Candidatus''_Anthektikosiphon"`, `"(S\\.(?:`, "!_(Album)", "\"Das_Traumfresserchen“", "!Xóõ"} {
		if !titles[want] {
			t.Errorf("title %q not read", want)
		}
	}
	if len(got) != 191 || got[len(got)-1][2] != `"Der_unsichtbare_Mann"` { // 191 tuples in the file
		t.Errorf("%d rows, last %v", len(got), got[len(got)-1])
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, sql string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(sql), 0o644)
		return p
	}
	create := "CREATE TABLE `pagelinks` (\n  `pl_from` int(8),\n  `pl_namespace` int(11),\n  `pl_title` varbinary(255),\n  PRIMARY KEY (`pl_from`)\n) ENGINE=InnoDB;\n"
	for _, c := range []struct{ name, sql, want string }{
		{"other.sql", "CREATE TABLE `change_tag_def` (\n  `ctd_id` int\n);\nINSERT INTO `change_tag_def` VALUES (NULL);\n", "a dump of table `change_tag_def`, want `pagelinks`"},
		{"empty.sql", "-- nothing\n", "no CREATE TABLE"},
		{"short.sql", create + "INSERT INTO `pagelinks` VALUES (1,0,'A'),(2,0);\n", "a row of 2 values in table `pagelinks` of 3 columns"},
		{"cut.sql", create + "INSERT INTO `pagelinks` VALUES (1,0,'A'),(2,0,'B", "ends inside an INSERT"},
		{"junk.sql", create + "INSERT INTO `pagelinks` VALUES (1,0,'A'),(2,x,'B');\n", "want a value"},
	} {
		_, err := rows(t, write(c.name, c.sql), "pagelinks")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) || !strings.Contains(err.Error(), "byte ") {
			t.Errorf("%s: %v, want %q with the file and byte", c.name, err, c.want)
		}
	}
	// Escapes, NULL, spaces between rows, and a row per line.
	got, err := rows(t, write("ok.sql", create+"INSERT INTO `pagelinks` VALUES (1,0,'a\\'b''c\\\\d\\n\\0\\%'), (2, -3, NULL)\n,(3,0,'');\n"), "pagelinks")
	if err != nil || len(got) != 3 || got[0][2] != "a'b'c\\d\n\x00\\%" || got[1][1] != "-3" || got[1][2] != "NULL" || got[2][2] != "" {
		t.Errorf("rows %q, %v", got, err)
	}
}

// A gzip cut short is an error naming the file, not a graph of what came.
func TestTruncatedGzip(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	b, _ := os.ReadFile("testdata/simplewiki-2005-pagelinks.sql")
	zw.Write(b)
	zw.Close()
	dir := t.TempDir()
	files := Files{Page: filepath.Join(dir, "w-page.sql"), PageLinks: filepath.Join(dir, "w-pagelinks.sql.gz")}
	os.WriteFile(files.Page, []byte("CREATE TABLE `page` (\n  `page_id` int,\n  `page_namespace` int,\n  `page_title` varbinary(255),\n  `page_is_redirect` tinyint\n);\nINSERT INTO `page` VALUES (4016,0,'A',0);\n"), 0o644)
	os.WriteFile(files.PageLinks, buf.Bytes()[:buf.Len()-40], 0o644)
	_, _, err := Read(t.Context(), files)
	if err == nil || !strings.Contains(err.Error(), "w-pagelinks.sql.gz") {
		t.Errorf("a cut gzip: %v", err)
	}
}

// A .sql.gz is read through the expansion bound: a gzip bomb (here rows
// that repeat, under a bound lowered to 1 MiB and 100-fold) is an error
// naming the file, not hours of reading.
func TestGzipBomb(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write([]byte("CREATE TABLE `pagelinks` (\n  `pl_from` int,\n  `pl_namespace` int,\n  `pl_title` varbinary(255)\n);\nINSERT INTO `pagelinks` VALUES (1,0,'A')"))
	for range 1 << 10 {
		zw.Write(bytes.Repeat([]byte(",(1,0,'A')"), 1<<12)) // 40 MiB in all
	}
	zw.Write([]byte(";\n"))
	zw.Close()
	path := filepath.Join(t.TempDir(), "w-pagelinks.sql.gz")
	os.WriteFile(path, buf.Bytes(), 0o644)

	r, done, err := open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	z, ok := r.(*decompress.Reader)
	if !ok {
		t.Fatalf("open(%s) returned a %T, not a bounded reader", path, r)
	}
	z.Floor, z.Ratio = 1<<20, 100
	tb, err := OpenTable(path, r, "pagelinks")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for err == nil {
		_, err = tb.Next()
		n++
	}
	if !strings.Contains(err.Error(), "gzip input expands more than 100-fold") || !strings.Contains(err.Error(), path) {
		t.Errorf("after %d rows: %v", n, err)
	}
}

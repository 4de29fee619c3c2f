package dump

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/topicrank/topicrank/internal/decompress"
)

// Stats counts what reading a wiki's dumps kept and dropped.
type Stats struct {
	Articles      int // namespace-0 pages that are not redirects: the vertices
	Redirects     int // namespace-0 redirects, folded into their targets
	Links         int // pagelinks rows read
	Edges         int // article-to-article links kept (before duplicates)
	NotArticle    int // links from or to another namespace, or from a redirect
	Missing       int // links to a title no page has, or to a redirect with no target
	ViaRedirect   int // links that followed one redirect or more
	RedirectChain int // redirects that lead to another redirect
	RedirectLoop  int // redirects that never reach an article
	// PageIDs is each vertex's page id (page_id of page.sql), by vertex.
	PageIDs []int64
}

// Files are the dump files of one wiki.
type Files struct{ Page, PageLinks, LinkTarget, Redirect string }

// FindFiles finds a wiki's *-page.sql.gz, *-pagelinks.sql.gz,
// *-redirect.sql.gz and (for dumps since 2024) *-linktarget.sql.gz in dir;
// plain .sql files are read too.
func FindFiles(dir string) (Files, error) {
	find := func(table string, required bool) (string, error) {
		for _, ext := range []string{".sql.gz", ".sql"} {
			m, _ := filepath.Glob(filepath.Join(dir, "*-"+table+ext))
			if len(m) > 1 {
				return "", fmt.Errorf("%s: %d files for table %s (%s): keep one wiki's dump per directory", dir, len(m), table, strings.Join(m, ", "))
			}
			if len(m) == 1 {
				return m[0], nil
			}
		}
		if required {
			return "", fmt.Errorf("%s: no *-%s.sql.gz", dir, table)
		}
		return "", nil
	}
	var f Files
	var err error
	if f.Page, err = find("page", true); err != nil {
		return f, err
	}
	if f.PageLinks, err = find("pagelinks", true); err != nil {
		return f, err
	}
	if f.Redirect, err = find("redirect", false); err != nil {
		return f, err
	}
	f.LinkTarget, err = find("linktarget", false)
	return f, err
}

// open opens a dump file, gunzipping a .gz one with its expansion
// bounded (a gzip bomb fails instead of taking unbounded time).
func open(path string) (io.Reader, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, f.Close, nil
	}
	z, err := decompress.NewReader(f, "gzip", "a SQL dump")
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return z, func() error { z.Close(); return f.Close() }, nil
}

// each calls f for every row of table in path, with the indexes of the
// named columns, which must exist.
func each(ctx context.Context, path, table string, columns []string, f func(row []Value, col []int) error) error {
	t, done, err := openTable(path, table)
	if err != nil {
		return err
	}
	defer done()
	return eachRow(ctx, t, columns, f)
}

// openTable opens a dump file and reads it up to its rows.
func openTable(path, table string) (*Table, func() error, error) {
	r, done, err := open(path)
	if err != nil {
		return nil, nil, err
	}
	t, err := OpenTable(path, r, table)
	if err != nil {
		done()
		return nil, nil, err
	}
	return t, done, nil
}

// eachRow calls f for every row of t, with the indexes of the named columns,
// which must exist.
func eachRow(ctx context.Context, t *Table, columns []string, f func(row []Value, col []int) error) error {
	col := make([]int, len(columns))
	for i, c := range columns {
		if col[i] = t.Column(c); col[i] < 0 {
			return t.errorf("table `%s` has no column %s (it has %s)", t.table, c, strings.Join(t.Columns(), ", "))
		}
	}
	for n := 0; ; n++ {
		row, err := t.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(row, col); err != nil {
			return t.wrap(err)
		}
		if n%65536 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
}
